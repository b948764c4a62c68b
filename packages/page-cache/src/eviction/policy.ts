/** Keys a policy can hold: the page cache's string keys, or a trace's integers. */
export type PolicyKey = string | number;

/**
 * The bounds a policy sizes its queues by: each queue's share is a fraction of `maxEntries` and, when it is set, of
 * `maxWeight` (bytes, for the page cache). The caller enforces the bounds themselves by calling
 * {@link EvictionPolicy.evict} while over them.
 */
export interface EvictionBounds {
  maxEntries: number;
  maxWeight?: number | undefined;
}

/**
 * Which held key goes when the cache is over its bounds. Every operation is O(1) amortised; `touch` allocates nothing,
 * as it runs on every hit.
 */
export interface EvictionPolicy<K extends PolicyKey> {
  /** Keys held. */
  readonly size: number;
  /** Sum of the weights of the keys held. */
  readonly weight: number;
  has(key: K): boolean;
  /** Records a hit on `key`; false, recording nothing, when it is not held. Never evicts. */
  touch(key: K): boolean;
  /**
   * Holds `key` with `weight`; a key already held takes the new weight and counts as a hit. Never evicts: the caller
   * calls {@link evict} while it is over its bounds, which may then choose the new key itself (an admission refusal).
   */
  insert(key: K, weight: number): void;
  /** Stops holding `key` (a purge); false when it was not held. */
  delete(key: K): boolean;
  /** Chooses one held key, stops holding it and returns it; `undefined` when nothing is held. */
  evict(): K | undefined;
  /** Held keys, in no promised order. */
  keys(): IterableIterator<K>;
}
