/** Texts of the referral flow (spec 4 and 8). */
export const SUBMITTED_TOAST = 'Referral submitted successfully';
export const CHECK_FAILED = 'Failed to check referral program';
export const AUTOMATE_FAILED = 'Failed to automate referral';

export const isReferralId = (id: string | undefined): id is string => id !== undefined && /^\d+$/.test(id);
