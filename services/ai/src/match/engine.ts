import {
  PLAN_SHARES,
  type BountySummary,
  type LeadCriteria,
  type MatchRequest,
  type MatchResponse,
  type ProgramMatch,
} from '@app/contracts';
import { companyKey } from '@app/domain';
import type { z } from 'zod';
import { Bm25Index } from './bm25.ts';
import { bountySummaries } from './bounties.ts';
import { checkIcp, readCriteria } from './icp.ts';
import { plainWords, stem, terms } from './text.ts';

type BountySummaryItem = z.infer<typeof BountySummary>;

export type ParsedMatchRequest = z.output<typeof MatchRequest>;

/** A program as the read model holds it (from `program.saved`). */
export interface MatchProgramRecord {
  id: string;
  name: string;
  description: string;
  website: string;
  rewardDetails: string;
  companyName: string | null;
  isActive: boolean;
}

/** A vendor's lead criteria and bounties as stored (validated again when read). */
export interface VendorRecord {
  companyKey: string;
  criteria: unknown;
  bounties: unknown;
}

/** One ranked candidate, before any language model. */
export interface LocalCandidate {
  program: MatchProgramRecord;
  fit: number;
  reasons: string[];
  reward: ProgramMatch['reward'];
}

export interface LocalRanking {
  /** Candidates that pass the ICP, best first (more than asked for, so a model can re-rank them). */
  candidates: LocalCandidate[];
  excluded: MatchResponse['excluded'];
}

/** How many programs sharing words with the need are looked at, at most, before ICP rules. */
const RETRIEVED = 60;
/** Weights of the program's fields in the index. */
const FIELD_WEIGHTS = { name: 3, description: 1, rewardDetails: 0.5 } as const;

const shortened = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Earlier milestones pay the referrer sooner; a high-urgency client tends to move through them fast. */
const EARLY_MILESTONES = new Set(['qualifiedLead', 'meetingHeld', 'opportunityCreated']);

/**
 * The Smart Match catalogue in memory: active programs in a BM25 index, every program and vendor by key.
 * Kept current by the read model's consumers (and by a periodic catch-up on other instances).
 */
export class Matcher {
  readonly index = new Bm25Index();
  readonly #programs = new Map<string, MatchProgramRecord>();
  /** Vendors with their criteria and bounties read once, when saved, not per query. */
  readonly #vendors = new Map<string, { criteria: LeadCriteria | null; bounties: BountySummaryItem[] }>();
  #activeList: MatchProgramRecord[] | null = null;
  /** Program id → its vendor's key ('' for none), computed when the program is saved. */
  readonly #vendorKeys = new Map<string, string>();

  get programCount(): number {
    return this.#programs.size;
  }

  program(id: string): MatchProgramRecord | undefined {
    return this.#programs.get(id);
  }

  /** The active programs; the same array until a program changes (the search indexes it once per list). */
  activePrograms(): readonly MatchProgramRecord[] {
    return (this.#activeList ??= [...this.#programs.values()].filter((program) => program.isActive));
  }

  putProgram(program: MatchProgramRecord): void {
    this.#programs.set(program.id, program);
    this.#vendorKeys.set(program.id, companyKey(program.companyName));
    this.#activeList = null;
    if (!program.isActive) return this.index.remove(program.id);
    this.index.upsert({
      id: program.id,
      fields: [
        { text: program.name, weight: FIELD_WEIGHTS.name },
        { text: program.description, weight: FIELD_WEIGHTS.description },
        { text: program.rewardDetails, weight: FIELD_WEIGHTS.rewardDetails },
      ],
    });
  }

  putVendor(vendor: VendorRecord): void {
    this.#vendors.set(vendor.companyKey, {
      criteria: readCriteria(vendor.criteria),
      bounties: bountySummaries(vendor.bounties),
    });
  }

  vendorOf(program: MatchProgramRecord) {
    const key = this.#vendorKeys.get(program.id);
    return key ? this.#vendors.get(key) : undefined;
  }

  /**
   * Deterministic ranking: BM25 of the need (and integrations, at half weight) over active programs,
   * retrieving only programs that share a term; then each vendor's ICP. fit = 25 + up to 50 for the need
   * (relative to the best match, and the share of the need's words found) + 6 per fitting ICP fact (at
   * most 20) + 5 when the urgency is high and the vendor pays a flat bounty at an early milestone.
   */
  rank(request: ParsedMatchRequest, retrieve = RETRIEVED): LocalRanking {
    const query = new Map<string, number>();
    for (const term of terms(request.need)) query.set(term, Math.max(query.get(term) ?? 0, 1));
    for (const integration of request.integrations)
      for (const term of terms(integration)) query.set(term, Math.max(query.get(term) ?? 0, 0.5));
    const hits = this.index.search(query, retrieve);
    const best = hits[0]?.score ?? 1;
    const needTerms = new Set(terms(request.need));
    const originals = originalWords(request.need + ' ' + request.integrations.join(' '));

    const candidates: LocalCandidate[] = [];
    const excluded: MatchResponse['excluded'] = [];
    for (const hit of hits) {
      const program = this.#programs.get(hit.id)!;
      const vendor = this.vendorOf(program);
      const verdict = checkIcp(vendor?.criteria ?? null, request);
      if (verdict.fails.length) {
        excluded.push({ programId: program.id, programName: program.name, reasons: verdict.fails });
        continue;
      }
      const bounties = vendor?.bounties ?? [];
      const coverage = needTerms.size ? hit.matched.filter((term) => needTerms.has(term)).length / needTerms.size : 0;
      let fit = 25 + 35 * (hit.score / best) + 15 * coverage + Math.min(20, 6 * verdict.fits.length);
      const reasons = [
        `Mentions your need: ${hit.matched
          .slice(0, 4)
          .map((term) => `"${originals.get(term) ?? term}"`)
          .join(', ')}`,
        ...verdict.fits,
      ];
      if (request.urgency === 'high' && bounties.some((b) => b.type === 'flat' && EARLY_MILESTONES.has(b.milestone))) {
        fit += 5;
        reasons.push('Pays early in the deal, suited to an urgent need');
      }
      candidates.push({
        program,
        fit: Math.max(0, Math.min(100, Math.round(fit))),
        reasons,
        reward: { rewardDetails: program.rewardDetails, bounties, referrerShare: PLAN_SHARES.starter },
      });
    }
    candidates.sort(
      (a, b) =>
        b.fit - a.fit || a.program.name.localeCompare(b.program.name) || a.program.id.localeCompare(b.program.id),
    );
    return { candidates, excluded };
  }
}

/** The client's own spelling of each term, for reasons ("CRM" rather than "crm"). */
function originalWords(text: string): Map<string, string> {
  const forms = new Map<string, string>();
  for (const raw of text.split(/[^\p{L}\p{N}]+/u)) {
    const [word] = plainWords(raw);
    if (word && !forms.has(stem(word))) forms.set(stem(word), raw);
  }
  return forms;
}

/** A local candidate as the response shows it. */
export function toMatch(candidate: LocalCandidate, override?: { fit: number; reasons: string[] }): ProgramMatch {
  const { program } = candidate;
  return {
    programId: program.id,
    programName: program.name,
    companyName: program.companyName,
    website: program.website,
    description: shortened(program.description, 1000),
    fit: override?.fit ?? candidate.fit,
    reasons: override?.reasons ?? candidate.reasons,
    reward: candidate.reward,
  };
}
