import { terms } from './text.ts';

/** Which fields of a program are searched, and how much a word in each counts. */
export interface IndexedDocument {
  id: string;
  fields: Array<{ text: string; weight: number }>;
}

export interface Scored {
  id: string;
  score: number;
  /** The query terms this document contains. */
  matched: string[];
  /** Where the index keeps the document (`slotOf`) until it is removed or saved again. */
  slot: number;
}

const K1 = 1.2;
/** Buckets of the histogram a floor is found with (`#floor`). */
const BUCKETS = 256;
const B = 0.75;

/**
 * An in-memory inverted index scored with BM25. A query reads only the posting lists of its own terms,
 * so its cost grows with the documents that share a word with it, not with the catalogue; the best k are
 * kept in a bounded heap. Documents can be added, replaced and removed at any time (events).
 */
export class Bm25Index {
  /** term → (document slot → weighted term frequency). */
  readonly #postings = new Map<string, Map<number, number>>();
  readonly #slots = new Map<string, number>();
  /** Per slot: the document's id, its terms, its length (undefined/0 when free). */
  #ids: Array<string | undefined> = [];
  #docTerms: Array<string[] | undefined> = [];
  #lengths = new Float64Array(1024);
  readonly #free: number[] = [];
  #totalLength = 0;
  /** Scratch space of a query, reused: accumulated score and matched-terms bitmask per slot, slots touched. */
  #scores = new Float64Array(1024);
  #masks = new Uint32Array(1024);
  #touched = new Int32Array(1024);
  #survivors = new Int32Array(1024);
  #marks = new Uint8Array(1024);
  #selection = new Float64Array(1024);
  readonly #buckets = new Int32Array(BUCKETS);
  /**
   * Each searched term's posting list as flat arrays with its BM25 term-frequency part already computed
   * (it depends on the average length, so any change empties this cache): a query walks typed arrays
   * instead of a Map, allocating nothing per posting.
   */
  readonly #compiled = new Map<string, Posting>();

  get size(): number {
    return this.#slots.size;
  }

  /** The document's slot: a small number, the same from its upsert until it is removed or upserted again. */
  slotOf(id: string): number | undefined {
    return this.#slots.get(id);
  }

  has(id: string): boolean {
    return this.#slots.has(id);
  }

  upsert(doc: IndexedDocument): void {
    this.remove(doc.id);
    this.#compiled.clear();
    const frequencies = new Map<string, number>();
    let length = 0;
    for (const field of doc.fields) {
      for (const term of terms(field.text)) {
        frequencies.set(term, (frequencies.get(term) ?? 0) + field.weight);
        length += field.weight;
      }
    }
    const slot = this.#free.pop() ?? this.#ids.length;
    if (slot >= this.#lengths.length) this.#grow(slot + 1);
    for (const [term, tf] of frequencies) {
      let posting = this.#postings.get(term);
      if (!posting) this.#postings.set(term, (posting = new Map()));
      posting.set(slot, tf);
    }
    this.#slots.set(doc.id, slot);
    this.#ids[slot] = doc.id;
    this.#docTerms[slot] = [...frequencies.keys()];
    this.#lengths[slot] = length;
    this.#totalLength += length;
  }

  remove(id: string): void {
    const slot = this.#slots.get(id);
    if (slot === undefined) return;
    this.#compiled.clear();
    for (const term of this.#docTerms[slot]!) {
      const posting = this.#postings.get(term);
      posting?.delete(slot);
      if (posting?.size === 0) this.#postings.delete(term);
    }
    this.#totalLength -= this.#lengths[slot]!;
    this.#slots.delete(id);
    this.#ids[slot] = undefined;
    this.#docTerms[slot] = undefined;
    this.#lengths[slot] = 0;
    this.#free.push(slot);
  }

  #grow(minimum: number): void {
    const capacity = Math.max(minimum, this.#lengths.length * 2);
    const lengths = new Float64Array(capacity);
    lengths.set(this.#lengths);
    this.#lengths = lengths;
    this.#scores = new Float64Array(capacity);
    this.#masks = new Uint32Array(capacity);
    this.#touched = new Int32Array(capacity);
    this.#survivors = new Int32Array(capacity);
    this.#marks = new Uint8Array(capacity);
    this.#selection = new Float64Array(capacity);
  }

  /**
   * The term's postings: each document's slot with tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / average)) per
   * document, and the largest of those.
   */
  #postingOf(term: string, averageLength: number): Posting | undefined {
    let compiled = this.#compiled.get(term);
    if (compiled) return compiled;
    const posting = this.#postings.get(term);
    if (!posting) return undefined;
    const lengths = this.#lengths;
    const slots = Int32Array.from(posting.keys());
    const weights = new Float64Array(slots.length);
    let max = 0;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      const tf = posting.get(slot)!;
      weights[i] = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[slot]!) / averageLength));
      if (weights[i]! > max) max = weights[i]!;
    }
    compiled = { slots, weights, max };
    this.#compiled.set(term, compiled);
    return compiled;
  }

  /**
   * The k best documents for the weighted query terms, best first. Only the posting lists of the query's
   * terms are read (documents sharing no term cost nothing); scores accumulate in reused typed arrays and
   * the best k are kept in a bounded heap. At most 32 terms are tracked for `matched`.
   *
   * Words found in many documents ("fast", "teams") would make nearly every document a candidate, so they
   * are left out of the search for candidates when they cannot change which k are best (`#pruned`); the
   * scores are the same either way, summed term by term in the query's order.
   */
  search(query: Map<string, number>, k: number, accept?: (id: string) => boolean): Scored[] {
    const n = this.size;
    if (n === 0 || k <= 0) return [];
    const averageLength = this.#totalLength / n || 1;
    const queryTerms = [...query.keys()];
    const postings = queryTerms.map((term) => this.#postingOf(term, averageLength));
    const termWeights = queryTerms.map((term, position) => {
      const size = postings[position]?.slots.length ?? 0;
      return query.get(term)! * Math.log(1 + (n - size + 0.5) / (size + 0.5));
    });
    // No document scores more than every term's largest contribution.
    let top = 0;
    for (let position = 0; position < postings.length; position++)
      top += termWeights[position]! * (postings[position]?.max ?? 0);
    return (
      (accept ? null : this.#pruned(queryTerms, postings, termWeights, k, top)) ??
      this.#exhaustive(queryTerms, postings, termWeights, k, top, accept)
    );
  }

  /** Every document sharing a term with the query is scored and offered to the heap. */
  #exhaustive(
    queryTerms: string[],
    postings: Array<Posting | undefined>,
    termWeights: number[],
    k: number,
    top: number,
    accept: ((id: string) => boolean) | undefined,
  ): Scored[] {
    const scores = this.#scores;
    const masks = this.#masks;
    const touched = this.#touched;
    let touchedCount = 0;
    for (let position = 0; position < postings.length; position++) {
      const posting = postings[position];
      if (!posting) continue;
      const { slots, weights } = posting;
      const size = slots.length;
      const termWeight = termWeights[position]!;
      const bit = position < 32 ? 1 << position : 0;
      for (let i = 0; i < size; i++) {
        const slot = slots[i]!;
        if (masks[slot] === 0 && scores[slot] === 0) touched[touchedCount++] = slot;
        scores[slot]! += termWeight * weights[i]!;
        masks[slot]! |= bit;
      }
    }
    // Without `accept`, among many more than k documents, a floor from a histogram spares the k-th best's
    // selection most of them.
    const minimum =
      !accept && touchedCount > 4 * k ? this.#floor(touched, touchedCount, k, top) * (1 - 1e-9) : -Infinity;
    return this.#best(queryTerms, touched, touchedCount, k, accept, minimum);
  }

  /**
   * The same k as `#exhaustive`, without making a candidate of every document that has one of the query's
   * common words (in more than an eighth of the documents), and without the exact, ordered sum for more than
   * about k documents. The rare terms' posting lists give each of their documents a partial score (with two
   * common terms or more, those that cannot reach the best k even with every common term's largest
   * contribution are dropped first: `#reachable`); the common terms' weights are looked up by slot and added
   * to it: a score summed in another order than the query's, so within a few units in the last place of the
   * exact one. A floor at or below the k-th best of those (`#floor`) is one for the k-th best exact score too
   * (with a margin that dwarfs the rounding): a document below it cannot be among the best k, and neither can
   * a document with none of the rare terms when the sum of the common terms' largest contributions is below
   * it. The few documents left are then scored exactly as `#exhaustive` does (every term, in the query's
   * order, so the sums are bit for bit the same). Null when pruning cannot apply (no common term, fewer than
   * k documents with a rare term, a floor too low): the caller scores exhaustively.
   */
  #pruned(
    queryTerms: string[],
    postings: Array<Posting | undefined>,
    termWeights: number[],
    k: number,
    top: number,
  ): Scored[] | null {
    const common = this.size / 8;
    let bound = 0;
    let commonTerms = 0;
    for (let position = 0; position < postings.length; position++) {
      const posting = postings[position];
      if (posting && posting.slots.length > common) {
        bound += termWeights[position]! * posting.max;
        commonTerms++;
      }
    }
    if (bound === 0) return null;

    const scores = this.#scores;
    const touched = this.#touched;
    let touchedCount = 0;
    for (let position = 0; position < postings.length; position++) {
      const posting = postings[position];
      if (!posting || posting.slots.length > common) continue;
      const { slots, weights } = posting;
      const termWeight = termWeights[position]!;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        if (scores[slot] === 0) touched[touchedCount++] = slot;
        scores[slot]! += termWeight * weights[i]!;
      }
    }
    if (touchedCount < k) {
      for (let t = 0; t < touchedCount; t++) scores[touched[t]!] = 0;
      return null;
    }
    if (commonTerms > 1) touchedCount = this.#reachable(touched, touchedCount, k, top, bound);
    for (let position = 0; position < postings.length; position++) {
      const posting = postings[position];
      if (!posting || posting.slots.length <= common) continue;
      const bySlot = this.#bySlot(posting);
      const termWeight = termWeights[position]!;
      for (let t = 0; t < touchedCount; t++) {
        const slot = touched[t]!;
        scores[slot]! += termWeight * bySlot[slot]!;
      }
    }
    // Rounding: sums in another order may differ by a few units in the last place; this margin dwarfs that.
    const floor = this.#floor(touched, touchedCount, k, top) * (1 - 1e-9);
    const marks = this.#marks;
    const survivors = this.#survivors;
    let survivorCount = 0;
    for (let t = 0; t < touchedCount; t++) {
      const slot = touched[t]!;
      if (scores[slot]! >= floor) {
        survivors[survivorCount++] = slot;
        marks[slot] = 1;
      }
      scores[slot] = 0;
    }
    if (bound * (1 + 1e-9) >= floor) {
      for (let s = 0; s < survivorCount; s++) marks[survivors[s]!] = 0;
      return null;
    }

    const masks = this.#masks;
    for (let position = 0; position < postings.length; position++) {
      const posting = postings[position];
      if (!posting) continue;
      const { slots, weights } = posting;
      const termWeight = termWeights[position]!;
      const bit = position < 32 ? 1 << position : 0;
      if (slots.length <= common) {
        for (let i = 0; i < slots.length; i++) {
          const slot = slots[i]!;
          if (marks[slot] === 0) continue;
          scores[slot]! += termWeight * weights[i]!;
          masks[slot]! |= bit;
        }
      } else {
        const bySlot = this.#bySlot(posting);
        for (let s = 0; s < survivorCount; s++) {
          const slot = survivors[s]!;
          const weight = bySlot[slot]!;
          if (weight === 0) continue;
          scores[slot]! += termWeight * weight;
          masks[slot]! |= bit;
        }
      }
    }
    for (let s = 0; s < survivorCount; s++) marks[survivors[s]!] = 0;
    // At least k survivors score the floor or more: below it, none is kept.
    return this.#best(queryTerms, survivors, survivorCount, k, undefined, floor);
  }

  /**
   * Keeps, of the first `count` slots (partial scores in `#scores`, at least k of them), those that can still
   * reach the best k once up to `bound` is added: the k-th best partial score is a floor for the k-th best
   * final one (the rest only adds), so a slot whose partial score plus `bound` stays below a floor of the
   * partial scores (`#floor`, with the margin that dwarfs rounding) cannot be among the best k, nor tie
   * there. The others' scores are reset; the kept ones are moved to the front. Returns how many are kept (at
   * least the k best partial scores). Worth a pass and a histogram when it spares each dropped slot the lookup
   * of two common words or more.
   */
  #reachable(slots: Int32Array, count: number, k: number, top: number, bound: number): number {
    const scores = this.#scores;
    const floor = this.#floor(slots, count, k, top) * (1 - 1e-9);
    let kept = 0;
    for (let t = 0; t < count; t++) {
      const slot = slots[t]!;
      if (scores[slot]! + bound >= floor) slots[kept++] = slot;
      else scores[slot] = 0;
    }
    return kept;
  }

  /**
   * A floor for the k-th best score of the slots (at most it, give or take rounding), from a histogram of
   * the scores between 0 and `top` (no score above it): the lower edge of the bucket where the count from
   * the top reaches k. One pass, where finding the k-th best itself takes several; the few more documents
   * it lets through are sorted out among the survivors.
   */
  #floor(slots: Int32Array, count: number, k: number, top: number): number {
    const scores = this.#scores;
    const buckets = this.#buckets.fill(0);
    const scale = BUCKETS / (top * (1 + 1e-9));
    for (let t = 0; t < count; t++) buckets[Math.min(BUCKETS - 1, Math.floor(scores[slots[t]!]! * scale))]!++;
    let above = 0;
    let bucket = BUCKETS - 1;
    while ((above += buckets[bucket]!) < k) bucket--;
    return bucket / scale;
  }

  /**
   * A common word's weights by slot (0: not in that document), built once per posting list. Only words in
   * more than an eighth of the documents get one, so there are fewer than 8 × the average number of
   * distinct words per document of them (each 8 bytes per document).
   */
  #bySlot(posting: Posting): Float64Array {
    if (posting.bySlot) return posting.bySlot;
    const bySlot = new Float64Array(this.#lengths.length);
    for (let i = 0; i < posting.slots.length; i++) bySlot[posting.slots[i]!] = posting.weights[i]!;
    return (posting.bySlot = bySlot);
  }

  /**
   * The best k of the scored slots (their scores and masks are reset for the next query). Without `accept`,
   * only slots scoring at least the k-th best score (found in one pass over the scores) reach the heap:
   * hundreds of candidates would otherwise churn it. `minimum`: a score below which none can be kept; that
   * pass resets the slots below it and moves the others to the front of `slots` (the caller's scratch), so
   * the heap's pass reads only those: over thousands of documents, a second pass over all of them missed
   * the processor's cache at each one.
   */
  #best(
    queryTerms: string[],
    slots: Int32Array,
    count: number,
    k: number,
    accept?: (id: string) => boolean,
    minimum = -Infinity,
  ): Scored[] {
    const scores = this.#scores;
    const masks = this.#masks;
    let floor = minimum;
    if (!accept) {
      const selection = this.#selection;
      let selected = 0;
      for (let t = 0; t < count; t++) {
        const slot = slots[t]!;
        const score = scores[slot]!;
        if (score >= minimum) {
          slots[selected] = slot;
          selection[selected++] = score;
        } else {
          scores[slot] = 0;
          masks[slot] = 0;
        }
      }
      count = selected;
      if (selected > k) floor = kthLargest(selection, selected, k);
    }
    const heap = new MinHeap<{ id: string; score: number; mask: number; slot: number }>(k);
    for (let t = 0; t < count; t++) {
      const slot = slots[t]!;
      const score = scores[slot]!;
      const mask = masks[slot]!;
      scores[slot] = 0;
      masks[slot] = 0;
      if (score < floor) continue;
      const id = this.#ids[slot]!;
      if (heap.wouldKeep(score, id) && (!accept || accept(id))) heap.offer({ id, score, mask, slot });
    }
    return heap.drain().map(({ id, score, mask, slot }) => ({
      id,
      score,
      matched: queryTerms.filter((_, i) => i < 32 && (mask & (1 << i)) !== 0),
      slot,
    }));
  }
}

interface Posting {
  /** Document slots. */
  slots: Int32Array;
  weights: Float64Array;
  max: number;
  /** For a common word, its weights by slot (`#bySlot`). */
  bySlot?: Float64Array;
}

/** The k-th largest of the first `count` values (reorders them): quickselect. */
function kthLargest(values: Float64Array, count: number, k: number): number {
  let low = 0;
  let high = count - 1;
  const target = k - 1;
  while (low < high) {
    const pivot = values[(low + high) >>> 1]!;
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i]! > pivot) i++;
      while (values[j]! < pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i++] = values[j]!;
        values[j--] = swap;
      }
    }
    if (target <= j) high = j;
    else if (target >= i) low = i;
    else return values[target]!;
  }
  return values[target]!;
}

/** Keeps the k highest scores seen (ties: the smaller id first, so results are deterministic). */
class MinHeap<T extends { id: string; score: number }> {
  readonly #items: T[] = [];
  readonly #k: number;
  constructor(k: number) {
    this.#k = k;
  }

  static #less(a: { id: string; score: number }, b: { id: string; score: number }): boolean {
    return a.score < b.score || (a.score === b.score && a.id > b.id);
  }

  /** Whether a document with this score would be kept (so the caller builds it only then). */
  wouldKeep(score: number, id: string): boolean {
    if (this.#items.length < this.#k) return true;
    const lowest = this.#items[0]!;
    return score > lowest.score || (score === lowest.score && id < lowest.id);
  }

  offer(item: T): void {
    const items = this.#items;
    if (items.length < this.#k) {
      items.push(item);
      let i = items.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!MinHeap.#less(items[i]!, items[parent]!)) break;
        [items[i], items[parent]] = [items[parent]!, items[i]!];
        i = parent;
      }
    } else if (MinHeap.#less(items[0]!, item)) {
      items[0] = item;
      this.#siftDown(0);
    }
  }

  #siftDown(start: number): void {
    const items = this.#items;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < items.length && MinHeap.#less(items[left]!, items[smallest]!)) smallest = left;
      if (right < items.length && MinHeap.#less(items[right]!, items[smallest]!)) smallest = right;
      if (smallest === i) return;
      [items[i], items[smallest]] = [items[smallest]!, items[i]!];
      i = smallest;
    }
  }

  /** Everything kept, best first. */
  drain(): T[] {
    // Ids are distinct: no two items are equal.
    return [...this.#items].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  }
}
