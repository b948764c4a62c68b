import { LRUCache } from 'lru-cache';
import type { EvictionPolicy, PolicyKey } from './policy.js';
import { createEvictionPolicy, type PolicyName } from './policies.js';

/** Why a value left the table: evicted for the bounds, replaced by a `set` of its key, or deleted. */
export type RemovalReason = 'evict' | 'set' | 'delete';

export interface BoundedTableOptions<K extends PolicyKey, V extends object> {
  /** `'lru'` is lru-cache itself; the others are {@link createEvictionPolicy}'s. */
  eviction: 'lru' | PolicyName;
  maxEntries: number;
  /** Bound on the sum of {@link weightOf}; `undefined`: none. */
  maxWeight: number | undefined;
  weightOf: (value: V) => number;
  /** Called once a value is held (new or replacing another), before any eviction it causes. */
  onInsert: (value: V, key: K) => void;
  /** Called once a value is no longer held. */
  onRemove: (value: V, key: K, reason: RemovalReason) => void;
}

/** The map operations the page cache's store needs, whichever eviction policy bounds it. */
export interface BoundedTable<K extends PolicyKey, V extends object> {
  readonly size: number;
  /** The value under `key`, counted as a hit by the policy. */
  get(key: K): V | undefined;
  /** The value under `key`, the policy left untouched. */
  peek(key: K): V | undefined;
  has(key: K): boolean;
  /** Holds `value` under `key`, then evicts until within the bounds (possibly `key` itself, refused by the policy). */
  set(key: K, value: V): unknown;
  delete(key: K): boolean;
  /** Held keys: with `'lru'` most recently used first; with the others in the order they were first stored. */
  keys(): IterableIterator<K>;
}

export function createBoundedTable<K extends PolicyKey, V extends object>(options: BoundedTableOptions<K, V>): BoundedTable<K, V> {
  if (options.eviction !== 'lru') return new PolicyTable(options, options.eviction);
  return new LRUCache<K, V>({
    max: options.maxEntries,
    ...(options.maxWeight === undefined ? {} : { maxSize: options.maxWeight, sizeCalculation: options.weightOf }),
    onInsert: options.onInsert,
    dispose: (value, key, reason) => options.onRemove(value, key, reason === 'evict' || reason === 'set' ? reason : 'delete'),
  });
}

/** Values in a Map, which keys are held and which goes decided by an {@link EvictionPolicy}. */
class PolicyTable<K extends PolicyKey, V extends object> implements BoundedTable<K, V> {
  readonly #values = new Map<K, V>();
  readonly #policy: EvictionPolicy<K>;
  readonly #options: BoundedTableOptions<K, V>;

  constructor(options: BoundedTableOptions<K, V>, eviction: PolicyName) {
    this.#options = options;
    this.#policy = createEvictionPolicy<K>(eviction, { maxEntries: options.maxEntries, maxWeight: options.maxWeight });
  }

  get size(): number {
    return this.#values.size;
  }

  get(key: K): V | undefined {
    const value = this.#values.get(key);
    if (value !== undefined) this.#policy.touch(key);
    return value;
  }

  peek(key: K): V | undefined {
    return this.#values.get(key);
  }

  has(key: K): boolean {
    return this.#values.has(key);
  }

  set(key: K, value: V): void {
    const { maxEntries, maxWeight, weightOf, onInsert, onRemove } = this.#options;
    const replaced = this.#values.get(key);
    this.#values.set(key, value);
    if (replaced !== undefined) onRemove(replaced, key, 'set');
    this.#policy.insert(key, weightOf(value));
    onInsert(value, key);
    while (this.#policy.size > maxEntries || (maxWeight !== undefined && this.#policy.weight > maxWeight)) {
      const victim = this.#policy.evict();
      if (victim === undefined) break;
      const evicted = this.#values.get(victim)!;
      this.#values.delete(victim);
      onRemove(evicted, victim, 'evict');
    }
  }

  delete(key: K): boolean {
    const value = this.#values.get(key);
    if (value === undefined) return false;
    this.#values.delete(key);
    this.#policy.delete(key);
    this.#options.onRemove(value, key, 'delete');
    return true;
  }

  keys(): IterableIterator<K> {
    return this.#values.keys();
  }
}
