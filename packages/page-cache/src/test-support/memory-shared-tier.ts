import type { SharedCopy, SharedLookup, SharedTicket, SharedTier } from '../shared-tier.js';

/**
 * The shared tier's contract held in one process's memory: what several caches of one test share as fronts share
 * Redis. The reference the Redis tier is checked against (one contract suite runs on both).
 */
export interface MemorySharedTier extends SharedTier {
  /** Removes (or with `soft`, marks stale) every copy `targets` or `keys` find, as the origin's purge does. */
  purge(targets: readonly string[], keys: readonly string[], soft: boolean): void;
  /** The copies held, by key. */
  readonly copies: ReadonlyMap<string, SharedCopy>;
  /** Lookups answered so far. */
  lookups: number;
}

export function createMemorySharedTier(options: { lockMs?: number; now?: () => number } = {}): MemorySharedTier {
  const lockMs = options.lockMs ?? 3_000;
  const now = options.now ?? Date.now;
  const copies = new Map<string, SharedCopy>();
  const staleSince = new Map<string, number>();
  const locks = new Map<string, { token: string; until: number }>();
  let purges = 0;
  let tokens = 0;

  const ticketOf = (token: string): SharedTicket => `${token}:${purges}`;
  const lockHolds = (key: string, ticket: SharedTicket) => {
    const lock = locks.get(key);
    return lock !== undefined && lock.until > now() && ticketOf(lock.token).split(':')[0] === ticket.split(':')[0];
  };

  const tier: MemorySharedTier = {
    copies,
    lookups: 0,
    lookup(key, lead): Promise<SharedLookup> {
      tier.lookups++;
      const copy = copies.get(key);
      const stale = staleSince.get(key);
      if (copy !== undefined && stale === undefined) return Promise.resolve({ role: 'found', copy });
      const lock = locks.get(key);
      if (lead && (lock === undefined || lock.until <= now())) {
        const token = String(++tokens);
        locks.set(key, { token, until: now() + lockMs });
        return Promise.resolve({ role: 'lead', ticket: ticketOf(token), copy, staleSince: stale });
      }
      return Promise.resolve({ role: 'wait', copy, staleSince: stale });
    },
    store(key, copy, ticket) {
      if (lockHolds(key, ticket) && ticket === ticketOf(ticket.split(':')[0] ?? '')) {
        copies.set(key, copy);
        staleSince.delete(key);
      }
      tier.release(key, ticket);
    },
    release(key, ticket) {
      if (lockHolds(key, ticket)) locks.delete(key);
    },
    purge(targets, keys, soft) {
      purges++;
      for (const [key, copy] of copies) {
        if (!copy.targets.some((target) => targets.includes(target)) && !copy.keys.some((name) => keys.includes(name))) continue;
        if (soft) staleSince.set(key, staleSince.get(key) ?? now());
        else {
          copies.delete(key);
          staleSince.delete(key);
        }
      }
    },
  };
  return tier;
}
