import { defineSubscriber } from '../db.ts';
import type { MatchReadModel } from '../match/read-model.ts';

/** Smart Match's copy of each vendor's lead criteria (`lead_criteria.saved`), for the ICP checks while it is verified. */
export const matchLeadCriteria = (readModel: MatchReadModel) =>
  defineSubscriber({
    id: 'ai-match-lead-criteria',
    event: 'lead_criteria.saved',
    handle: ({ event, tx, log }) => readModel.leadCriteriaSaved(tx, event, log),
  });
