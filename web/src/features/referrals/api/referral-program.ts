import { operations } from '@app/contracts';
import { call } from '@/lib/api-client';

/**
 * GET /api/products/{projectId}/referral-program?referralId= → the program's text ('NO…' when there is none).
 * With the user's referral, the program of the vendor it was routed to counts whatever the vendor's name.
 */
export const getReferralProgram = async (projectId: string, referralId?: number) =>
  (
    await call(operations.getReferralProgram, {
      params: { projectId },
      ...(referralId === undefined ? {} : { query: { referralId } }),
    })
  ).referralProgram;

/** POST /api/referrals/{id}/automate {dryRun: true}: the mock dry run (never submits anything). */
export const automateReferral = (id: string | number) =>
  call(operations.automateReferral, { params: { id }, body: { dryRun: true } });
