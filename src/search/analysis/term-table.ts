/**
 * Terms interned: every distinct term read gets a small integer id and one string. The analysis of a page for the
 * index (document.ts) reads its words through a table: a word costs a hash computed while its characters are scanned
 * anyway (see termsOf) and a comparison with the one candidate found, instead of cutting each word out of the page
 * and hashing that copy again for every lookup of what is remembered of the term (its stems, found by id in an
 * array). Pure: no I/O.
 */

/** The first value of a term's hash (FNV-1a's offset basis). */
export const HASH_SEED = 0x811c9dc5 | 0;

/** A term's hash after one more character code (FNV-1a's step). */
export function hashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

/** The hash of a whole term, as hashStep gives it character by character. */
export function hashOf(term: string): number {
  let hash = HASH_SEED;
  for (let i = 0; i < term.length; i++) hash = hashStep(hash, term.charCodeAt(i));
  return hash;
}

/**
 * A string that holds its own characters, for what is remembered. V8 makes a slice of 13 or more characters a view
 * into the string it was cut from, and a term remembered as such a view would keep the whole page it was read from
 * alive for as long as it is remembered.
 */
export function ownCopy(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1);
}

/** Options of a TermTable. */
export interface TermTableOptions {
  /** Terms held before the table forgets them all at the next makeRoom (a vocabulary is Zipfian: most come back). @default 200000 */
  maxTerms?: number;
}

export const TERM_TABLE_DEFAULTS = { maxTerms: 200_000 } as const satisfies Required<TermTableOptions>;

const INITIAL_SLOTS = 1 << 12;

/**
 * An open-addressing table of terms by hash. Ids stay valid until makeRoom empties a full table, which it does
 * between pages only, so that the ids of one page's terms all mean the same terms; `generation` counts the emptyings,
 * for what is remembered by id elsewhere.
 */
export class TermTable {
  readonly #maxTerms: number;
  #hashes = new Int32Array(INITIAL_SLOTS);
  /** Per slot, the id of its term plus one; 0 for an empty slot. */
  #slots = new Int32Array(INITIAL_SLOTS);
  #terms: string[] = [];
  #generation = 0;

  constructor(options: TermTableOptions = {}) {
    this.#maxTerms = options.maxTerms ?? TERM_TABLE_DEFAULTS.maxTerms;
  }

  get size(): number {
    return this.#terms.length;
  }

  get generation(): number {
    return this.#generation;
  }

  /** The term of an id of the current generation. */
  term(id: number): string {
    return this.#terms[id] as string;
  }

  /** Empties the table when it holds its maximum of terms: call it where no caller holds ids, between pages. */
  makeRoom(): void {
    if (this.#terms.length < this.#maxTerms) return;
    this.#hashes = new Int32Array(INITIAL_SLOTS);
    this.#slots = new Int32Array(INITIAL_SLOTS);
    this.#terms = [];
    this.#generation++;
  }

  /** The id of a term. */
  intern(term: string): number {
    return this.word(term, 0, term.length, false, hashOf(term));
  }

  /**
   * The id of the term `text.slice(start, end)`, with its first character lower-cased when `capital` (an ASCII
   * capital, the only one of the word); `hash` is hashOf that term, which the caller computed while reading it.
   */
  word(text: string, start: number, end: number, capital: boolean, hash: number): number {
    const length = end - start;
    const mask = this.#slots.length - 1;
    let slot = hash & mask;
    for (;;) {
      const held = this.#slots[slot] as number;
      if (held === 0) break;
      if (this.#hashes[slot] === hash) {
        const term = this.#terms[held - 1] as string;
        if (term.length === length && sameCharacters(text, start, term, capital)) return held - 1;
      }
      slot = (slot + 1) & mask;
    }
    const id = this.#terms.length;
    const cut = text.slice(start, end);
    this.#terms.push(capital ? cut.toLowerCase() : ownCopy(cut));
    this.#hashes[slot] = hash;
    this.#slots[slot] = id + 1;
    if (this.#terms.length * 2 > this.#slots.length) this.#grow();
    return id;
  }

  #grow(): void {
    const hashes = new Int32Array(this.#slots.length * 2);
    const slots = new Int32Array(this.#slots.length * 2);
    const mask = slots.length - 1;
    for (let old = 0; old < this.#slots.length; old++) {
      const held = this.#slots[old] as number;
      if (held === 0) continue;
      const hash = this.#hashes[old] as number;
      let slot = hash & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      hashes[slot] = hash;
      slots[slot] = held;
    }
    this.#hashes = hashes;
    this.#slots = slots;
  }
}

/** Whether `text` holds `term` at `start`, its first character lower-cased when `capital`. */
function sameCharacters(text: string, start: number, term: string, capital: boolean): boolean {
  const first = text.charCodeAt(start);
  if ((capital ? first | 0x20 : first) !== term.charCodeAt(0)) return false;
  for (let i = 1; i < term.length; i++) if (text.charCodeAt(start + i) !== term.charCodeAt(i)) return false;
  return true;
}
