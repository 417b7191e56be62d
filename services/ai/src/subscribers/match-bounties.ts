import { defineSubscriber } from '../db.ts';
import type { MatchReadModel } from '../match/read-model.ts';

/** Smart Match's copy of each vendor's bounties (`bounties.saved`), shown as the reward while it is verified. */
export const matchBounties = (readModel: MatchReadModel) =>
  defineSubscriber({
    id: 'ai-match-bounties',
    event: 'bounties.saved',
    handle: ({ event, tx, log }) => readModel.bountiesSaved(tx, event, log),
  });
