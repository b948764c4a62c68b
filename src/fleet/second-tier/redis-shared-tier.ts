import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { SharedCopy, SharedLookup, SharedTicket, SharedTier } from '@sitestack/page-cache';
import type { Logger } from '../../log.js';
import { connectRedis, whenReady } from '../connection.js';
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

const OFF: SharedLookup = { role: 'off' };

/** What the tier of the site with these keys holds; rejects when Redis cannot say. */
export async function sharedTierSize(redis: Redis, keys: SharedTierKeys): Promise<SharedTierSize> {
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
  readonly #redis: Redis;
  readonly #keys: SharedTierKeys;
  readonly #tier: ResolvedSharedTierOptions;
  readonly #logger: Logger;
  readonly #writes = new Set<Promise<unknown>>();
  /** Lookups that timed out and have not been answered yet. */
  #overdue = 0;

  constructor(options: RedisSharedTierOptions) {
    this.#keys = fleetKeys(options.options.prefix).tier;
    this.#tier = options.tier ?? SHARED_TIER_DEFAULTS;
    this.#logger = options.logger;
    this.#redis = connectRedis({ url: options.url, options: options.options, logger: options.logger, role: 'front tier' });
  }

  lookup(key: string, lead: boolean): Promise<SharedLookup> {
    if (this.#overdue > 0 || this.#redis.status !== 'ready') return Promise.resolve(OFF);
    const token = randomBytes(16).toString('hex');
    const keys = this.#keys;
    const reply = this.#redis.callBuffer('EVAL', LOOKUP_SCRIPT, 4, keys.copyPrefix + key, keys.lockPrefix + key, keys.recency, keys.purges, key, lead ? '1' : '0', token, this.#tier.lockMs);
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
          if (answer === undefined) this.#logger.warn({ key }, 'shared tier: Redis answered a lookup with something the script does not give; rendering');
          settle(answer ?? OFF);
        },
        (error: unknown) => {
          this.#logger.debug({ key, err: error instanceof Error ? error.message : String(error) }, 'shared tier: lookup failed; rendering');
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
      this.#logger.debug({ key, size, maxCopyBytes: this.#tier.maxCopyBytes }, 'shared tier: copy over the per-copy limit; not stored');
      this.release(key, ticket);
      return;
    }
    this.#write(
      'store',
      key,
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

  release(key: string, ticket: SharedTicket): void {
    const parts = parseTicket(ticket);
    if (parts === undefined) return;
    this.#write('release', key, this.#redis.eval(RELEASE_SCRIPT, 1, this.#keys.lockPrefix + key, parts.token));
  }

  /** Resolves once connected (lookups answer `off` before); rejects past `timeoutMs`. */
  ready(timeoutMs: number): Promise<void> {
    return whenReady(this.#redis, timeoutMs);
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

  #write(what: string, key: string, reply: Promise<unknown>): void {
    const write = reply.then(
      () => undefined,
      (error: unknown) => this.#logger.debug({ key, err: error instanceof Error ? error.message : String(error) }, `shared tier: ${what} failed; the lock expires by itself`),
    );
    this.#writes.add(write);
    void write.finally(() => this.#writes.delete(write));
  }
}
