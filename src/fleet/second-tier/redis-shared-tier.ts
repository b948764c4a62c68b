import { randomBytes } from 'node:crypto';
import type { SharedCopy, SharedLookup, SharedTicket, SharedTier } from '@sitestack/page-cache';
import { ERRORS } from '../../error-codes.js';
import type { Logger } from '../../log.js';
import { connectRedis, whenReady, type RedisClient } from '../connection.js';
import { fleetKeys, type ResolvedFleetOptions, type SharedTierKeys } from '../options.js';
import { SHARED_TIER_DEFAULTS, type ResolvedSharedTierOptions } from './options.js';
import { lookupAnswer, parseTicket } from './replies.js';
import { LOOKUP_SCRIPT, RELEASE_SCRIPT, SIZE_SCRIPT, STORE_SCRIPT } from './scripts.js';

export interface RedisSharedTierOptions {
  /** `REDIS_URL`. */
  url: string;
  /** The fleet's options: its prefix, command timeout and reconnection. */
  options: ResolvedFleetOptions;
  /** @default SHARED_TIER_DEFAULTS */
  tier?: ResolvedSharedTierOptions;
  logger: Logger;
}

/** What the tier holds, for `sitestack fleet` and metrics. */
export interface SharedTierSize {
  copies: number;
  bytes: number;
}

/** What the tier answered and did since it started, for a front's metrics. */
export interface SharedTierStats {
  /** Lookups by answer; `off` counts errors, late replies and lookups while Redis was away or late. */
  lookups: Record<SharedLookup['role'], number>;
  /** Copies stored; refused because a purge came after their ticket or their lock was lost; not sent (over the per-copy limit). */
  stores: { stored: number; refused: number; oversized: number; failed: number };
  /** Copies evicted by this process's stores to keep the budget. */
  evicted: number;
}

const OFF: SharedLookup = { role: 'off' };
/** The most of a cache key a log line repeats. */
const LOGGED_KEY_CHARS = 200;
const logged = (key: string): string => (key.length > LOGGED_KEY_CHARS ? `${key.slice(0, LOGGED_KEY_CHARS)}…` : key);
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** What the tier of the site with these keys holds; rejects when Redis cannot say. */
export async function sharedTierSize(redis: RedisClient, keys: SharedTierKeys): Promise<SharedTierSize> {
  const [copies, bytes] = (await redis.eval(SIZE_SCRIPT, 2, keys.recency, keys.bytes)) as [number, number];
  return { copies, bytes };
}

/**
 * The shared second tier in Redis (docs/fleet.md, "The shared second tier"): one connection of its own, each step
 * one Lua script. A lookup answers `off` when Redis errs or is later than `lookupTimeoutMs`, and at once while an
 * earlier lookup is still overdue (Redis paused or far away: misses then render without waiting on it). Stores and
 * releases are fire and forget; a failed one leaves the lock to expire.
 */
export class RedisSharedTier implements SharedTier {
  readonly #redis: RedisClient;
  readonly #keys: SharedTierKeys;
  readonly #tier: ResolvedSharedTierOptions;
  readonly #logger: Logger;
  readonly #writes = new Set<Promise<unknown>>();
  /** Lookups that timed out and have not been answered yet. */
  #overdue = 0;
  readonly #stats: SharedTierStats = { lookups: { found: 0, lead: 0, wait: 0, off: 0 }, stores: { stored: 0, refused: 0, oversized: 0, failed: 0 }, evicted: 0 };

  constructor(options: RedisSharedTierOptions) {
    this.#keys = fleetKeys(options.options.prefix).tier;
    this.#tier = options.tier ?? SHARED_TIER_DEFAULTS;
    this.#logger = options.logger;
    this.#redis = connectRedis({ url: options.url, options: options.options, logger: options.logger, role: 'front tier' });
  }

  async lookup(key: string, lead: boolean): Promise<SharedLookup> {
    const answer = await this.#lookup(key, lead);
    this.#stats.lookups[answer.role]++;
    return answer;
  }

  #lookup(key: string, lead: boolean): Promise<SharedLookup> {
    if (this.#overdue > 0 || this.#redis.status !== 'ready') return Promise.resolve(OFF);
    const token = randomBytes(16).toString('hex');
    const keys = this.#keys;
    let reply: Promise<unknown>;
    try {
      reply = this.#redis.callBuffer('EVAL', LOOKUP_SCRIPT, 4, keys.copyPrefix + key, keys.lockPrefix + key, keys.recency, keys.purges, key, lead ? '1' : '0', token, this.#tier.lockMs);
    } catch (error) {
      this.#logger.debug({ key: logged(key), err: message(error) }, 'shared tier: lookup not sent; rendering');
      return Promise.resolve(OFF);
    }
    return new Promise((resolve) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        this.#overdue++;
        resolve(OFF);
      }, this.#tier.lookupTimeoutMs);
      const settle = (answer: SharedLookup) => {
        if (late) {
          this.#overdue--;
          // The caller renders on its own: a lock it got meanwhile is nobody's, so it goes at once.
          if (answer.role === 'lead') this.release(key, answer.ticket);
          return;
        }
        clearTimeout(timer);
        resolve(answer);
      };
      reply.then(
        (value: unknown) => {
          const answer = lookupAnswer(value, token);
          if (answer === undefined) this.#logger.warn({ key: logged(key) }, 'shared tier: Redis answered a lookup with something the script does not give; rendering');
          settle(answer ?? OFF);
        },
        (error: unknown) => {
          this.#logger.debug({ key: logged(key), err: message(error) }, 'shared tier: lookup failed; rendering');
          settle(OFF);
        },
      );
    });
  }

  store(key: string, copy: SharedCopy, ticket: SharedTicket): void {
    const parts = parseTicket(ticket);
    if (parts === undefined) return;
    const keys = this.#keys;
    const names = [key, copy.head, ...copy.targets, ...copy.keys];
    const size = copy.body.length + names.reduce((total, name) => total + Buffer.byteLength(name), 0);
    if (size > this.#tier.maxCopyBytes) {
      this.#logger.debug({ key: logged(key), size, maxCopyBytes: this.#tier.maxCopyBytes }, 'shared tier: copy over the per-copy limit; not stored');
      this.#stats.stores.oversized++;
      this.release(key, ticket);
      return;
    }
    this.#write('store', key, (reply) => this.#stored(reply), () =>
      this.#redis.eval(
        STORE_SCRIPT,
        5,
        keys.copyPrefix + key,
        keys.lockPrefix + key,
        keys.recency,
        keys.purges,
        keys.bytes,
        keys.copyPrefix,
        keys.targetPrefix,
        keys.surrogatePrefix,
        key,
        parts.token,
        parts.purges,
        copy.head,
        copy.body,
        this.#tier.maxBytes,
        copy.targets.length,
        ...copy.targets,
        ...copy.keys,
      ),
    );
  }

  #stored(reply: unknown): void {
    const [outcome, evicted] = Array.isArray(reply) ? (reply as unknown[]) : [];
    if (outcome === 'stored') this.#stats.stores.stored++;
    else if (outcome === 'purged' || outcome === 'not-holder') this.#stats.stores.refused++;
    else this.#stats.stores.failed++;
    if (typeof evicted === 'number') this.#stats.evicted += evicted;
  }

  release(key: string, ticket: SharedTicket): void {
    const parts = parseTicket(ticket);
    if (parts === undefined) return;
    this.#write('release', key, () => undefined, () => this.#redis.eval(RELEASE_SCRIPT, 1, this.#keys.lockPrefix + key, parts.token));
  }

  /** Counts since this tier started (copies of the counters). */
  stats(): SharedTierStats {
    return { lookups: { ...this.#stats.lookups }, stores: { ...this.#stats.stores }, evicted: this.#stats.evicted };
  }

  /**
   * Resolves once connected and a command on the tier's own keys was answered (lookups answer `off` before); rejects
   * past `timeoutMs`. The round trip opens the connection to the node of the fleet's slot, which a Cluster client
   * opens only at the first command there: otherwise a new front's first lookup would pay for it.
   */
  async ready(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    await whenReady(this.#redis, timeoutMs);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(ERRORS.REDIS_NOT_READY(timeoutMs)), Math.max(0, deadline - Date.now()));
    });
    try {
      await Promise.race([this.#redis.exists(this.#keys.bytes), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** What the tier holds now; rejects when Redis cannot say. */
  size(): Promise<SharedTierSize> {
    return sharedTierSize(this.#redis, this.#keys);
  }

  /** Resolves when every store and release sent so far has been answered (or failed). */
  async settled(): Promise<void> {
    while (this.#writes.size > 0) await Promise.allSettled([...this.#writes]);
  }

  /** Waits for the writes under way (each bounded by the command timeout), then disconnects. */
  async close(): Promise<void> {
    await this.settled();
    this.#redis.disconnect();
  }

  /** Sends a store or release (`send`), fire and forget: `done` reads its reply; a failure is logged, never thrown. */
  #write(what: string, key: string, done: (reply: unknown) => void, send: () => Promise<unknown>): void {
    const failed = (error: unknown) => {
      if (what === 'store') this.#stats.stores.failed++;
      this.#logger.debug({ key: logged(key), err: message(error) }, `shared tier: ${what} failed; the lock expires by itself`);
    };
    let write: Promise<void>;
    try {
      write = send().then(done, failed);
    } catch (error) {
      failed(error);
      return;
    }
    this.#writes.add(write);
    void write.finally(() => this.#writes.delete(write));
  }
}
