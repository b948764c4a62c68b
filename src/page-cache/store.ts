import { LRUCache } from 'lru-cache';
import type { CacheEntry } from './entry.js';
import { PurgeIndex, type PurgeRules } from './purge-match.js';

export interface PageCacheStats {
  /** Entries held. */
  entries: number;
  /** Bytes held: bodies (every encoding kept) plus header names and values. */
  bytes: number;
  /** Requests answered from the cache (including followers of a single-flight render). */
  hits: number;
  /** Requests passed to the renderer because their key was not held. */
  misses: number;
  /** Entries removed to respect `maxEntries` or `maxBytes`. */
  evictions: number;
  /** Keys removed by purges. */
  purged: number;
}

export interface StoreOptions extends PurgeRules {
  maxEntries: number;
  maxBytes: number | undefined;
}

/** The LRU of entries with its purge index and counters, kept consistent through lru-cache's `dispose`. */
export class EntryStore {
  readonly #lru: LRUCache<string, CacheEntry>;
  readonly #index: PurgeIndex;
  readonly #maxBytes: number | undefined;
  #bytes = 0;
  #evictions = 0;
  #purged = 0;

  constructor(options: StoreOptions) {
    this.#index = new PurgeIndex(options);
    this.#maxBytes = options.maxBytes;
    this.#lru = new LRUCache<string, CacheEntry>({
      max: options.maxEntries,
      ...(options.maxBytes === undefined ? {} : { maxSize: options.maxBytes, sizeCalculation: (entry: CacheEntry) => entry.size }),
      dispose: (entry, key, reason) => {
        this.#bytes -= entry.size;
        if (reason === 'evict') this.#evictions++;
        if (reason !== 'set') this.#index.remove(key);
      },
    });
  }

  get size(): number {
    return this.#lru.size;
  }

  /** Held keys, most recently used first. */
  keys(): string[] {
    return [...this.#lru.keys()];
  }

  get(key: string): CacheEntry | undefined {
    return this.#lru.get(key);
  }

  /** Stores `entry` under `key`; returns false when it is larger than the byte bound (and so not stored). */
  set(key: string, entry: CacheEntry): boolean {
    if (this.#maxBytes !== undefined && entry.size > this.#maxBytes) return false;
    this.#lru.set(key, entry);
    this.#bytes += entry.size;
    this.#index.add(key);
    return true;
  }

  /** The entry held under `key`, without touching its recency. */
  peek(key: string): CacheEntry | undefined {
    return this.#lru.peek(key);
  }

  /**
   * Puts `next` in place of `expected` (an entry that gained encodings), counting its new size; does nothing when the
   * key no longer holds `expected` (purged, evicted or stored again meanwhile). Returns whether it was replaced.
   */
  replace(key: string, expected: CacheEntry, next: CacheEntry): boolean {
    if (this.#lru.peek(key) !== expected) return false;
    return this.set(key, next);
  }

  /** Removes the keys each pathname matches, pathname by pathname, and returns them in that order. */
  purge(pathnames: readonly string[]): string[] {
    const purged: string[] = [];
    for (const pathname of pathnames) {
      for (const key of this.#index.keysFor(pathname)) {
        if (this.#lru.delete(key)) purged.push(key);
      }
    }
    this.#purged += purged.length;
    return purged;
  }

  counters(): Pick<PageCacheStats, 'entries' | 'bytes' | 'evictions' | 'purged'> {
    return { entries: this.#lru.size, bytes: this.#bytes, evictions: this.#evictions, purged: this.#purged };
  }
}
