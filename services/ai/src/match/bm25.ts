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
}

const K1 = 1.2;
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
  /**
   * Each searched term's posting list as flat arrays with its BM25 term-frequency part already computed
   * (it depends on the average length, so any change empties this cache): a query walks typed arrays
   * instead of a Map, allocating nothing per posting.
   */
  readonly #compiled = new Map<string, { slots: Int32Array; weights: Float64Array }>();

  get size(): number {
    return this.#slots.size;
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
  }

  /** The term's postings with tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / average)) per document. */
  #postingOf(term: string, averageLength: number): { slots: Int32Array; weights: Float64Array } | undefined {
    let compiled = this.#compiled.get(term);
    if (compiled) return compiled;
    const posting = this.#postings.get(term);
    if (!posting) return undefined;
    const lengths = this.#lengths;
    compiled = { slots: new Int32Array(posting.size), weights: new Float64Array(posting.size) };
    let i = 0;
    for (const [slot, tf] of posting) {
      compiled.slots[i] = slot;
      compiled.weights[i++] = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[slot]!) / averageLength));
    }
    this.#compiled.set(term, compiled);
    return compiled;
  }

  /**
   * The k best documents for the weighted query terms, best first. Only the posting lists of the query's
   * terms are read (documents sharing no term cost nothing); scores accumulate in reused typed arrays and
   * the best k are kept in a bounded heap. At most 32 terms are tracked for `matched`.
   */
  search(query: Map<string, number>, k: number, accept: (id: string) => boolean = () => true): Scored[] {
    const n = this.size;
    if (n === 0 || k <= 0) return [];
    const averageLength = this.#totalLength / n || 1;
    const scores = this.#scores;
    const masks = this.#masks;
    const touched = this.#touched;
    let touchedCount = 0;
    const queryTerms = [...query.keys()];
    queryTerms.forEach((term, position) => {
      const posting = this.#postingOf(term, averageLength);
      if (!posting) return;
      const { slots, weights } = posting;
      const size = slots.length;
      const termWeight = query.get(term)! * Math.log(1 + (n - size + 0.5) / (size + 0.5));
      const bit = position < 32 ? 1 << position : 0;
      for (let i = 0; i < size; i++) {
        const slot = slots[i]!;
        if (masks[slot] === 0 && scores[slot] === 0) touched[touchedCount++] = slot;
        scores[slot]! += termWeight * weights[i]!;
        masks[slot]! |= bit;
      }
    });
    const heap = new MinHeap(k);
    for (let t = 0; t < touchedCount; t++) {
      const slot = touched[t]!;
      const id = this.#ids[slot]!;
      const score = scores[slot]!;
      const mask = masks[slot]!;
      scores[slot] = 0;
      masks[slot] = 0;
      if (heap.wouldKeep(score, id) && accept(id))
        heap.offer({ id, score, matched: queryTerms.filter((_, i) => i < 32 && (mask & (1 << i)) !== 0) });
    }
    return heap.drain();
  }
}

/** Keeps the k highest scores seen (ties: the smaller id first, so results are deterministic). */
class MinHeap {
  readonly #items: Scored[] = [];
  readonly #k: number;
  constructor(k: number) {
    this.#k = k;
  }

  static #less(a: Scored, b: Scored): boolean {
    return a.score < b.score || (a.score === b.score && a.id > b.id);
  }

  /** Whether a document with this score would be kept (so the caller builds it only then). */
  wouldKeep(score: number, id: string): boolean {
    if (this.#items.length < this.#k) return true;
    const lowest = this.#items[0]!;
    return score > lowest.score || (score === lowest.score && id < lowest.id);
  }

  offer(item: Scored): void {
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
  drain(): Scored[] {
    return [...this.#items].sort((a, b) => (MinHeap.#less(a, b) ? 1 : MinHeap.#less(b, a) ? -1 : 0));
  }
}
