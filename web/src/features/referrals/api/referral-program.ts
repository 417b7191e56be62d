import { operations } from '@app/contracts';
import { call } from '@/lib/api-client';

/** GET /api/products/{projectId}/referral-program → the program's text ('NO…' when there is none). */
export const getReferralProgram = async (projectId: string) =>
  (await call(operations.getReferralProgram, { params: { projectId } })).referralProgram;

/** POST /api/referrals/{id}/automate {dryRun: true}: the mock dry run (never submits anything). */
export const automateReferral = (id: string | number) =>
  call(operations.automateReferral, { params: { id }, body: { dryRun: true } });
