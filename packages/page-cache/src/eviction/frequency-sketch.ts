import { mix32 } from './key-hash.js';

/** Counters per key (rows of the sketch), each row indexed by its own hash of the key. */
const DEPTH = 4;
/** A counter's ceiling: four bits' worth, enough to rank keys while halving keeps the counts recent. */
const MAX_COUNT = 15;
/** Seeds that derive each row's index from the key's one hash. */
const ROW_SEEDS = [0x97cb3127, 0x2f0e7d61, 0x5bd1e995, 0x1b873593] as const;
/** Widest table: 4 × 2^22 one-byte counters (16 MiB), whatever `maxEntries` says. */
const MAX_WIDTH = 1 << 22;
/** Additions per counter slot before every count is halved, so that past popularity fades (TinyLFU's reset). */
const SAMPLE_FACTOR = 10;

/**
 * A count-min sketch of how often keys were asked for recently (TinyLFU's frequency histogram): a few bytes per held
 * key, whatever the number of distinct keys seen. Its width follows the number of keys held, up to
 * {@link MAX_WIDTH}, growing (and starting its counts afresh) when more are held.
 */
export class FrequencySketch {
  #table: Uint8Array;
  #mask: number;
  #sampleSize: number;
  #additions = 0;

  constructor(expectedKeys: number) {
    const width = FrequencySketch.#widthFor(expectedKeys);
    this.#table = new Uint8Array(width * DEPTH);
    this.#mask = width - 1;
    this.#sampleSize = width * SAMPLE_FACTOR;
  }

  /** Widens the table when `keys` keys are held and it is narrower: counts restart, as after a growth in Caffeine. */
  ensureCapacity(keys: number): void {
    const width = FrequencySketch.#widthFor(keys);
    if (width <= this.#mask + 1) return;
    this.#table = new Uint8Array(width * DEPTH);
    this.#mask = width - 1;
    this.#sampleSize = width * SAMPLE_FACTOR;
    this.#additions = 0;
  }

  /** The estimated count of the key with this hash: the smallest of its counters. */
  frequency(hash: number): number {
    let least = MAX_COUNT;
    for (let row = 0; row < DEPTH; row++) least = Math.min(least, this.#table[this.#slot(hash, row)]!);
    return least;
  }

  /** Counts one request for the key with this hash. */
  increment(hash: number): void {
    let added = false;
    for (let row = 0; row < DEPTH; row++) {
      const slot = this.#slot(hash, row);
      const count = this.#table[slot]!;
      if (count < MAX_COUNT) {
        this.#table[slot] = count + 1;
        added = true;
      }
    }
    if (added && ++this.#additions >= this.#sampleSize) this.#halve();
  }

  #slot(hash: number, row: number): number {
    return row * (this.#mask + 1) + (mix32(hash ^ ROW_SEEDS[row]!) & this.#mask);
  }

  #halve(): void {
    const table = this.#table;
    for (let i = 0; i < table.length; i++) table[i] = table[i]! >>> 1;
    this.#additions >>>= 1;
  }

  static #widthFor(keys: number): number {
    let width = 16;
    while (width < keys && width < MAX_WIDTH) width *= 2;
    return width;
  }
}
