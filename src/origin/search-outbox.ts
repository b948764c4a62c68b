import type { Logger } from '../log.js';
import { BOUND_LIMIT } from '../sqlite-limit.js';
import type { OriginDatabase } from './database.js';
import { retryDelayMs, type BackoffPolicy } from '../backoff.js';
import type { Post } from './store.js';
import { backlogOf, endsWithin, MAX_TIMER_MS, OUTBOX_DEFAULTS, OutboxWorker, type Backlog, type OutboxStopOptions } from './worker-loop.js';

/**
 * A post whose search document is to be brought in line: `post` as readers see it now, undefined when they do not (it
 * no longer exists, or it is a draft or scheduled later: its document is removed).
 */
export interface PostChange {
  oid: string;
  post: Post | undefined;
}

/**
 * Applies changes to search, in the order given; rejects when search cannot take them now (the engine is down, the
 * live index is missing), and the outbox then tries again later with the same posts read afresh.
 */
export type ApplyPostChanges = (changes: readonly PostChange[]) => Promise<void>;

export interface SearchOutboxOptions {
  db: OriginDatabase;
  apply: ApplyPostChanges;
  /** The post as readers see it now (ContentStore.getPost); undefined when it does not exist or readers do not see it. */
  readPost: (oid: string) => Post | undefined;
  logger: Logger;
  /** @default { baseMs: 250, maxMs: 30000 } */
  backoff?: BackoffPolicy;
  /** Jobs taken into one delivery (each post applied once, as it is at delivery time). @default 100 */
  batchJobs?: number;
  /** @default Date.now */
  now?: () => number;
  /** @default Math.random */
  random?: () => number;
  /** Counts failed deliveries (the origin's Prometheus metrics). @default none */
  metrics?: { updateFailed(): void };
}

interface DueJob {
  id: number;
  oid: string;
  attempts: number;
}

/**
 * Delivers the search jobs the content store wrote in its transactions. A job names a post, not a version of it: a
 * delivery reads each post as it is then and applies that, so jobs can be merged, retried and replayed after a
 * restart in any number without ever putting an older version back. Jobs are taken oldest first; after a delivery only
 * the jobs it read past are removed, so a write that lands during the delivery keeps its own job for the next one.
 */
export class SearchOutbox extends OutboxWorker {
  private readonly options: Required<Omit<SearchOutboxOptions, 'metrics'>> & Pick<SearchOutboxOptions, 'metrics'>;
  private readonly statements;
  /** Whether a delivery is under way (stop() says so when it leaves one behind). */
  private delivering = false;
  /** Since when deliveries fail (undefined: the last one succeeded): an outage is logged when it starts and ends. */
  private failingSince: number | undefined;

  constructor(options: SearchOutboxOptions) {
    super();
    this.options = { ...OUTBOX_DEFAULTS, now: Date.now, random: Math.random, ...options };
    const db = options.db;
    this.statements = {
      due: db.prepare<[number, number], DueJob>(`SELECT id, oid, attempts FROM search_jobs WHERE next_at <= ? ORDER BY id ${BOUND_LIMIT}`),
      done: db.prepare<[string, number]>(`DELETE FROM search_jobs WHERE oid = ? AND id <= ?`),
      failed: db.prepare<[{ id: number; next: number; error: string }]>(
        `UPDATE search_jobs SET attempts = attempts + 1, next_at = @next, last_error = @error WHERE id = @id`,
      ),
      nextAttempt: db.prepare<[], { next: number | null }>(`SELECT min(next_at) AS next FROM search_jobs`),
      pending: db.prepare<[], { count: number }>(`SELECT count(*) AS count FROM search_jobs`),
      backlog: db.prepare<[], { count: number; oldest: string | null }>(`SELECT count(*) AS count, min(created_at) AS oldest FROM search_jobs`),
    };
  }

  /** Starts delivering, beginning with whatever earlier runs left. */
  start(): void {
    this.loop.start();
  }

  /** Jobs not yet applied. */
  pendingJobs(): number {
    return this.statements.pending.get()?.count ?? 0;
  }

  /** Jobs not yet applied, and the oldest one's time (for the metrics). */
  backlog(): Backlog {
    return backlogOf(this.statements.backlog.get());
  }

  /**
   * Stops the worker. A delivery under way may end within `graceMs`; past it (or when `force` aborts) the worker is
   * left behind: its jobs stay queued and the next start applies them again, which a job naming a post makes harmless.
   */
  async stop(options: OutboxStopOptions = {}): Promise<void> {
    const ended = await endsWithin(this.loop.halt(), options);
    if (!ended && this.delivering) {
      this.options.logger.warn({ pending: this.pendingJobs() }, 'a search update was still under way at stop; its jobs stay queued for the next start');
    }
  }

  protected msUntilNextAttempt(): number {
    const next = this.statements.nextAttempt.get()?.next ?? null;
    return next === null ? MAX_TIMER_MS : next - this.options.now();
  }

  /** One delivery of the due jobs; it never rejects. */
  protected async runDue(): Promise<void> {
    this.delivering = true;
    try {
      await this.deliverDue();
    } catch (error) {
      // The database closed under a delivery that stop() left behind: its jobs are still queued.
      if (this.options.db.open) this.options.logger.error({ err: error }, 'search outbox failed');
    } finally {
      this.delivering = false;
    }
  }

  private async deliverDue(): Promise<void> {
    const due = this.statements.due.all(this.options.now(), this.options.batchJobs);
    if (due.length === 0) return;
    // The newest job of each post: the ones before it are answered by the same read.
    const lastJobOf = new Map<string, number>();
    for (const job of due) lastJobOf.set(job.oid, job.id);
    let changes: PostChange[];
    try {
      changes = [...lastJobOf.keys()].map((oid) => ({ oid, post: this.options.readPost(oid) }));
      await this.options.apply(changes);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const attempts = Math.max(...due.map((job) => job.attempts + 1));
      // One draw for the batch: jobs that failed together are retried together, in one delivery.
      const next = this.options.now() + retryDelayMs(attempts, this.options.backoff, this.options.random());
      this.options.db.transaction(() => {
        for (const job of due) this.statements.failed.run({ id: job.id, next, error: message });
      })();
      this.options.metrics?.updateFailed();
      // One warning per outage, not one per retry: a search engine down for a day would otherwise fill the log.
      if (this.failingSince === undefined) {
        this.failingSince = this.options.now();
        this.options.logger.warn({ posts: lastJobOf.size, err: message }, 'search update failed; the jobs wait and are retried');
      } else {
        this.options.logger.debug({ posts: lastJobOf.size, attempts, err: message }, 'search update failed again; will retry');
      }
      return;
    }
    this.options.db.transaction(() => {
      for (const [oid, id] of lastJobOf) this.statements.done.run(oid, id);
    })();
    // A full batch may have left due jobs behind it.
    if (due.length === this.options.batchJobs) this.loop.notify();
    if (this.failingSince !== undefined) {
      this.options.logger.info({ failedForMs: this.options.now() - this.failingSince, pending: this.pendingJobs() }, 'search updates resumed');
      this.failingSince = undefined;
    }
    this.options.logger.debug({ posts: changes.map((change) => change.oid) }, 'search updated');
  }
}
