import type { Logger } from '../log.js';
import type { OriginDatabase } from './database.js';
import { ERRORS } from '../error-codes.js';
import { retryDelayMs, type BackoffPolicy } from '../backoff.js';
import { edgeUrlOfCacheKey } from './policy.js';
import { discardBody, PURGE_ANSWER_MAX_BYTES, readBoundedText } from '../http/index.js';
import { purgeOutboxStatements } from './outbox-statements.js';
import { batchOf, purgedList, PURGE_REQUEST_LIMITS } from './purge-batch.js';
import { backlogOf, endsWithin, MAX_TIMER_MS, OUTBOX_DEFAULTS, OutboxWorker, type Backlog, type OutboxStopOptions } from './worker-loop.js';
import { warmFronts } from './warm-up.js';

/** A URL the edge could not purge, exactly as it was handed to `CdnPurge`, and why. */
export interface CdnUrlFailure {
  url: string;
  reason: string;
  /**
   * The edge got a front's soft-purged copy: the front is rendering the page again, so the URL is retried after the
   * backoff's first delay each time rather than a growing one (each retry may reach another front process, whose own
   * stale copy it then starts replacing). Stale copies are served for a bounded time, which bounds these retries.
   */
  stale?: true;
}

/**
 * Purges the edge (CDN) for relative URLs, trying every one. Resolves with those that failed (none: all purged); a
 * rejection counts as a failure of every URL.
 */
export type CdnPurge = (urls: string[]) => Promise<readonly CdnUrlFailure[]>;

/** A purge route that is not a front's URL: the Redis stream a fleet of fronts reads (src/fleet). */
export interface PurgeStream {
  /** Its name among the routes, kept per job in SQLite like a front's purge URL; not an http(s) URL. */
  readonly route: string;
  /**
   * Delivers one batch; resolves with the cache keys the fronts reported purging for it, once they applied it (or a
   * bounded wait ran out); rejects when it was not delivered, and the batch is retried with the outbox's backoff.
   */
  deliver(batch: { pathnames: string[]; keys: string[] }, signal: AbortSignal): Promise<string[]>;
}

/** Where the outbox counts its failures (the origin's Prometheus metrics). */
export interface PurgeOutboxMetrics {
  /** A delivery to a front's purge route failed. */
  deliveryFailed(route: string): void;
  /** The edge purge of `urls` URLs failed (this attempt). */
  edgePurgeFailed(urls: number): void;
}

export interface PurgeOutboxOptions {
  db: OriginDatabase;
  /** Purge routes of every front (`PURGE_URLS`); each is delivered to and retried on its own. */
  routes: readonly string[];
  /** A route besides `routes` that every job is delivered to as well (`REDIS_URL`). @default none */
  stream?: PurgeStream;
  /** Sent as `Authorization: Bearer <secret>`. */
  secret: string;
  logger: Logger;
  /**
   * Called with the pathnames of jobs every front has confirmed and the URLs the fronts reported purging for them,
   * each URL once; one that fails is retried on its own. Unset: no edge purge.
   */
  cdnPurge?: CdnPurge;
  /**
   * How long the edge purge of a URL is retried, counted from the moment every front confirmed the change; then it is
   * dropped with an error in the log. The default is how long the edge keeps a page (1 h): by then every copy it
   * stored before the change has expired by itself, so the refresh has nothing left to replace.
   * @default 3600000
   */
  cdnGiveUpAfterMs?: number;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** @default { baseMs: 250, maxMs: 30000 } */
  backoff?: BackoffPolicy;
  /** Per delivery attempt. @default 5000 */
  timeoutMs?: number;
  /** Jobs merged into one delivery (their pathnames and their keys deduplicated, at most 1000 of each). @default 100 */
  batchJobs?: number;
  /** @default Date.now */
  now?: () => number;
  /** @default Math.random */
  random?: () => number;
  /** Failure counters. @default none */
  metrics?: PurgeOutboxMetrics;
}

const DEFAULTS = {
  ...OUTBOX_DEFAULTS,
  timeoutMs: 5_000,
  cdnGiveUpAfterMs: 60 * 60 * 1_000,
} as const;

/**
 * Delivers the purge jobs the content store wrote in its transactions: to every front's purge route, then (once
 * every front has confirmed a job) to the CDN, URL by URL. State lives in SQLite, so a restart resumes where it
 * stopped; a route or a URL that fails is retried with capped exponential backoff and jitter without holding back the
 * others, and a URL the edge keeps failing is given up (logged as an error) after `cdnGiveUpAfterMs`.
 */
export class PurgeOutbox extends OutboxWorker {
  private readonly options: Required<Omit<PurgeOutboxOptions, 'cdnPurge' | 'metrics' | 'stream'>> & Pick<PurgeOutboxOptions, 'cdnPurge' | 'metrics' | 'stream'>;
  /** The fronts' purge URLs, and the stream's route when there is one: a job is done once every one confirmed it. */
  private readonly routes: readonly string[];
  private readonly statements;
  /** Deliveries under way, one at most per route: a route that hangs holds back only itself. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Publications' warm-ups under way (warm-up.ts): stop() waits for them as for deliveries. */
  private readonly warming = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  /** Front deliveries sent so far, and those whose request is under way: a front may be purging right now. */
  private sent = 0;
  private sending = 0;

  constructor(options: PurgeOutboxOptions) {
    super();
    const { backoff, timeoutMs, batchJobs, cdnGiveUpAfterMs } = DEFAULTS;
    this.options = { fetch: globalThis.fetch, backoff, timeoutMs, batchJobs, cdnGiveUpAfterMs, now: Date.now, random: Math.random, ...options };
    this.statements = purgeOutboxStatements(options.db);
    this.routes = options.stream === undefined ? options.routes : [...options.routes, options.stream.route];
  }

  /** Makes every job waiting for `route` due now (the stream's Redis is back: what waited is sent without the backoff's delay). */
  retryRouteNow(route: string): void {
    this.statements.retryRoute.run(route);
    this.notify();
  }

  /** Starts delivering, beginning with whatever earlier runs left in the outbox. */
  start(): void {
    // No delivery of this run is under way yet: what an earlier run parked is due.
    this.statements.unpark.run();
    const waiting = this.pendingCdnUrls();
    if (this.options.cdnPurge === undefined && waiting > 0) {
      this.options.logger.warn({ urls: waiting }, 'edge purges from an earlier run wait for CDN_BASE_URL; they are kept');
    }
    this.loop.start();
  }

  /** Jobs not yet confirmed by every front. */
  pendingJobs(): number {
    return this.statements.pendingJobs.get()?.count ?? 0;
  }

  /** URLs confirmed by every front whose edge purge is still to succeed. */
  pendingCdnUrls(): number {
    return this.statements.pendingCdnUrls.get()?.count ?? 0;
  }

  /** Purge jobs not yet confirmed by every front, and the oldest one's time (for the metrics). */
  jobsBacklog(): Backlog {
    return backlogOf(this.statements.jobsBacklog.get());
  }

  /** Edge URLs still to purge, and since when the oldest waits (for the metrics). */
  cdnBacklog(): Backlog {
    const row = this.statements.cdnBacklog.get();
    return { pending: row?.count ?? 0, oldestAt: row?.oldest ?? undefined };
  }

  /**
   * Stops the worker: no new attempt starts, the attempts in flight get `graceMs` to end, then they are aborted and
   * stay pending for the next start.
   */
  async stop(options: OutboxStopOptions = {}): Promise<void> {
    const settled = Promise.all([this.loop.halt(), ...this.inFlight.values(), ...this.warming]);
    await endsWithin(settled, options);
    this.abort.abort();
    await settled;
  }

  protected msUntilNextAttempt(): number {
    // A route with a delivery under way is not due: its delivery notifies the worker when it ends.
    const idle = this.routes.filter((route) => !this.inFlight.has(route));
    const front = idle.length === 0 ? null : (this.statements.nextFrontAttempt.get(JSON.stringify(idle))?.next ?? null);
    const cdn = this.options.cdnPurge === undefined ? null : (this.statements.nextCdnAttempt.get()?.next ?? null);
    const candidates = [front, cdn].filter((value): value is number => value !== null);
    if (candidates.length === 0) return MAX_TIMER_MS;
    return Math.min(...candidates) - this.options.now();
  }

  protected async runDue(): Promise<void> {
    try {
      for (const route of this.routes) {
        if (this.inFlight.has(route)) continue;
        // Each route runs on its own; when a delivery ends, the worker runs again for the fronts-done and CDN steps.
        const delivery = this.deliverTo(route).then(
          (attempted) => {
            this.inFlight.delete(route);
            if (attempted) this.notify();
          },
          (error: unknown) => {
            this.inFlight.delete(route);
            this.options.logger.error({ err: error, route }, 'purge outbox failed');
          },
        );
        this.inFlight.set(route, delivery);
      }
      if (this.loop.stopped) return;
      this.finishConfirmedJobs();
      if (this.options.cdnPurge !== undefined) await this.purgeCdn(this.options.cdnPurge);
    } catch (error) {
      this.options.logger.error({ err: error }, 'purge outbox failed');
    }
  }

  private delay(attempts: number): number {
    return this.options.now() + retryDelayMs(attempts, this.options.backoff, this.options.random());
  }

  /** Delivers the route's due jobs; resolves with whether there were any (it never rejects). */
  private async deliverTo(route: string): Promise<boolean> {
    const due = this.statements.dueForRoute.all(route, this.options.now(), this.options.batchJobs);
    if (due.length === 0) return false;
    const { jobs, pathnames, keys } = batchOf(due);
    try {
      this.sent++;
      this.sending++;
      let purged: string[];
      try {
        const { stream } = this.options;
        const signal = AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.options.timeoutMs)]);
        purged = stream !== undefined && route === stream.route ? await stream.deliver({ pathnames, keys }, this.abort.signal) : await this.postTo(route, pathnames, keys, signal);
      } finally {
        // The front has purged (or failed to): the refreshes that overlapped it can run again, with its purge done.
        if (--this.sending === 0) this.statements.unpark.run();
      }
      const urls = this.options.cdnPurge === undefined ? [] : [...new Set(purged.flatMap((key) => edgeUrlOfCacheKey(key) ?? []))];
      this.options.db.transaction(() => {
        const report = urls.length === 0 ? null : Number(this.statements.report.run(JSON.stringify(urls)).lastInsertRowid);
        for (const job of jobs) this.statements.delivered.run(job.id, route, report);
      })();
      this.options.logger.debug({ route, pathnames, keys, purged: purged.length }, 'purge delivered');
    } catch (error) {
      if (this.loop.stopped) return true;
      const message = error instanceof Error ? error.message : String(error);
      this.options.db.transaction(() => {
        for (const job of jobs) this.statements.failed.run({ job: job.id, route, next: this.delay(job.attempts + 1), error: message });
      })();
      this.options.metrics?.deliveryFailed(route);
      this.options.logger.warn({ route, attempts: Math.max(...jobs.map((job) => job.attempts + 1)), err: message }, 'purge delivery failed; will retry');
    }
    return true;
  }

  /** Posts a batch to a front's purge route; resolves with the cache keys its answer names as purged. */
  private async postTo(route: string, pathnames: string[], keys: string[], signal: AbortSignal): Promise<string[]> {
    const response = await this.options.fetch(route, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.options.secret}`, 'content-type': 'application/json' },
      // A front that predates keys ignores them and purges the pathnames, which name the same pages.
      body: JSON.stringify(keys.length === 0 ? { pathnames } : { pathnames, keys }),
      signal,
    });
    if (!response.ok) {
      await discardBody(response);
      throw ERRORS.UPSTREAM_FAILED(route, response.status);
    }
    return purgedList(await readBoundedText(response, PURGE_ANSWER_MAX_BYTES, route));
  }

  /**
   * Deletes the jobs every front has confirmed, handing their pathnames to the CDN step when there is one, and with
   * them the URLs of the fronts' reports that no unconfirmed job holds back. A report waits for all of its jobs: a URL
   * a front purged for one job may be one another front has yet to purge for another, and the edge refreshes from any
   * front.
   */
  private finishConfirmedJobs(): void {
    const now = this.options.now();
    const toCdn = this.options.cdnPurge !== undefined;
    const warm = new Set<string>();
    this.options.db.transaction(() => {
      for (const job of this.statements.confirmedByEveryFront.all(JSON.stringify(this.routes), this.routes.length)) {
        if (toCdn) for (const url of JSON.parse(job.pathnames) as string[]) this.statements.queueCdn.run(url, now);
        for (const pathname of JSON.parse(job.warm) as string[]) warm.add(pathname);
        this.statements.finish.run(job.id);
      }
      for (const report of this.statements.completeReports.all()) {
        if (toCdn) for (const url of JSON.parse(report.urls) as string[]) this.statements.queueCdn.run(url, now);
        this.statements.forgetReport.run(report.id);
      }
    })();
    if (warm.size > 0) this.warm([...warm]);
  }

  /**
   * Renders a publication's pages once at every front, now that each has purged them; not kept in the database: a
   * warm-up lost to a restart costs the first reader one render, as without warm-ups.
   */
  private warm(pathnames: string[]): void {
    const { fetch, timeoutMs, logger } = this.options;
    const warming = warmFronts(this.routes, pathnames, { fetch, timeoutMs, logger, signal: this.abort.signal }).finally(() => this.warming.delete(warming));
    this.warming.add(warming);
  }

  private async purgeCdn(cdnPurge: CdnPurge): Promise<void> {
    const due = this.statements.dueForCdn.all(this.options.now(), PURGE_REQUEST_LIMITS.maxPathnames);
    if (due.length === 0) return;
    const urls = due.map(({ url }) => url);
    // A front purging while the edge refreshes may miss a render a refresh started (not stored yet, so not reported
    // purged), whose old content the edge then keeps: URLs refreshed meanwhile are parked, and refreshed again once
    // no delivery is under way.
    const sentBefore = this.sent;
    const purgingBefore = this.sending > 0;
    let failures: Map<string, Omit<CdnUrlFailure, 'url'>>;
    try {
      failures = new Map((await cdnPurge(urls)).map(({ url, ...failure }) => [url, failure]));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      failures = new Map(urls.map((url) => [url, { reason }]));
    }
    const now = this.options.now();
    const overlapped = purgingBefore || this.sending > 0 || this.sent !== sentBefore;
    // One draw for the whole batch: URLs that failed together are retried together, in one call.
    const random = this.options.random();
    const retried: { url: string; attempts: number; reason: string }[] = [];
    const givenUp: { url: string; attempts: number; queuedAt: string; reason: string }[] = [];
    this.options.db.transaction(() => {
      for (const { url, attempts, queued_at: queuedAt } of due) {
        const failure = failures.get(url);
        if (failure === undefined && overlapped) {
          this.statements.park.run({ url, now });
        } else if (failure === undefined) {
          this.statements.cdnDone.run(url);
        } else if (now - queuedAt >= this.options.cdnGiveUpAfterMs) {
          this.statements.cdnDone.run(url);
          givenUp.push({ url, attempts: attempts + 1, queuedAt: new Date(queuedAt).toISOString(), reason: failure.reason });
        } else {
          const next = now + retryDelayMs(failure.stale === true ? 1 : attempts + 1, this.options.backoff, random);
          this.statements.cdnFailed.run({ url, next, error: failure.reason });
          retried.push({ url, attempts: attempts + 1, reason: failure.reason });
        }
      }
    })();
    // The deliveries it overlapped may have ended during the refresh: then nothing else would unpark its URLs.
    if (overlapped && this.sending === 0) this.statements.unpark.run();
    if (failures.size > 0) this.options.metrics?.edgePurgeFailed(failures.size);
    if (retried.length > 0) this.options.logger.warn({ failures: retried }, 'CDN purge failed for some URLs; will retry them');
    for (const failure of givenUp) {
      this.options.logger.error(
        failure,
        `CDN purge given up: ${failure.url} failed ${failure.attempts} times since ${failure.queuedAt}; a copy the edge holds from before the change is served until it expires`,
      );
    }
  }
}
