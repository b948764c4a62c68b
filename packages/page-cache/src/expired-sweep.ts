import type { CacheEntry } from './entry.js';
import type { StaleUse } from './freshness.js';
import type { EntryStore } from './store.js';

/**
 * Drops entries whose every window has closed (expired, and past `stale-while-revalidate` and `stale-if-error`; or
 * soft-purged longer ago than they may be served), which a request would otherwise find only to drop. It walks the
 * store once every `every` stores, so its cost per store stays constant.
 */
export class ExpiredSweep {
  #stores = 0;

  constructor(
    private readonly store: Pick<EntryStore, 'keys' | 'peek' | 'staleSince' | 'drop'>,
    private readonly every: number,
    /** What a held entry that is no longer fresh is still good for at `now`. */
    private readonly use: (entry: CacheEntry, staleSince: number | undefined, now: number) => StaleUse,
  ) {}

  /** Counts a store at `now`, and sweeps when it is the `every`th. */
  stored(now: number): void {
    if (++this.#stores < this.every) return;
    this.#stores = 0;
    for (const key of this.store.keys()) {
      const entry = this.store.peek(key);
      if (entry === undefined) continue;
      const staleSince = this.store.staleSince(key);
      if (staleSince === undefined && now < entry.freshUntil) continue;
      if (this.use(entry, staleSince, now) === 'drop') this.store.drop(key, entry);
    }
  }
}
