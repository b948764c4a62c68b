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
}

export function fleetKeys(prefix: string): FleetKeys {
  const tag = `{${prefix}}`;
  return {
    stream: `${tag}:purges`,
    epoch: `${tag}:epoch`,
    members: `${tag}:fronts`,
    announcements: `${tag}:front-info`,
    purged: (entryId) => `${tag}:purged:${entryId}`,
  };
}
