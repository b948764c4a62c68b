import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PurgeRequest } from '@sitestack/page-cache';
import { retryDelayMs } from '../backoff.js';
import type { Logger } from '../log.js';
import { connectRedis, type RedisClient } from './connection.js';
import type { Announcement } from './membership.js';
import { fleetKeys, type FleetKeys, type ResolvedFleetOptions } from './options.js';
import { HEARTBEAT_SCRIPT, READ_SCRIPT } from './scripts.js';
import { compareStreamIds, STREAM_START } from './stream-ids.js';
import { decodeEntry, MAX_ENTRY_BYTES } from './stream-entry.js';

/** Entries read in one step: a front far behind catches up in steps of this many, each reported at once. */
const READ_BATCH = 50;
/** How long the cache keys a front reports purging for an entry are kept for the origin's edge step. */
const REPORT_TTL_MS = 10 * 60 * 1_000;
/** The most purged cache keys reported for one entry (a front's purge answer is bounded the same way). */
const REPORT_MAX_KEYS = 1_000;
/** Skipped entries logged one by one per step; more are counted in one line. */
const SKIPS_LOGGED = 10;

/** What a front's reader purges. */
export interface PurgeTarget {
  /** Applies one purge; returns the cache keys it purged. */
  purge(request: PurgeRequest): string[];
  /** Empties the cache: it may hold pages changed by purges the stream no longer tells. */
  empty(reason: string): void;
  /** Whether the cache holds anything (a front that served before it first reached Redis empties then). */
  holdsPages(): boolean;
}

export interface FleetReaderOptions {
  /** `REDIS_URL`. */
  url: string;
  options: ResolvedFleetOptions;
  logger: Logger;
  target: PurgeTarget;
  /** The front's address, as announced. */
  address: string;
  /** @default `<host>:<pid>:<random>` */
  id?: string;
}

/** What a reader has done so far (for readiness, metrics and tests). */
export interface FleetReaderState {
  id: string;
  /** The last entry applied; undefined before the reader first reached Redis. */
  lastId: string | undefined;
  /** Whether its last step reached Redis. */
  connected: boolean;
  /** Entries the stream held after the last applied one when it was last read (0 while caught up; not counted before Redis 7). */
  lag: number;
  applied: number;
  skipped: number;
  /** Times the cache was emptied because the stream could not tell what was missed. */
  emptied: number;
}

/**
 * A front's side of the purge stream: reads from its last applied id (kept in memory; a new reader starts at the
 * stream's end), applies each purge, and announces itself with a heartbeat. When the stream can no longer tell what it
 * missed (trimmed past its last id, gone, or Redis restarted empty: a new epoch token), it empties the cache once.
 * While Redis is away the front serves from memory; the reader reconnects with backoff and reads what it missed.
 */
export class FleetReader {
  readonly #options: FleetReaderOptions;
  readonly #keys: FleetKeys;
  readonly #commands: RedisClient;
  readonly #blocking: RedisClient;
  readonly #state: FleetReaderState;
  readonly #startedAt = Date.now();
  readonly #stop = new AbortController();
  #epoch: string | undefined;
  /** How many entries the stream had ever been given up to the last applied one (XINFO's entries-added then). */
  #addedUpToLast = 0;
  #heartbeat: NodeJS.Timeout | undefined;
  #beating = false;
  #running: Promise<void> | undefined;
  #onSynced: (() => void) | undefined;
  /** Resolves when the reader first reached Redis and knows where to read from. */
  readonly synced: Promise<void>;

  constructor(options: FleetReaderOptions) {
    this.#options = options;
    this.#keys = fleetKeys(options.options.prefix);
    const id = options.id ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.#state = { id, lastId: undefined, connected: false, lag: 0, applied: 0, skipped: 0, emptied: 0 };
    const connection = { url: options.url, options: options.options, logger: options.logger };
    this.#commands = connectRedis({ ...connection, role: 'front' });
    this.#blocking = connectRedis({ ...connection, role: 'front reader', blocking: true });
    this.synced = new Promise((resolve) => (this.#onSynced = resolve));
  }

  state(): FleetReaderState {
    return { ...this.#state };
  }

  start(): void {
    this.#running ??= this.#run();
    this.#heartbeat = setInterval(() => void this.#beat(), this.#options.options.heartbeatMs);
    this.#heartbeat.unref();
  }

  /** Resolves 'PONG' while Redis answers (the front's readiness check). */
  ping(): Promise<string> {
    return this.#commands.ping();
  }

  /**
   * Stops reading and heartbeating. `leave` also takes this front off the live list at once (a server that closed: the
   * origin stops waiting for it now); without it the front ages out after `memberTtlMs`, as one that crashed does.
   */
  async stop(options: { leave?: boolean } = {}): Promise<void> {
    this.#stop.abort();
    clearInterval(this.#heartbeat);
    this.#blocking.disconnect();
    await this.#running;
    if (options.leave === true && this.#state.lastId !== undefined) {
      // Best effort: a front that cannot tell Redis it left ages out instead.
      await this.#commands.multi().zrem(this.#keys.members, this.#state.id).hdel(this.#keys.announcements, this.#state.id).exec().catch(() => undefined);
    }
    this.#commands.disconnect();
  }

  async #run(): Promise<void> {
    let failures = 0;
    while (!this.#stop.signal.aborted) {
      try {
        const more = await this.#step();
        this.#state.connected = true;
        failures = 0;
        if (!more) await this.#waitForEntries();
      } catch (error) {
        if (this.#stop.signal.aborted) return;
        this.#state.connected = false;
        failures++;
        this.#options.logger.debug({ err: error instanceof Error ? error.message : String(error) }, 'purge stream read failed; retrying');
        await sleep(retryDelayMs(failures, this.#options.options.reconnect, Math.random()), undefined, { signal: this.#stop.signal }).catch(() => undefined);
      }
    }
  }

  /** Blocks until an entry after the last applied one exists (or `blockMs` passes); the next step reads it. */
  async #waitForEntries(): Promise<void> {
    await this.#blocking.xread('COUNT', 1, 'BLOCK', this.#options.options.blockMs, 'STREAMS', this.#keys.stream, this.#state.lastId ?? STREAM_START);
  }

  /** One read of the stream; resolves true when there may be more to read at once. */
  async #step(): Promise<boolean> {
    const { lastId } = this.#state;
    const token = randomBytes(12).toString('base64url');
    const reply = (await this.#commands.eval(READ_SCRIPT, 2, this.#keys.epoch, this.#keys.stream, token, lastId ?? '', READ_BATCH, MAX_ENTRY_BYTES)) as unknown[];
    const epoch = String(reply[0]);
    const hasStream = reply[1] === 1;
    const lastGenerated = hasStream ? String(reply[2]) : STREAM_START;
    const deleted = hasStream ? String(reply[3]) : STREAM_START;
    const added = hasStream ? Number(reply[6]) : 0;
    const restart = () => {
      this.#epoch = epoch;
      this.#state.lastId = lastGenerated;
      this.#addedUpToLast = added;
      this.#state.lag = 0;
    };
    if (lastId === undefined || this.#epoch === undefined) {
      restart();
      if (this.#options.target.holdsPages()) this.#empty('the front served pages before it reached Redis');
      await this.#beat();
      this.#onSynced?.();
      return false;
    }
    const missed =
      epoch !== this.#epoch
        ? 'Redis lost its data (a new epoch)'
        : !hasStream && lastId !== STREAM_START
          ? 'the purge stream is gone'
          : compareStreamIds(deleted, lastId) > 0 || this.#trimmedPast(lastId, hasStream ? String(reply[4]) : '', added, hasStream ? Number(reply[7]) : 0)
            ? `the purge stream was trimmed past this front's last applied entry ${lastId}`
            : undefined;
    if (missed !== undefined) {
      restart();
      this.#empty(missed);
      await this.#beat();
      return false;
    }
    const entries = hasStream && Array.isArray(reply[5]) ? (reply[5] as unknown[]) : [];
    if (entries.length === 0) {
      this.#state.lag = 0;
      return false;
    }
    const reports = this.#apply(entries);
    this.#state.lag = added > 0 ? Math.max(0, added - this.#addedUpToLast) : 0;
    await this.#report(reports);
    return entries.length >= READ_BATCH;
  }

  /**
   * Whether entries after `lastId` were trimmed unread. Trimming takes the oldest entries first: only when the first
   * entry held is after `lastId` may some be gone, and then fewer are held than were added since `lastId`. Before
   * Redis 7 (no count of entries added) a first entry after `lastId` is taken as a loss.
   */
  #trimmedPast(lastId: string, first: string, added: number, length: number): boolean {
    if (first === '' || compareStreamIds(first, lastId) <= 0) return false;
    return added < 0 || length < added - this.#addedUpToLast;
  }

  /** Applies the entries in order; returns the cache keys purged per entry id. */
  #apply(entries: unknown[]): Map<string, string[]> {
    const reports = new Map<string, string[]>();
    let skippedHere = 0;
    for (const entry of entries) {
      const [id, fields] = Array.isArray(entry) ? (entry as unknown[]) : [];
      if (typeof id !== 'string') continue;
      const decoded = decodeEntry(Array.isArray(fields) ? fields : []);
      let reason = decoded.ok ? undefined : decoded.reason;
      if (decoded.ok) {
        try {
          const purged = this.#options.target.purge(decoded.request);
          if (purged.length > 0) reports.set(id, purged.slice(0, REPORT_MAX_KEYS));
          this.#state.applied++;
        } catch (error) {
          reason = error instanceof Error ? error.message : String(error);
        }
      }
      if (reason !== undefined) {
        this.#state.skipped++;
        if (++skippedHere <= SKIPS_LOGGED) this.#options.logger.warn({ entry: id, reason: reason.slice(0, 200) }, 'purge stream entry skipped');
      }
      this.#state.lastId = id;
      this.#addedUpToLast++;
    }
    if (skippedHere > SKIPS_LOGGED) this.#options.logger.warn({ skipped: skippedHere - SKIPS_LOGGED }, 'more purge stream entries skipped');
    return reports;
  }

  /** Tells the origin at once what was applied (and purged): its edge step waits for that. */
  async #report(reports: Map<string, string[]>): Promise<void> {
    const transaction = this.#commands.multi();
    for (const [id, keys] of reports) transaction.sadd(this.#keys.purged(id), ...keys).pexpire(this.#keys.purged(id), REPORT_TTL_MS);
    transaction.eval(HEARTBEAT_SCRIPT, 2, this.#keys.members, this.#keys.announcements, this.#options.options.memberTtlMs, this.#state.id, this.#announcement());
    await transaction.exec();
  }

  #announcement(): string {
    const announcement: Announcement = { address: this.#options.address, lastId: this.#state.lastId ?? '', startedAt: this.#startedAt, pid: process.pid, host: hostname() };
    return JSON.stringify(announcement);
  }

  async #beat(): Promise<void> {
    if (this.#beating || this.#state.lastId === undefined || this.#stop.signal.aborted) return;
    this.#beating = true;
    try {
      await this.#commands.eval(HEARTBEAT_SCRIPT, 2, this.#keys.members, this.#keys.announcements, this.#options.options.memberTtlMs, this.#state.id, this.#announcement());
    } catch (error) {
      this.#options.logger.debug({ err: error instanceof Error ? error.message : String(error) }, 'fleet heartbeat failed');
    } finally {
      this.#beating = false;
    }
  }

  #empty(reason: string): void {
    this.#state.emptied++;
    this.#options.logger.warn({ reason }, 'emptying the page cache: purges it missed can no longer be read');
    this.#options.target.empty(reason);
  }
}
