import type { Logger } from '../log.js';
import type { OriginDatabase } from './database.js';
import { retryDelayMs, type BackoffPolicy } from './policy.js';

/** Purges the edge (CDN) for relative URLs; throws when any of them failed. */
export type CdnPurge = (urls: string[]) => Promise<void>;

export interface PurgeOutboxOptions {
  db: OriginDatabase;
  /** Purge routes of every front (`PURGE_URLS`); each is delivered to and retried on its own. */
  routes: readonly string[];
  /** Sent as `Authorization: Bearer <secret>`. */
  secret: string;
  logger: Logger;
  /** Called with the pathnames of jobs every front has confirmed; unset: no edge purge. */
  cdnPurge?: CdnPurge;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** @default { baseMs: 250, maxMs: 30000 } */
  backoff?: BackoffPolicy;
  /** Per delivery attempt. @default 5000 */
  timeoutMs?: number;
  /** Jobs merged into one delivery (their pathnames deduplicated, at most 1000). @default 100 */
  batchJobs?: number;
  /** @default Date.now */
  now?: () => number;
  /** @default Math.random */
  random?: () => number;
}

const DEFAULTS = {
  backoff: { baseMs: 250, maxMs: 30_000 },
  timeoutMs: 5_000,
  batchJobs: 100,
  maxPathnames: 1_000,
} as const;

interface DueJob {
  id: number;
  pathnames: string;
  attempts: number;
}

/**
 * Delivers the purge jobs the content store wrote in its transactions: to every front's purge route, then (once
 * every front has confirmed a job) to the CDN. State lives in SQLite, so a restart resumes where it stopped; a route
 * that is down is retried with capped exponential backoff and jitter without holding back the others.
 */
export class PurgeOutbox {
  private readonly options: Required<Omit<PurgeOutboxOptions, 'cdnPurge'>> & Pick<PurgeOutboxOptions, 'cdnPurge'>;
  private readonly statements;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** Deliveries under way, one at most per route: a route that hangs holds back only itself. */
  private readonly inFlight = new Map<string, Promise<void>>();
  private stopped = true;
  private readonly abort = new AbortController();

  constructor(options: PurgeOutboxOptions) {
    this.options = {
      fetch: globalThis.fetch,
      backoff: DEFAULTS.backoff,
      timeoutMs: DEFAULTS.timeoutMs,
      batchJobs: DEFAULTS.batchJobs,
      now: Date.now,
      random: Math.random,
      ...options,
    };
    const db = options.db;
    this.statements = {
      dueForRoute: db.prepare<[string, number, number], DueJob>(
        `SELECT j.id, j.pathnames, coalesce(d.attempts, 0) AS attempts
           FROM purge_jobs j LEFT JOIN purge_deliveries d ON d.job_id = j.id AND d.route = ?
          WHERE j.fronts_done = 0 AND coalesce(d.delivered, 0) = 0 AND coalesce(d.next_at, 0) <= ?
          ORDER BY j.id LIMIT ?`,
      ),
      delivered: db.prepare<[number, string]>(
        `INSERT INTO purge_deliveries (job_id, route, attempts, delivered) VALUES (?, ?, 1, 1)
         ON CONFLICT (job_id, route) DO UPDATE SET attempts = attempts + 1, delivered = 1, last_error = NULL`,
      ),
      failed: db.prepare<[{ job: number; route: string; next: number; error: string }]>(
        `INSERT INTO purge_deliveries (job_id, route, attempts, next_at, last_error) VALUES (@job, @route, 1, @next, @error)
         ON CONFLICT (job_id, route) DO UPDATE SET attempts = attempts + 1, next_at = @next, last_error = @error`,
      ),
      frontsDone: db.prepare<[string, number]>(
        `UPDATE purge_jobs SET fronts_done = 1 WHERE fronts_done = 0 AND
           (SELECT count(*) FROM purge_deliveries d WHERE d.job_id = purge_jobs.id AND d.delivered = 1
               AND d.route IN (SELECT value FROM json_each(?))) = ?`,
      ),
      dueForCdn: db.prepare<[number, number], DueJob>(
        `SELECT id, pathnames, cdn_attempts AS attempts FROM purge_jobs
          WHERE fronts_done = 1 AND cdn_next_at <= ? ORDER BY id LIMIT ?`,
      ),
      cdnFailed: db.prepare<[number, number]>(`UPDATE purge_jobs SET cdn_attempts = cdn_attempts + 1, cdn_next_at = ? WHERE id = ?`),
      finish: db.prepare<[number]>(`DELETE FROM purge_jobs WHERE id = ?`),
      finishAllConfirmed: db.prepare(`DELETE FROM purge_jobs WHERE fronts_done = 1`),
      nextFrontAttempt: db.prepare<[string], { next: number | null }>(
        `SELECT min(coalesce(d.next_at, 0)) AS next
           FROM purge_jobs j CROSS JOIN json_each(?) r
           LEFT JOIN purge_deliveries d ON d.job_id = j.id AND d.route = r.value
          WHERE j.fronts_done = 0 AND coalesce(d.delivered, 0) = 0`,
      ),
      nextCdnAttempt: db.prepare<[], { next: number | null }>(`SELECT min(cdn_next_at) AS next FROM purge_jobs WHERE fronts_done = 1`),
      pending: db.prepare<[], { count: number }>(`SELECT count(*) AS count FROM purge_jobs`),
    };
  }

  /** Starts delivering, beginning with whatever earlier runs left in the outbox. */
  start(): void {
    this.stopped = false;
    this.notify();
  }

  /** Tells the worker a job was enqueued; delivery starts at once, never inside the caller's request. */
  notify(): void {
    if (this.stopped) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Jobs not yet confirmed everywhere. */
  pendingJobs(): number {
    return this.statements.pending.get()?.count ?? 0;
  }

  /** Stops the worker; an attempt in flight is aborted and stays pending for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.abort.abort();
    await this.running;
    await Promise.all(this.inFlight.values());
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        const again = this.again;
        this.again = false;
        this.schedule(again ? 0 : this.msUntilNextAttempt());
      });
    }, Math.max(0, delayMs));
    this.timer.unref();
  }

  private msUntilNextAttempt(): number {
    // A route with a delivery under way is not due: its delivery notifies the worker when it ends.
    const idle = this.options.routes.filter((route) => !this.inFlight.has(route));
    const front = idle.length === 0 ? null : (this.statements.nextFrontAttempt.get(JSON.stringify(idle))?.next ?? null);
    const cdn = this.options.cdnPurge === undefined ? null : (this.statements.nextCdnAttempt.get()?.next ?? null);
    const candidates = [front, cdn].filter((value): value is number => value !== null);
    if (candidates.length === 0) return 2 ** 31 - 1;
    return Math.min(...candidates) - this.options.now();
  }

  private async tick(): Promise<void> {
    try {
      for (const route of this.options.routes) {
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
      if (this.stopped) return;
      this.statements.frontsDone.run(JSON.stringify(this.options.routes), this.options.routes.length);
      if (this.options.cdnPurge === undefined) this.statements.finishAllConfirmed.run();
      else await this.purgeCdn(this.options.cdnPurge);
    } catch (error) {
      this.options.logger.error({ err: error }, 'purge outbox failed');
    }
  }

  private batch(jobs: DueJob[]): { jobs: DueJob[]; pathnames: string[] } {
    const pathnames = new Set<string>();
    const taken: DueJob[] = [];
    for (const job of jobs) {
      const next = JSON.parse(job.pathnames) as string[];
      const merged = new Set([...pathnames, ...next]);
      if (taken.length > 0 && merged.size > DEFAULTS.maxPathnames) break;
      for (const pathname of next) pathnames.add(pathname);
      taken.push(job);
    }
    return { jobs: taken, pathnames: [...pathnames] };
  }

  private delay(attempts: number): number {
    return this.options.now() + retryDelayMs(attempts, this.options.backoff, this.options.random());
  }

  /** Delivers the route's due jobs; resolves with whether there were any (it never rejects). */
  private async deliverTo(route: string): Promise<boolean> {
    const due = this.statements.dueForRoute.all(route, this.options.now(), this.options.batchJobs);
    if (due.length === 0) return false;
    const { jobs, pathnames } = this.batch(due);
    try {
      const response = await this.options.fetch(route, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.options.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pathnames }),
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.options.timeoutMs)]),
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${response.status} ${route}`);
      this.options.db.transaction(() => {
        for (const job of jobs) this.statements.delivered.run(job.id, route);
      })();
      this.options.logger.debug({ route, pathnames }, 'purge delivered');
    } catch (error) {
      if (this.stopped) return true;
      const message = error instanceof Error ? error.message : String(error);
      this.options.db.transaction(() => {
        for (const job of jobs) this.statements.failed.run({ job: job.id, route, next: this.delay(job.attempts + 1), error: message });
      })();
      this.options.logger.warn({ route, attempts: Math.max(...jobs.map((job) => job.attempts + 1)), err: message }, 'purge delivery failed; will retry');
    }
    return true;
  }

  private async purgeCdn(cdnPurge: CdnPurge): Promise<void> {
    const due = this.statements.dueForCdn.all(this.options.now(), this.options.batchJobs);
    if (due.length === 0) return;
    const { jobs, pathnames } = this.batch(due);
    try {
      await cdnPurge(pathnames);
      this.options.db.transaction(() => {
        for (const job of jobs) this.statements.finish.run(job.id);
      })();
    } catch (error) {
      if (this.stopped) return;
      this.options.db.transaction(() => {
        for (const job of jobs) this.statements.cdnFailed.run(this.delay(job.attempts + 1), job.id);
      })();
      this.options.logger.warn({ err: error, pathnames }, 'CDN purge failed; will retry');
    }
  }
}
