import { apiRequest } from '@/lib/api-client';
import { referralPath } from './keys';

/** GET /api/products/{projectId}/referral-program → {referralProgram}. */
export async function getReferralProgram(projectId: string): Promise<string> {
  const answer = await apiRequest<{ referralProgram?: unknown } | undefined>(
    'GET',
    `/api/products/${encodeURIComponent(projectId)}/referral-program`,
  );
  return typeof answer?.referralProgram === 'string' ? answer.referralProgram : '';
}

/**
 * Spec 4: a program exists when the text does not start with 'NO' and does not contain 'no referral
 * program'. Both are read case-insensitively; 'NO' must be a whole word ('No.', 'NO:', 'no ') so a program
 * text that merely begins with those letters ('Notion pays…') still counts as a program.
 */
export function hasReferralProgram(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '') return false;
  if (/^no\b/i.test(trimmed)) return false;
  return !trimmed.toLowerCase().includes('no referral program');
}

export interface AutomateAnswer {
  success: boolean;
  message: string;
}

/** POST /api/referrals/{id}/automate {dryRun: true}: the mock dry run (never submits anything). */
export async function automateReferral(id: string | number): Promise<AutomateAnswer> {
  const answer = await apiRequest<Partial<AutomateAnswer> | undefined>('POST', `${referralPath(id)}/automate`, {
    dryRun: true,
  });
  return { success: answer?.success === true, message: typeof answer?.message === 'string' ? answer.message : '' };
}
