import type { BackoffPolicy } from '../backoff.js';

/** Options of the fleet's Redis transport, shared by the origin's writer, every front's reader and `sitestack fleet`. */
export interface FleetOptions {
  /**
   * Names every Redis key of this site (`{<prefix>}:purges`, `{<prefix>}:fronts`, …): sites sharing one Redis each take
   * their own. The braces are a Redis Cluster hash tag, so all of a site's keys live in one slot and its scripts run there.
   * @default 'sitestack'
   */
  prefix?: string;
  /** The stream keeps about this many purges (`XADD MAXLEN ~`); a front further behind empties its cache. @default 10000 */
  maxLen?: number;
  /** How often a front announces itself (its address, last applied id and time). @default 1000 */
  heartbeatMs?: number;
  /** A front whose last heartbeat is older than this is no longer alive: nobody waits for it, it leaves the list. @default 5000 */
  memberTtlMs?: number;
  /** How long the origin waits for the live fronts to apply a change before it refreshes the edge anyway. @default 5000 */
  applyWaitMs?: number;
  /** Longest wait for any one Redis command other than a front's blocking read. @default 2000 */
  commandTimeoutMs?: number;
  /** How long a front's blocking read waits for a new purge before it looks again. @default 2000 */
  blockMs?: number;
  /** Delays between reconnection attempts while Redis is away. @default { baseMs: 100, maxMs: 1000 } */
  reconnect?: BackoffPolicy;
}

export type ResolvedFleetOptions = Required<FleetOptions>;

export const FLEET_DEFAULTS: ResolvedFleetOptions = {
  prefix: 'sitestack',
  maxLen: 10_000,
  heartbeatMs: 1_000,
  memberTtlMs: 5_000,
  applyWaitMs: 5_000,
  commandTimeoutMs: 2_000,
  blockMs: 2_000,
  reconnect: { baseMs: 100, maxMs: 1_000 },
};

/** The Redis keys of one site's fleet; one hash tag, so one Cluster slot. */
export interface FleetKeys {
  /** The purge stream the origin appends to and every front reads. */
  stream: string;
  /** A random token set when the data set is new: a front that finds another token knows Redis lost its data. */
  epoch: string;
  /** Sorted set of live fronts by their last heartbeat (Redis time, ms). */
  members: string;
  /** Hash of each live front's announcement (JSON), trimmed with the sorted set. */
  announcements: string;
  /** The cache keys the fronts purged for one stream entry, read by the origin for the edge step; expiring. */
  purged(entryId: string): string;
  /** The shared second tier's keys. */
  tier: SharedTierKeys;
}

/**
 * The second tier's keys. The prefixes end in `:` and are followed by a cache key, a pathname or a surrogate key as
 * they are (Redis keys are binary-safe, and only the first `{…}` of a name is its hash tag).
 */
export interface SharedTierKeys {
  /** Hash of one copy: head, body, targets, keys, size and, once soft-purged, stale (Redis time, ms). */
  copyPrefix: string;
  /** The short lock of the fleet's one render of a cache key: a random token, expiring. */
  lockPrefix: string;
  /** Set of the cache keys of the copies a purge of this pathname removes. */
  targetPrefix: string;
  /** Set of the cache keys of the copies that name this surrogate key. */
  surrogatePrefix: string;
  /** Sorted set of the cache keys held, by last use (Redis time, ms): the budget's LRU order. */
  recency: string;
  /** The bytes of every copy held together. */
  bytes: string;
  /** Counts purges; a render whose ticket saw an older count may have read what a purge replaced. */
  purges: string;
}

export function fleetKeys(prefix: string): FleetKeys {
  const tag = `{${prefix}}`;
  return {
    stream: `${tag}:purges`,
    epoch: `${tag}:epoch`,
    members: `${tag}:fronts`,
    announcements: `${tag}:front-info`,
    purged: (entryId) => `${tag}:purged:${entryId}`,
    tier: {
      copyPrefix: `${tag}:tier:copy:`,
      lockPrefix: `${tag}:tier:lock:`,
      targetPrefix: `${tag}:tier:target:`,
      surrogatePrefix: `${tag}:tier:key:`,
      recency: `${tag}:tier:recency`,
      bytes: `${tag}:tier:bytes`,
      purges: `${tag}:tier:purges`,
    },
  };
}
