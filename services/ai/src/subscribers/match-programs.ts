import { defineSubscriber } from '../db.ts';
import type { MatchReadModel } from '../match/read-model.ts';

/** Smart Match's copy of each referral program (`program.saved`). */
export const matchPrograms = (readModel: MatchReadModel) =>
  defineSubscriber({
    id: 'ai-match-programs',
    event: 'program.saved',
    handle: async ({ event, tx, log }) => {
      await readModel.programSaved(tx, event);
      log.info({ programId: event.payload.programId, isActive: event.payload.isActive }, 'program read model updated');
    },
  });
