import type { MatchResponse } from '@app/contracts';
import type { LanguageModel } from '@app/llm';
import type { FastifyBaseLogger } from 'fastify';
import { toMatch, type Matcher, type ParsedMatchRequest } from './engine.ts';
import { askModelToRank, RERANKED } from './llm-rank.ts';
import type { MatchReadModel } from './read-model.ts';

/** Other instances' changes reach this one's memory within this time (this instance's own at once). */
const SYNC_MS = 10_000;

/**
 * POST /api/match: the local ranking, re-ranked by the language model when one is configured and its answer
 * is valid.
 */
export function smartMatch(deps: { matcher: Matcher; readModel: MatchReadModel; model: LanguageModel | null }) {
  const { matcher, readModel, model } = deps;
  let syncedAt = Date.now();
  let syncing: Promise<void> | null = null;

  /** Catches up with other instances' events; a failure is logged and the memory answers as it is. */
  async function fresh(log: FastifyBaseLogger) {
    if (Date.now() - syncedAt < SYNC_MS) return;
    syncing ??= readModel
      .sync()
      .catch((error: unknown) => log.warn({ err: error }, 'smart match read model sync failed; answering from memory'))
      .finally(() => {
        syncedAt = Date.now();
        syncing = null;
      });
    await syncing;
  }

  return async function match(request: ParsedMatchRequest, log: FastifyBaseLogger): Promise<MatchResponse> {
    await fresh(log);
    const local = matcher.rank(request);
    if (model && local.candidates.length) {
      const candidates = local.candidates.slice(0, RERANKED);
      const ranked = await askModelToRank(model, request, candidates, log);
      if (ranked) {
        const byId = new Map(candidates.map((candidate) => [candidate.program.id, candidate]));
        return {
          matches: ranked
            .slice(0, request.limit)
            .map((entry) => toMatch(byId.get(entry.programId)!, { fit: entry.fit, reasons: entry.reasons })),
          excluded: local.excluded,
          rankedBy: 'llm',
        };
      }
    }
    return {
      matches: local.candidates.slice(0, request.limit).map((candidate) => toMatch(candidate)),
      excluded: local.excluded,
      rankedBy: 'local',
    };
  };
}

export type SmartMatch = ReturnType<typeof smartMatch>;
