import { setTimeout as sleep } from 'node:timers/promises';
import type { PurgeMode } from '@sitestack/page-cache';
import { ERRORS } from '../error-codes.js';
import type { Logger } from '../log.js';
import type { RedisClient } from './connection.js';
import { liveFronts, type FleetFront } from './membership.js';
import type { FleetKeys, ResolvedFleetOptions } from './options.js';
import { PURGE_SCRIPT } from './second-tier/index.js';
import { compareStreamIds } from './stream-ids.js';
import { encodeEntry, type PurgeBatch } from './stream-entry.js';

/** How often the origin looks whether the live fronts applied a purge while it waits for them. */
const APPLIED_POLL_MS = 10;

export interface PurgeStreamWriterOptions {
  redis: RedisClient;
  keys: FleetKeys;
  options: ResolvedFleetOptions;
  logger: Logger;
  /** How the purge treats the shared tier's copies (`PURGE_MODE`): removes them, or marks them stale. @default 'delete' */
  purgeMode?: PurgeMode;
}

/** How a purge went through the stream: its entry, and the fronts that had not applied it when the wait ended. */
export interface StreamDelivery {
  id: string;
  /** Cache keys the fronts reported purging for it, each once (the edge step refreshes their URLs). */
  purged: string[];
  /** Live fronts still behind it when the bounded wait ran out (none: every live front applied it). */
  behind: FleetFront[];
}

/**
 * The origin's side of the purge stream: appends a purge (`XADD MAXLEN ~`), then waits, bounded, until every live
 * front has applied it, so that the edge refreshes from fronts that no longer hold the old page.
 */
export class PurgeStreamWriter {
  readonly #redis: RedisClient;
  readonly #keys: FleetKeys;
  readonly #options: ResolvedFleetOptions;
  readonly #logger: Logger;
  readonly #purgeMode: PurgeMode;

  constructor(options: PurgeStreamWriterOptions) {
    this.#redis = options.redis;
    this.#keys = options.keys;
    this.#options = options.options;
    this.#logger = options.logger;
    this.#purgeMode = options.purgeMode ?? 'delete';
  }

  /** The outbox's name for this delivery route (kept per job in SQLite like a front's purge URL). */
  get route(): string {
    return `redis-stream:${this.#keys.stream}`;
  }

  /**
   * Purges the shared tier and appends the purge in one step; rejects when Redis did not acknowledge it (the outbox
   * retries). Once appended it resolves, after the live fronts applied it or `applyWaitMs`, whichever is first; a
   * failure while waiting only shortens the wait.
   */
  async deliver(batch: PurgeBatch, signal?: AbortSignal): Promise<StreamDelivery> {
    const { stream, tier } = this.#keys;
    const reply = await this.#redis.eval(
      PURGE_SCRIPT,
      4,
      stream,
      tier.purges,
      tier.recency,
      tier.bytes,
      tier.copyPrefix,
      tier.targetPrefix,
      tier.surrogatePrefix,
      this.#purgeMode,
      this.#options.maxLen,
      batch.pathnames.length,
      ...batch.pathnames,
      batch.keys.length,
      ...batch.keys,
      ...encodeEntry(batch),
    );
    const id = Array.isArray(reply) ? reply[0] : undefined;
    if (typeof id !== 'string') throw ERRORS.REDIS_ANSWER_INVALID('the purge script', 'no entry id');
    const behind = await this.#waitApplied(id, signal);
    if (behind.length > 0) {
      this.#logger.warn({ entry: id, fronts: behind.map(({ id: front, address, lastId }) => ({ front, address, lastId })) }, 'live fronts did not apply a purge in time; refreshing the edge anyway');
    }
    return { id, purged: await this.#reports(id), behind };
  }

  async #waitApplied(id: string, signal: AbortSignal | undefined): Promise<FleetFront[]> {
    const deadline = Date.now() + this.#options.applyWaitMs;
    let behind: FleetFront[] = [];
    for (;;) {
      try {
        behind = (await liveFronts(this.#redis, this.#keys, this.#options.memberTtlMs)).filter((front) => compareStreamIds(front.lastId, id) < 0);
      } catch (error) {
        this.#logger.warn({ entry: id, err: error instanceof Error ? error.message : String(error) }, 'cannot read the fleet while waiting for a purge; refreshing the edge now');
        return behind;
      }
      if (behind.length === 0 || Date.now() >= deadline || signal?.aborted === true) return behind;
      await sleep(APPLIED_POLL_MS);
    }
  }

  async #reports(id: string): Promise<string[]> {
    try {
      return await this.#redis.smembers(this.#keys.purged(id));
    } catch {
      // The pathnames still go to the edge; only keys a front found by surrogate key are not refreshed there.
      return [];
    }
  }
}
