import { defineSubscriber } from '../db.ts';
import type { MatchReadModel } from '../match/read-model.ts';

/** Smart Match's copy of each vendor workspace (`vendor.saved`): its name and whether it is verified. */
export const matchVendors = (readModel: MatchReadModel) =>
  defineSubscriber({
    id: 'ai-match-vendors',
    event: 'vendor.saved',
    handle: ({ event, tx, log }) => readModel.vendorSaved(tx, event, log),
  });
