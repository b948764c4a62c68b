import type { Logger } from '../log.js';
import { WorkerLoop } from './worker-loop.js';

export interface PublicationSchedulerOptions {
  /** The content store's publication steps (ContentStore.publishDue and nextPublication). */
  store: { publishDue(): string[]; nextPublication(): number | undefined };
  /** Called with the posts just announced, after their jobs are committed (wakes the outboxes). */
  onPublished: (oids: readonly string[]) => void;
  logger: Logger;
  /**
   * The longest wait between two sweeps. The scheduler wakes at the next post's time anyway; the sweep also finds
   * what a timer could not know of (a post scheduled by another process on the same file, a clock set back).
   * @default 1000
   */
  sweepMs?: number;
  /** @default Date.now */
  now?: () => number;
}

export const PUBLICATION_SCHEDULER_DEFAULTS = { sweepMs: 1_000 } as const;

/**
 * Announces scheduled posts at their time: it publishes each due post with its purge and search jobs in one
 * transaction (ContentStore.publishDue), then wakes the outboxes, which bring every surface in line as after an edit.
 * It runs at start, so a time that passed while the origin was down is announced at once, at each post's time, and at
 * least every `sweepMs`. Readers' reads follow the clock by themselves (publication.ts); what waits for the scheduler
 * is the caches and search.
 */
export class PublicationScheduler {
  private readonly loop = new WorkerLoop(
    async () => this.run(),
    () => this.msUntilNextRun(),
  );
  private readonly sweepMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PublicationSchedulerOptions) {
    this.sweepMs = options.sweepMs ?? PUBLICATION_SCHEDULER_DEFAULTS.sweepMs;
    this.now = options.now ?? Date.now;
  }

  /** Sweeps at once (what came due while the origin was down), then at each post's time and every `sweepMs`. */
  start(): void {
    this.loop.start();
  }

  /** A post was scheduled, rescheduled or unscheduled: the next wake-up is worked out again. */
  notify(): void {
    this.loop.notify();
  }

  /** Starts no further sweep; resolves when the one under way has ended. */
  stop(): Promise<void> {
    return this.loop.halt();
  }

  /** Announces the posts due now; answers their oids. */
  sweep(): string[] {
    const published = this.options.store.publishDue();
    if (published.length > 0) {
      this.options.logger.info({ posts: published }, 'scheduled posts published');
      this.options.onPublished(published);
    }
    return published;
  }

  private run(): void {
    try {
      this.sweep();
    } catch (error) {
      // The database may be closing under a sweep that stop() has not reached yet; the next start sweeps again.
      this.options.logger.error({ err: error }, 'publishing scheduled posts failed; will try again');
    }
  }

  private msUntilNextRun(): number {
    const next = this.options.store.nextPublication();
    return next === undefined ? this.sweepMs : Math.max(0, Math.min(this.sweepMs, next - this.now()));
  }
}
