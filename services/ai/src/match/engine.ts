import {
  PLAN_SHARES,
  type BountySummary,
  type LeadCriteria,
  type MatchRequest,
  type MatchResponse,
  type ProgramMatch,
} from '@app/contracts';
import type { z } from 'zod';
import { Bm25Index } from './bm25.ts';
import { bountySummaries } from './bounties.ts';
import { checkPrepared, prepareClient, prepareCriteria, readCriteria, type PreparedCriteria } from '@app/domain';
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
  /** The vendor workspace it belongs to, null until linked. */
  vendorId: string | null;
  /** The name the programs service sent (a hint): shown only when no verified vendor names it. */
  companyName: string | null;
  isActive: boolean;
}

/** A vendor as stored: its verification, and its lead criteria and bounties (validated again when read). */
export interface VendorRecord {
  vendorId: string;
  name: string;
  verified: boolean;
  criteria: unknown;
  bounties: unknown;
}

/** A vendor as the ranking uses it: criteria and bounties read once, when saved, not per query. */
interface KnownVendor {
  name: string;
  verified: boolean;
  criteria: LeadCriteria | null;
  /** The criteria with what checking them needs (country forms, words of names) worked out. */
  icp: PreparedCriteria | null;
  bounties: BountySummaryItem[];
  /** Pays a flat bounty at an early milestone (a bonus for urgent needs). */
  paysEarly: boolean;
}

/**
 * What the ranking needs of a program beyond its score, worked out once per program and vendor (not per
 * query): its verified vendor, the company shown, the reward. Dropped when the program or any vendor
 * changes, rebuilt when next ranked.
 */
interface Listing {
  program: MatchProgramRecord;
  /** Its verified vendor's criteria and whether it pays early (on the listing, read without the vendor). */
  icp: PreparedCriteria | null;
  paysEarly: boolean;
  vendorId: string | null;
  companyName: string | null;
  reward: ProgramMatch['reward'];
}

/** One ranked candidate, before any language model. */
export interface LocalCandidate {
  program: MatchProgramRecord;
  /** Its verified vendor's id, null when it has none (an unverified workspace is nobody yet). */
  vendorId: string | null;
  /** The company shown: the verified vendor's name, else the program's hint. */
  companyName: string | null;
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

/**
 * String.prototype.localeCompare's order (ECMA-402: the same as a default Intl.Collator) without building
 * a collator on every comparison: ties on fit are frequent and sorting 60 candidates compared names by the
 * hundred per query (a tenth of a ranking's time over 10,000 programs).
 */
const byName = new Intl.Collator().compare;

/** Earlier milestones pay the referrer sooner; a high-urgency client tends to move through them fast. */
const EARLY_MILESTONES = new Set(['qualifiedLead', 'meetingHeld', 'opportunityCreated']);

/**
 * The Smart Match catalogue in memory: active programs in a BM25 index, every program and vendor by id.
 * Kept current by the read model's consumers (and by a periodic catch-up on other instances).
 */
export class Matcher {
  readonly index = new Bm25Index();
  readonly #programs = new Map<string, MatchProgramRecord>();
  readonly #vendors = new Map<string, KnownVendor>();
  /**
   * By the index's slot of the program (`Scored.slot`): a hit's listing is read from a dense array, not looked
   * up by id in a `Map` of the whole catalogue (its hash, bucket and entry missing the processor's cache).
   */
  #listings: Array<Listing | undefined> = [];
  #activeList: MatchProgramRecord[] | null = null;
  /** What `rank`'s first pass read, written so the reads are kept (see there); nothing reads it. */
  // eslint-disable-next-line no-unused-private-class-members
  #read = 0;

  get programCount(): number {
    return this.#programs.size;
  }

  program(id: string): MatchProgramRecord | undefined {
    return this.#programs.get(id);
  }

  /** The active programs; the same array until a program or vendor changes (the search indexes it once per list). */
  activePrograms(): readonly MatchProgramRecord[] {
    return (this.#activeList ??= [...this.#programs.values()].filter((program) => program.isActive));
  }

  putProgram(program: MatchProgramRecord): void {
    this.#programs.set(program.id, program);
    this.#forget(program.id);
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

  /**
   * Drops the listing kept at the program's slot before it is saved again or removed: the slot may change, or
   * go to another program once freed.
   */
  #forget(id: string): void {
    const slot = this.index.slotOf(id);
    if (slot !== undefined && slot < this.#listings.length) this.#listings[slot] = undefined;
  }

  putVendor(vendor: VendorRecord): void {
    const criteria = readCriteria(vendor.criteria);
    const bounties = bountySummaries(vendor.bounties);
    this.#vendors.set(vendor.vendorId, {
      name: vendor.name,
      verified: vendor.verified,
      criteria,
      icp: prepareCriteria(criteria),
      bounties,
      paysEarly: bounties.some((b) => b.type === 'flat' && EARLY_MILESTONES.has(b.milestone)),
    });
    // Its name may show on its programs (search products), its criteria and bounties apply to them.
    this.#activeList = null;
    this.#listings = [];
  }

  /**
   * The program's vendor while it is verified. An unverified workspace's ICP and bounties reach nobody:
   * they are kept, and apply from the moment it is verified.
   */
  vendorOf(program: MatchProgramRecord): KnownVendor | undefined {
    const vendor = program.vendorId ? this.#vendors.get(program.vendorId) : undefined;
    return vendor?.verified ? vendor : undefined;
  }

  /** The company a program is shown with: its verified vendor's name, else the name it was saved with. */
  companyOf(program: MatchProgramRecord): string | null {
    return this.vendorOf(program)?.name || program.companyName;
  }

  #listing(id: string, slot: number): Listing {
    let listing = this.#listings[slot];
    if (listing) return listing;
    const program = this.#programs.get(id)!;
    const vendor = this.vendorOf(program);
    listing = {
      program,
      icp: vendor?.icp ?? null,
      paysEarly: vendor?.paysEarly ?? false,
      vendorId: vendor ? program.vendorId : null,
      companyName: vendor?.name || program.companyName,
      reward: {
        rewardDetails: program.rewardDetails,
        bounties: vendor?.bounties ?? [],
        referrerShare: PLAN_SHARES.starter,
      },
    };
    // Filled up to the slot, never written past its end: an array with holes would be kept as a dictionary.
    while (this.#listings.length <= slot) this.#listings.push(undefined);
    this.#listings[slot] = listing;
    return listing;
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
    // Each query term as a reason shows it ("CRM" as the client wrote it), worked out once per query.
    const quoted = new Map<string, string>();
    for (const term of query.keys()) quoted.set(term, `"${originals.get(term) ?? term}"`);
    const client = prepareClient(request);
    const urgent = request.urgency === 'high';

    // The hits' listings and their vendors' criteria, read first in one tight pass: over thousands of programs
    // each is a cache miss, and in this pass the processor overlaps the misses of several hits, where the
    // checks below would wait for them one at a time (-9 to -12 % for the slowest need over 10,000 programs,
    // bench/README.md "Smart Match", eighth pass). The sum is kept so the reads are not optimised away.
    const listings: Listing[] = new Array<Listing>(hits.length);
    let read = 0;
    for (let i = 0; i < hits.length; i++) {
      const listing = (listings[i] = this.#listing(hits[i]!.id, hits[i]!.slot));
      const icp = listing.icp;
      read += listing.program.name.length;
      if (icp) read += icp.asks + icp.countries.length + icp.industries.length + icp.techStack.size;
    }
    this.#read = read;

    const candidates: LocalCandidate[] = [];
    const excluded: MatchResponse['excluded'] = [];
    for (let i = 0; i < hits.length; i++) {
      const hit = hits[i]!;
      const { program, icp, paysEarly, vendorId, companyName, reward } = listings[i]!;
      const verdict = checkPrepared(icp, client);
      if (verdict.fails.length) {
        excluded.push({ programId: program.id, programName: program.name, reasons: verdict.fails });
        continue;
      }
      const { matched } = hit;
      let found = 0;
      let mentions = 'Mentions your need: ';
      for (let i = 0; i < matched.length; i++) {
        if (needTerms.has(matched[i]!)) found++;
        if (i < 4) mentions += i ? `, ${quoted.get(matched[i]!)!}` : quoted.get(matched[i]!)!;
      }
      const coverage = needTerms.size ? found / needTerms.size : 0;
      let fit = 25 + 35 * (hit.score / best) + 15 * coverage + Math.min(20, 6 * verdict.fits.length);
      const reasons = [mentions, ...verdict.fits];
      if (urgent && paysEarly) {
        fit += 5;
        reasons.push('Pays early in the deal, suited to an urgent need');
      }
      candidates.push({
        program,
        vendorId,
        companyName,
        fit: Math.max(0, Math.min(100, Math.round(fit))),
        reasons,
        reward,
      });
    }
    candidates.sort(
      (a, b) => b.fit - a.fit || byName(a.program.name, b.program.name) || byName(a.program.id, b.program.id),
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
    companyName: candidate.companyName,
    vendorId: candidate.vendorId,
    website: program.website,
    description: shortened(program.description, 1000),
    fit: override?.fit ?? candidate.fit,
    reasons: override?.reasons ?? candidate.reasons,
    reward: candidate.reward,
  };
}
