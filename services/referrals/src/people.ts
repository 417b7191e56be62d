/** How a person is named to others: first and last name, else the local part of their email. */
export function personName(person: { firstName: string; lastName: string; email: string }): string {
  const name = `${person.firstName.trim()} ${person.lastName.trim()}`.trim();
  return name || person.email.split('@')[0] || person.email;
}

/** The sender name of intro emails: the referrer's own, through the platform (never the vendor's). */
export const introSenderName = (referrerName: string) => `${referrerName} via Referral Hub`;
