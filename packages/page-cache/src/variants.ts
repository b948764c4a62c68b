import type { IncomingHttpHeaders } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { CacheEntry } from './entry.js';
import type { EntryStore } from './store.js';
import { variantKey, varyNames } from './vary.js';

/**
 * Most variants held per key: a response varying on a header clients choose freely (`User-Agent`) must not let one
 * page push every other out of the cache. Storing one more drops the variant of that key stored longest ago.
 */
export const MAX_VARIANTS_PER_KEY = 32;

/** A key whose responses vary: the header names, and its variant keys stored, oldest first. */
interface Varying {
  names: readonly string[];
  stored: Set<string>;
}

/** A request whose variant is never stored: it carries a personal header (a cookie) that responses under its key vary on. */
export const PERSONAL = null;

/**
 * Which cache keys hold responses that vary on request headers (besides `Accept-Encoding`), and on which: such
 * responses are stored under their variant's secondary key (see vary.ts), never under the key itself. Remembered for as
 * many keys as the cache holds entries, the most recently used kept.
 */
export class Variants {
  readonly #varying: LRUCache<string, Varying>;

  constructor(
    private readonly store: Pick<EntryStore, 'peek' | 'drop'>,
    maxEntries: number,
  ) {
    this.#varying = new LRUCache({ max: maxEntries });
  }

  /**
   * Where a request for `key` finds its variant: `undefined` when responses under `key` are not known to vary (look
   * under `key`), {@link PERSONAL} when its variant is never stored, else the secondary key.
   */
  keyFor(key: string, headers: IncomingHttpHeaders): string | typeof PERSONAL | undefined {
    const varying = this.#varying.get(key);
    if (varying === undefined) return undefined;
    return variantKey(key, varying.names, headers) ?? PERSONAL;
  }

  /**
   * The key to store `entry`, rendered for `key` and a request with `headers`, under, or `undefined` when it is not
   * stored (it varies on a personal header the request carries). A response that varies makes the key's non-varying
   * entry, if any, go, since it would be found first, and the oldest variant past {@link MAX_VARIANTS_PER_KEY}.
   */
  storageKey(key: string, entry: CacheEntry, headers: IncomingHttpHeaders): string | undefined {
    const names = varyNames(entry.vary);
    if (names === '*') return undefined;
    if (names.length === 0) {
      this.#varying.delete(key);
      return key;
    }
    let varying = this.#varying.get(key);
    if (varying === undefined || varying.names.join() !== names.join()) this.#varying.set(key, (varying = { names, stored: new Set() }));
    this.#drop(key);
    const variant = variantKey(key, names, headers);
    if (variant !== undefined) this.#keep(varying.stored, variant);
    return variant;
  }

  /** Notes `variant` as stored last, dropping the oldest held variants past the bound (and forgetting evicted ones). */
  #keep(stored: Set<string>, variant: string): void {
    stored.delete(variant);
    if (stored.size >= MAX_VARIANTS_PER_KEY) for (const held of stored) if (this.store.peek(held) === undefined) stored.delete(held);
    for (const oldest of stored) {
      if (stored.size < MAX_VARIANTS_PER_KEY) break;
      stored.delete(oldest);
      this.#drop(oldest);
    }
    stored.add(variant);
  }

  #drop(key: string): void {
    const held = this.store.peek(key);
    if (held !== undefined) this.store.drop(key, held);
  }

  /**
   * Whether a request with `headers` that waited on a render under `flightKey` (for `key`, or its variant) may take the
   * entry that render stored under `storedKey`: the key it waited on, or the variant the request selects.
   */
  matches(key: string, flightKey: string, storedKey: string, headers: IncomingHttpHeaders): boolean {
    if (storedKey === flightKey) return true;
    const varying = this.#varying.get(key);
    return varying !== undefined && variantKey(key, varying.names, headers) === storedKey;
  }
}
