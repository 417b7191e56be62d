import { displayNameText } from '@app/domain';

/** How a person is named to others: first and last name, else the local part of their email. */
export function personName(person: { firstName: string; lastName: string; email: string }): string {
  const name = `${person.firstName.trim()} ${person.lastName.trim()}`.trim();
  return name || person.email.split('@')[0] || person.email;
}

type Profile = { firstName: string; lastName: string; email: string } | null;

/** A referrer profile's name (personName; null: none known yet), `email` standing in for its address. */
export const profileName = (profile: Profile, email = profile?.email ?? '') =>
  personName({ firstName: profile?.firstName ?? '', lastName: profile?.lastName ?? '', email });

/** Whom an email to a referrer greets: their profile's first name, else their address's local part. */
export const profileFirstName = (profile: Profile) =>
  profile?.firstName || personName({ firstName: '', lastName: '', email: profile?.email ?? '' });

/** The sender name of an intro email whose referrer did not allow their name: the platform, which sends it. */
export const PLATFORM_SENDER = 'Referral Hub';

/**
 * The sender name of intro emails: the referrer's own name, through the platform (never the vendor's, never
 * the product's). Made safe for a header (no `<`, `>`, `@`, quotes or control characters; at most
 * DISPLAY_NAME_MAX characters); a name with nothing left falls back to the email's local part, then to
 * "A Referral Hub member".
 */
export function introSenderName(referrer: { firstName: string; lastName: string; email: string }): string {
  const name =
    displayNameText(`${referrer.firstName} ${referrer.lastName}`) ||
    displayNameText(referrer.email.split('@')[0] ?? '') ||
    `A ${PLATFORM_SENDER} member`;
  return `${name} via ${PLATFORM_SENDER}`;
}
