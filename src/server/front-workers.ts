import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '../log.js';
import { DRAIN_DEFAULTS, type StopOptions } from './drain.js';
import { MetricsAggregator } from './metrics-cluster.js';
import { PurgeRelay, type RelayWorker } from './purge-fanout.js';
import { ERRORS } from '../error-codes.js';
import { isWorkerFailedMessage, type ShutdownMessage } from './shutdown.js';

/** Options of the primary process of `sitestack front --workers N`. */
export interface FrontWorkersOptions {
  /** Worker processes to run, each a whole front with its own page cache. */
  workers: number;
  logger: Logger;
  /** How long a purge waits for the other workers' confirmation. @default 2000 */
  purgeTimeoutMs?: number;
  /** Delay before a dead worker is replaced; doubles while replacements keep dying young, up to 10 s. @default 100 */
  restartDelayMs?: number;
  /** A worker that lived at least this long resets the restart delay. @default 10000 */
  stableAfterMs?: number;
  /** Extra environment of every worker. */
  env?: Record<string, string>;
  /**
   * The workers' drain time (`SHUTDOWN_TIMEOUT_MS`): `stop` kills a worker with SIGKILL when it still runs
   * `killMarginMs` after this.
   * @default 10000
   */
  shutdownTimeoutMs?: number;
  /** Time a worker has after its drain to close its stores and exit. @default 5000 */
  killMarginMs?: number;
  /** The workers' wait, unready, before they drain (`DRAIN_DELAY_MS`): added to the time before the kill. @default 0 */
  drainDelayMs?: number;
}

export const FRONT_WORKERS_DEFAULTS = {
  purgeTimeoutMs: 2_000,
  restartDelayMs: 100,
  stableAfterMs: 10_000,
  shutdownTimeoutMs: DRAIN_DEFAULTS.timeoutMs,
  killMarginMs: 5_000,
  drainDelayMs: 0,
} as const;

export interface FrontWorkers {
  /**
   * Resolves when every worker of the first generation listens; rejects with the first one's failure (its one line)
   * when one ends before it listens, and then no worker is replaced: a fleet that cannot start is stopped, not retried.
   */
  readonly ready: Promise<void>;
  /** Live workers. */
  workers(): Worker[];
  /**
   * Stops replacing workers and asks every worker to drain and exit (`force`: at once); a worker still running after
   * the drain time and a margin is killed. Resolves when every worker has exited.
   */
  stop(options?: StopOptions): Promise<void>;
}

function relayWorker(worker: Worker): RelayWorker {
  return { id: worker.id, send: (message) => worker.send(message), isConnected: () => worker.isConnected() };
}

/** Asks `worker` to stop; one whose IPC channel is gone gets the signal a worker treats the same way. */
function askToStop(worker: Worker, force: boolean): void {
  if (worker.isConnected()) worker.send({ type: 'sitestack:shutdown', force } satisfies ShutdownMessage);
  else worker.process.kill('SIGTERM');
}

/**
 * Runs in the cluster primary: forks the workers (which run this same program and start a front each), relays purges
 * between them, sums their metrics for the worker a scrape reached (MetricsAggregator) and replaces a worker that dies. The workers share the listening socket; the primary serves nothing.
 */
export function runFrontWorkers(options: FrontWorkersOptions): FrontWorkers {
  const { logger } = options;
  if (!cluster.isPrimary) throw ERRORS.WRONG_PROCESS('runFrontWorkers', 'cluster primary');
  const count = Math.max(1, Math.trunc(options.workers));
  const restartDelayMs = options.restartDelayMs ?? FRONT_WORKERS_DEFAULTS.restartDelayMs;
  const stableAfterMs = options.stableAfterMs ?? FRONT_WORKERS_DEFAULTS.stableAfterMs;
  const live = () => Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
  const relay = new PurgeRelay(() => live().map(relayWorker), {
    timeoutMs: options.purgeTimeoutMs ?? FRONT_WORKERS_DEFAULTS.purgeTimeoutMs,
    logger,
  });
  const metrics = new MetricsAggregator(live);
  const started = new Map<number, number>();
  let stopping = false;
  let starting = true;
  let firstFailure: string | undefined;
  let delay = restartDelayMs;
  const restarts = new Set<NodeJS.Timeout>();

  const fork = () => {
    const worker = cluster.fork({ ...options.env, SITESTACK_FRONT_WORKER: '1' });
    started.set(worker.id, Date.now());
    return worker;
  };

  const onMessage = (worker: Worker, message: unknown) => {
    if (isWorkerFailedMessage(message)) firstFailure ??= message.line;
    relay.onMessage(relayWorker(worker), message);
    metrics.onMessage(worker, message);
  };
  const onExit = (worker: Worker, code: number | null, signal: string | null) => {
    relay.onExit(relayWorker(worker));
    const lived = Date.now() - (started.get(worker.id) ?? Date.now());
    started.delete(worker.id);
    if (stopping || starting) return;
    if (lived >= stableAfterMs) delay = restartDelayMs;
    const wait = delay;
    delay = Math.min(10_000, delay * 2);
    logger.error({ worker: worker.id, pid: worker.process.pid, code, signal, restartInMs: wait }, 'front worker died; starting a replacement');
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopping) fork();
    }, wait);
    restarts.add(timer);
  };
  cluster.on('message', onMessage);
  cluster.on('exit', onExit);

  const first = Array.from({ length: count }, fork);
  const ready = Promise.all(
    first.map(
      (worker) =>
        new Promise<void>((resolve, reject) => {
          worker.once('listening', () => resolve());
          worker.once('exit', (code) => reject(ERRORS.WORKER_START_FAILED(worker.id, code, firstFailure)));
        }),
    ),
  ).then(
    () => {
      starting = false;
    },
    (error: unknown) => {
      stopping = true;
      throw error;
    },
  );

  return {
    ready,
    workers: live,
    async stop(stopOptions = {}) {
      stopping = true;
      for (const timer of restarts) clearTimeout(timer);
      restarts.clear();
      const exits = live().map((worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))));
      const { force } = stopOptions;
      for (const worker of live()) askToStop(worker, force?.aborted ?? false);
      const forceAll = () => {
        for (const worker of live()) askToStop(worker, true);
      };
      force?.addEventListener('abort', forceAll, { once: true });
      const killAfterMs =
        (options.drainDelayMs ?? FRONT_WORKERS_DEFAULTS.drainDelayMs) +
        (options.shutdownTimeoutMs ?? FRONT_WORKERS_DEFAULTS.shutdownTimeoutMs) +
        (options.killMarginMs ?? FRONT_WORKERS_DEFAULTS.killMarginMs);
      const killer = setTimeout(() => {
        const left = live();
        logger.error({ workers: left.map((worker) => worker.id), killAfterMs }, 'front workers still running after the drain time; killing them');
        for (const worker of left) worker.process.kill('SIGKILL');
      }, killAfterMs);
      await Promise.all(exits);
      clearTimeout(killer);
      force?.removeEventListener('abort', forceAll);
      relay.close();
      metrics.close();
      cluster.off('message', onMessage);
      cluster.off('exit', onExit);
    },
  };
}
