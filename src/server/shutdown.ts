import cluster from 'node:cluster';
import type { Logger } from '../log.js';

/** What the cluster primary sends a front worker to stop it; `force` ends the worker's drain at once. */
export interface ShutdownMessage {
  type: 'sitestack:shutdown';
  force: boolean;
}

/** What a front worker whose command failed sends the primary instead of printing: the primary reports it once. */
export const WORKER_FAILED = 'sitestack:worker-failed';

export interface WorkerFailedMessage {
  type: typeof WORKER_FAILED;
  /** The one line the CLI would have printed. */
  line: string;
}

export function isWorkerFailedMessage(message: unknown): message is WorkerFailedMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === WORKER_FAILED;
}

export function isShutdownMessage(message: unknown): message is ShutdownMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'sitestack:shutdown';
}

/** A stop under way. */
export interface Shutdown {
  /** Aborted by a second SIGINT or SIGTERM (or the primary's forced stop): drains end at once. */
  force: AbortSignal;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Resolves on the first SIGINT or SIGTERM (in a cluster worker, also on the primary's stop message), so a
 * long-running command can drain its servers and exit 0. A second signal aborts `force`; the handlers are then
 * removed, so a third signal ends the process the default way.
 */
export function waitForShutdown(logger: Logger): Promise<Shutdown> {
  const force = new AbortController();
  let started = false;
  return new Promise((resolve) => {
    const forceNow = (reason: string) => {
      if (force.signal.aborted) return;
      removeHandlers();
      logger.warn({ reason }, 'second stop request: not waiting for the requests in flight');
      force.abort();
    };
    const stop = (reason: string) => {
      if (started) {
        forceNow(reason);
        return;
      }
      started = true;
      logger.info({ reason }, 'shutting down: finishing the requests in flight');
      resolve({ force: force.signal });
    };
    const onSignal = (signal: NodeJS.Signals) => stop(signal);
    const onMessage = (message: unknown) => {
      if (!isShutdownMessage(message)) return;
      // When the terminal or the service manager signalled the whole process group, the worker is stopping already:
      // the primary's forwarded stop is the same request, not a second one.
      if (message.force) forceNow('primary');
      else if (!started) stop('primary');
    };
    const removeHandlers = () => {
      for (const signal of SIGNALS) process.off(signal, onSignal);
      process.off('message', onMessage);
    };
    for (const signal of SIGNALS) process.on(signal, onSignal);
    if (cluster.isWorker) process.on('message', onMessage);
  });
}
