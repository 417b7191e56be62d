/**
 * Spec 4: the referral-program check found a program when its text does not start with 'NO' and does not
 * contain 'no referral program'. Both read case-insensitively; 'NO' must be a whole word ('No.', 'NO:',
 * 'no ') so a program text that merely begins with those letters ('Notion pays…') still counts.
 */
export function isReferralProgramText(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '') return false;
  if (/^no\b/i.test(trimmed)) return false;
  return !trimmed.toLowerCase().includes('no referral program');
}
