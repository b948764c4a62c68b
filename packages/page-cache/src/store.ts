import type { CacheEntry } from './entry.js';
import { createBoundedTable, type BoundedTable, type Eviction } from './eviction/index.js';
import { PurgeIndex, type PurgeRules } from './purge-match.js';
import { SurrogateIndex } from './surrogate-keys.js';

export interface PageCacheStats {
  /** Entries held (stale ones included). */
  entries: number;
  /** Bytes held: bodies (every encoding kept) plus header names and values. */
  bytes: number;
  /** Requests answered from a fresh entry (including followers of a single-flight render). */
  hits: number;
  /** Requests passed to the renderer because their key was not held (or its stale copy was too old). */
  misses: number;
  /** Requests answered from a soft-purged or expired entry while it was rendered again (`x-middleware-cache: stale`). */
  stale: number;
  /** Entries removed to respect `maxEntries` or `maxBytes` (with a scan-resistant `eviction`, new ones refused too). */
  evictions: number;
  /** Keys removed (or, with soft purge, marked stale) by purges. */
  purged: number;
  /**
   * Bodies compressed: renders sent compressed, and hits in a coding their entry did not hold yet. Once an entry holds
   * a coding its hits never compress again, so a count that keeps pace with hits means entries are not kept.
   */
  compressions: number;
  /** Misses answered from the shared tier's copy, without a render (counted among `hits` too). */
  sharedHits: number;
}

/** The counts of requests and compressions, kept by the parts that answer them. */
export type RequestCounters = Pick<PageCacheStats, 'hits' | 'misses' | 'stale' | 'compressions' | 'sharedHits'>;

export interface StoreOptions extends PurgeRules {
  maxEntries: number;
  maxBytes: number | undefined;
  /** @default 'lru' */
  eviction?: Eviction | undefined;
}

/** What a purge removes: pathnames by the spec's rule, surrogate keys by the entries that named them. */
export interface PurgeTargets {
  pathnames?: readonly string[] | undefined;
  keys?: readonly string[] | undefined;
}

/**
 * The bounded table of entries (lru-cache, or a scan-resistant policy) with its purge indexes (by pathname and by
 * surrogate key), the soft-purge marks and the counters, all kept consistent through the table's insert and removal
 * callbacks.
 */
export class EntryStore {
  readonly #entries: BoundedTable<string, CacheEntry>;
  readonly #index: PurgeIndex;
  readonly #surrogates = new SurrogateIndex();
  /** When each soft-purged entry was first purged (ms). */
  readonly #staleSince = new Map<string, number>();
  readonly #maxBytes: number | undefined;
  #bytes = 0;
  #evictions = 0;
  #purged = 0;

  constructor(options: StoreOptions) {
    this.#index = new PurgeIndex(options);
    this.#maxBytes = options.maxBytes;
    this.#entries = createBoundedTable<string, CacheEntry>({
      eviction: options.eviction ?? 'lru',
      maxEntries: options.maxEntries,
      maxWeight: options.maxBytes,
      weightOf: (entry) => entry.size,
      onInsert: (entry, key) => {
        this.#bytes += entry.size;
        this.#index.add(key);
        this.#surrogates.add(key, entry.keys);
      },
      onRemove: (entry, key, reason) => {
        this.#bytes -= entry.size;
        if (reason === 'evict') this.#evictions++;
        this.#surrogates.remove(key, entry.keys);
        if (reason !== 'set') {
          this.#index.remove(key);
          this.#staleSince.delete(key);
        }
      },
    });
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Held keys: with LRU most recently used first, with the other policies in the order they were first stored. */
  keys(): string[] {
    return [...this.#entries.keys()];
  }

  get(key: string): CacheEntry | undefined {
    return this.#entries.get(key);
  }

  /** When the entry under `key` was soft-purged (ms), or `undefined` while it is fresh. */
  staleSince(key: string): number | undefined {
    return this.#staleSince.get(key);
  }

  /**
   * Stores `entry` under `key`, fresh, or with `staleSince` stale from that time (a soft-purged render's response);
   * returns false when it is larger than the byte bound (and so not stored). A scan-resistant policy may refuse it at
   * once (an eviction): it still answers the requests waiting for it.
   */
  set(key: string, entry: CacheEntry, staleSince?: number): boolean {
    if (this.#maxBytes !== undefined && entry.size > this.#maxBytes) return false;
    // Marked before the table holds it, so that an immediate eviction of the entry also clears its mark.
    if (staleSince === undefined) this.#staleSince.delete(key);
    else this.#staleSince.set(key, staleSince);
    this.#entries.set(key, entry);
    return true;
  }

  /** The entry held under `key`, without touching its recency. */
  peek(key: string): CacheEntry | undefined {
    return this.#entries.peek(key);
  }

  /**
   * Puts `next` in place of `expected` (an entry that gained encodings), counting its new size and keeping its stale
   * mark; does nothing when the key no longer holds `expected` (purged, evicted or stored again meanwhile). Returns
   * whether it was replaced.
   */
  replace(key: string, expected: CacheEntry, next: CacheEntry): boolean {
    if (this.#entries.peek(key) !== expected) return false;
    return this.set(key, next, this.#staleSince.get(key));
  }

  /** Removes the entry under `key` if it is still `expected`. */
  drop(key: string, expected: CacheEntry): void {
    if (this.#entries.peek(key) === expected) this.#entries.delete(key);
  }

  /** The cache keys the targets match: pathname by pathname (spec §4 order), then key by key, each once. */
  matches(targets: PurgeTargets): string[] {
    const matched = new Set<string>();
    for (const pathname of targets.pathnames ?? []) for (const key of this.#index.keysFor(pathname)) matched.add(key);
    for (const surrogate of targets.keys ?? []) for (const key of this.#surrogates.holders(surrogate)) matched.add(key);
    return [...matched];
  }

  /**
   * Purges what the targets match and returns those keys: removed, or with `staleAt` marked stale from that time (a
   * key already stale keeps its first time, which bounds how long its copy is served).
   */
  purge(targets: PurgeTargets, staleAt?: number): string[] {
    return this.#purgeKeys(this.matches(targets), staleAt);
  }

  /** Purges every entry held, as {@link purge} does what it matches. */
  purgeAll(staleAt?: number): string[] {
    return this.#purgeKeys(this.keys(), staleAt);
  }

  #purgeKeys(keys: readonly string[], staleAt: number | undefined): string[] {
    const purged: string[] = [];
    for (const key of keys) {
      if (staleAt === undefined) {
        if (this.#entries.delete(key)) purged.push(key);
      } else if (this.#entries.has(key)) {
        if (!this.#staleSince.has(key)) this.#staleSince.set(key, staleAt);
        purged.push(key);
      }
    }
    this.#purged += purged.length;
    return purged;
  }

  /** Surrogate keys named by at least one held entry. */
  surrogateKeyCount(): number {
    return this.#surrogates.size;
  }

  counters(): Pick<PageCacheStats, 'entries' | 'bytes' | 'evictions' | 'purged'> {
    return { entries: this.#entries.size, bytes: this.#bytes, evictions: this.#evictions, purged: this.#purged };
  }
}
