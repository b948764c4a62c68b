/**
 * The scheduling both outboxes share: one run at a time, started at once when a job is enqueued (`notify`), else when
 * the next retry falls due. A notification during a run asks for one more run right after it, so no job waits for a
 * timer because it was written while the worker was busy.
 */
export class WorkerLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private halted = true;

  /**
   * @param run one pass over the due jobs; it must not reject.
   * @param msUntilNextRun when the next pass is due without a notification (a large number: none is due).
   */
  constructor(
    private readonly run: () => Promise<void>,
    private readonly msUntilNextRun: () => number,
  ) {}

  /** Whether the loop was stopped: a run still under way uses it to leave its remaining work for the next start. */
  get stopped(): boolean {
    return this.halted;
  }

  start(): void {
    this.halted = false;
    this.notify();
  }

  /** Runs at once, or right after the run under way; never inside the caller. */
  notify(): void {
    if (this.halted) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Starts no further run; resolves when the run under way, if any, has ended. */
  halt(): Promise<void> {
    this.halted = true;
    clearTimeout(this.timer);
    return this.running ?? Promise.resolve();
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      // Started on the next microtask, so `running` is set before anything the run calls can notify again.
      this.running = Promise.resolve()
        .then(this.run)
        .finally(() => {
          this.running = undefined;
          if (this.halted) return;
          const again = this.again;
          this.again = false;
          this.schedule(again ? 0 : this.msUntilNextRun());
        });
    }, Math.max(0, Math.min(delayMs, MAX_TIMER_MS)));
    this.timer.unref();
  }
}

/** What both outboxes are: a worker loop over their due jobs, woken when a job is enqueued. */
export abstract class OutboxWorker {
  protected readonly loop = new WorkerLoop(() => this.runDue(), () => this.msUntilNextAttempt());

  /** One pass over the due jobs; it must not reject. */
  protected abstract runDue(): Promise<void>;

  /** When the next job falls due without a notification (MAX_TIMER_MS: none is). */
  protected abstract msUntilNextAttempt(): number;

  /** Tells the worker a job was enqueued; delivery starts at once, never inside the caller's request. */
  notify(): void {
    this.loop.notify();
  }
}

/** The retry and batching defaults both outboxes start from. */
export const OUTBOX_DEFAULTS = { backoff: { baseMs: 250, maxMs: 30_000 }, batchJobs: 100 } as const;

/** What waits in an outbox: how many, and when the oldest was queued (ms since the epoch; undefined when none waits). */
export interface Backlog {
  pending: number;
  oldestAt: number | undefined;
}

/** A backlog query's row (the jobs' count and the oldest one's `created_at`) as a {@link Backlog}. */
export function backlogOf(row: { count: number; oldest: string | null } | undefined): Backlog {
  return { pending: row?.count ?? 0, oldestAt: row?.oldest == null ? undefined : Date.parse(row.oldest) };
}

/** The longest delay a Node timer takes (a longer one fires at once). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a stop may wait for: its grace, cut short when `force` aborts. */
export interface GraceOptions {
  /** @default 0 */
  graceMs?: number;
  force?: AbortSignal;
}

/**
 * How an outbox stops: `graceMs` is how long the deliveries in flight may take to end before they are left (aborted,
 * where they can be) for the next start; aborting `force` cuts the grace short (a second SIGINT or SIGTERM).
 */
export type OutboxStopOptions = GraceOptions;

/** Resolves true when `work` ends within the grace, false when the grace runs out or `force` aborts first. */
export async function endsWithin(work: Promise<unknown>, options: GraceOptions): Promise<boolean> {
  const graceMs = options.graceMs ?? 0;
  if (graceMs <= 0 || options.force?.aborted === true) return false;
  let timer: NodeJS.Timeout | undefined;
  let onForce: (() => void) | undefined;
  try {
    return await Promise.race([
      work.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), graceMs);
        onForce = () => resolve(false);
        options.force?.addEventListener('abort', onForce, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onForce !== undefined) options.force?.removeEventListener('abort', onForce);
  }
}
