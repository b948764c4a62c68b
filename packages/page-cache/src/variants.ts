import type { IncomingHttpHeaders } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { CacheEntry } from './entry.js';
import type { EntryStore } from './store.js';
import { variantKey, varyNames } from './vary.js';

/** A request whose variant is never stored: it carries a personal header (a cookie) that responses under its key vary on. */
export const PERSONAL = null;

/**
 * Which cache keys hold responses that vary on request headers (besides `Accept-Encoding`), and on which: such
 * responses are stored under their variant's secondary key (see vary.ts), never under the key itself. Remembered for as
 * many keys as the cache holds entries, the most recently used kept.
 */
export class Variants {
  readonly #names: LRUCache<string, readonly string[]>;

  constructor(
    private readonly store: Pick<EntryStore, 'peek' | 'drop'>,
    maxEntries: number,
  ) {
    this.#names = new LRUCache({ max: maxEntries });
  }

  /**
   * Where a request for `key` finds its variant: `undefined` when responses under `key` are not known to vary (look
   * under `key`), {@link PERSONAL} when its variant is never stored, else the secondary key.
   */
  keyFor(key: string, headers: IncomingHttpHeaders): string | typeof PERSONAL | undefined {
    const names = this.#names.get(key);
    if (names === undefined) return undefined;
    return variantKey(key, names, headers) ?? PERSONAL;
  }

  /**
   * The key to store `entry`, rendered for `key` and a request with `headers`, under, or `undefined` when it is not
   * stored (it varies on a personal header the request carries). A response that varies makes the key's non-varying
   * entry, if any, go, since it would be found first.
   */
  storageKey(key: string, entry: CacheEntry, headers: IncomingHttpHeaders): string | undefined {
    const names = varyNames(entry.vary);
    if (names === '*') return undefined;
    if (names.length === 0) {
      this.#names.delete(key);
      return key;
    }
    this.#names.set(key, names);
    const shadowing = this.store.peek(key);
    if (shadowing !== undefined) this.store.drop(key, shadowing);
    return variantKey(key, names, headers);
  }

  /**
   * Whether a request with `headers` that waited on a render under `flightKey` (for `key`, or its variant) may take the
   * entry that render stored under `storedKey`: the key it waited on, or the variant the request selects.
   */
  matches(key: string, flightKey: string, storedKey: string, headers: IncomingHttpHeaders): boolean {
    if (storedKey === flightKey) return true;
    const names = this.#names.get(key);
    return names !== undefined && variantKey(key, names, headers) === storedKey;
  }
}
