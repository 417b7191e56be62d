import { BOUNTY_MESSAGES, DEFAULT_BOUNTIES, MILESTONES, SaveBountiesRequest, type Bounties } from '@app/contracts';
import { DEFAULT_MRR_MONTHS } from '@app/domain';
import { z } from 'zod';

/** 'Title – description' (spec 5) split for a toast. */
const splitMessage = (message: string) => {
  const [title, ...rest] = message.split(' – ');
  return { title: title!, description: rest.join(' – ') };
};

/** What is sent: the details of enabled milestones only (months only for percentage_mrr). */
export function bountiesPayload(bounties: Bounties): Bounties {
  const out = {} as Bounties;
  for (const m of MILESTONES) {
    const b = bounties[m];
    if (!b.enabled) {
      out[m] = { enabled: false };
      continue;
    }
    const type = b.type ?? 'flat';
    out[m] = { enabled: true, type, ...(b.amount !== undefined ? { amount: b.amount } : {}) };
    if (type === 'percentage_mrr') out[m].months = b.months ?? DEFAULT_MRR_MONTHS;
  }
  return out;
}

/** The form's schema: what the form holds (details of switched-off milestones too), checked as it is sent. */
export const BountiesForm = z.custom<Bounties>().transform(bountiesPayload).pipe(SaveBountiesRequest);

/** The title of a problem whose message the spec does not write as a toast (months, percentages). */
export const BOUNTY_PROBLEM_TITLE = 'Check your bounties';

/** The first rule of spec 5 the bounties break, as a toast; null when they can be saved. */
export function bountyProblem(bounties: Bounties): { title: string; description: string } | null {
  const result = SaveBountiesRequest.safeParse(bountiesPayload(bounties));
  if (result.success) return null;
  const messages = result.error.issues.map((i) => i.message);
  const first =
    messages.find((m) => m === BOUNTY_MESSAGES.noneEnabled) ??
    messages.find((m) => m === BOUNTY_MESSAGES.missingAmount) ??
    messages[0]!;
  return first.includes(' – ') ? splitMessage(first) : { title: BOUNTY_PROBLEM_TITLE, description: first };
}

/** The form's starting point: the saved bounties, else the defaults (spec 3), every milestone present. */
export function initialBounties(saved: Bounties | null): Bounties {
  const base = saved ?? DEFAULT_BOUNTIES;
  return Object.fromEntries(MILESTONES.map((m) => [m, { ...(base[m] ?? { enabled: false }) }])) as Bounties;
}
