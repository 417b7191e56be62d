import type { Bounty, Commission, Milestone } from '@app/contracts';
import { commissionCents, retentionDueAt, STAGE_MILESTONES } from '@app/domain';
import { fail, type TransactionRunner } from '@app/kit';
import type pg from 'pg';
import {
  commissionsRepository,
  dueForRetention,
  insertCommission,
  lockForRetention,
  referralWithBounties,
  stagesReached,
} from './commissions-repository.ts';
import type { Tx } from './db.ts';
import type { PrismaClient } from './generated/prisma/client.ts';

/**
 * Commissions: a vendor's enabled bounty becomes the referrer's when a referral reaches its milestone.
 * The amounts, the split and the defaults are rules of @app/domain (commissions.ts), the stage ->
 * milestone mapping its stage model (stages.ts); this module decides when they are earned.
 *
 * - A milestone is paid only when its stage was really reached (a jump from Tee-up to Closed-Won pays
 *   closedWon only); retentionBonus once the referral stayed Closed-Won for the bonus's months, found by
 *   the periodic retention check (retention.ts).
 * - A percentage bounty without a deal value waits: it is earned when a later status change (or the same
 *   status again) gives the deal value, for every milestone reached.
 * - The bounties are the vendor's at the time the commission is earned.
 * - Once per referral and milestone: unique (referral_id, milestone), in the transaction that changes the
 *   status (the referral row is locked), so retries, concurrent requests and moves back and forth pay once.
 * - Payout state: in_escrow when earned, paid_out when an administrator records the payout.
 */

async function earn(
  tx: Tx,
  earned: { referralId: number; userId: string; milestone: Milestone; bounty: Bounty; dealValue: number | null },
  at = new Date(),
): Promise<number> {
  const cents = commissionCents(earned.bounty, earned.dealValue);
  if (!cents) return 0;
  return insertCommission(tx, { ...earned, cents, at });
}

/**
 * Earns what the referral's reached milestones are owed and not yet paid. Runs in the transaction that
 * changed the referral (its row locked); a no-op when its vendor has no bounties.
 */
export async function earnCommissions(tx: Tx, referralId: number): Promise<number> {
  const vendor = await referralWithBounties(tx, referralId);
  if (!vendor) return 0;
  let earned = 0;
  for (const stage of await stagesReached(tx, referralId)) {
    const milestone = STAGE_MILESTONES[stage];
    if (!milestone) continue;
    const bounty = vendor.bounties[milestone];
    earned += await earn(tx, { referralId, userId: vendor.userId, milestone, bounty, dealValue: vendor.dealValue });
  }
  return earned;
}

/** Use cases of commissions that are not part of a referral's status change. */
export function commissionUseCases(deps: { prisma: PrismaClient; pool: pg.Pool; transaction: TransactionRunner<Tx> }) {
  const { prisma, transaction } = deps;
  const repository = commissionsRepository(deps.pool);
  return {
    /**
     * Earns the retention bonuses due at `now`: Closed-Won referrals that stayed so for their vendor's
     * retention months and have no bonus yet. Each in its own transaction, with the referral locked and its
     * state checked again. Answers how many were earned.
     */
    async earnRetentionBonuses(now: Date = new Date(), batch = 500): Promise<number> {
      let total = 0;
      for (;;) {
        const due = await dueForRetention(prisma, now, batch);
        let earned = 0;
        for (const referralId of due) {
          earned += await transaction(async (tx) => {
            const referral = await lockForRetention(tx, referralId);
            if (!referral || referral.status !== 'became_customer' || !referral.closedWonAt) return 0;
            const bounty = referral.bounties.retentionBonus;
            if (retentionDueAt(referral.closedWonAt, bounty) > now) return 0;
            const { userId, dealValue } = referral;
            return earn(tx, { referralId, userId, milestone: 'retentionBonus', bounty, dealValue }, now);
          });
        }
        total += earned;
        // Rows that could not be earned (percentage without a deal value) stay due: stop at a short batch.
        if (due.length < batch || earned === 0) return total;
      }
    },

    /** Records a payout (administrators); paying twice keeps the first date. */
    async recordPayout(commissionId: string): Promise<Commission> {
      if (!(await repository.markPaidOut(commissionId))) fail('COMMISSION_NOT_FOUND');
      return (await repository.byId(commissionId)) ?? fail('COMMISSION_NOT_FOUND');
    },
  };
}

export type CommissionUseCases = ReturnType<typeof commissionUseCases>;
