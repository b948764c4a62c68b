import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PageCache, PageCacheOptions } from '@sitestack/page-cache';
import type { Logger } from '../log.js';
import type { StopOptions } from './drain.js';
import { runFrontWorkers, type FrontWorkers } from './front-workers.js';
import { WorkerPurgeFanout } from './purge-fanout.js';
import { waitForShutdown } from './shutdown.js';
import { ensureDataDir } from './data-dir.js';
import { probeListen } from './listen-probe.js';
import { withSharedSecrets } from './secrets.js';
import { drainServer } from './drain.js';
import type { Readiness } from './readiness.js';
import type { Config } from '../config.js';

/** Listens on `port` (0: a free one) and `host`, and resolves with the server's `http://host:port`. */
export async function listenOn(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/**
 * The first steps of stopping a server process: marked unready, `config.drainDelayMs` waited, then its requests in
 * flight drained within `config.shutdownTimeoutMs` (see drainServer); the caller closes its stores after.
 */
export async function drainProcess(
  parts: { readiness: Readiness; server: Server; config: Pick<Config, 'drainDelayMs' | 'shutdownTimeoutMs'>; logger: Logger; name: string },
  stopOptions: StopOptions,
): Promise<void> {
  await parts.readiness.drainDelay(parts.config.drainDelayMs, stopOptions.force);
  await drainServer(parts.server, { logger: parts.logger, timeoutMs: parts.config.shutdownTimeoutMs, name: parts.name, ...stopOptions });
}

/** A server process with a page cache: what a cluster worker's purges reach. */
export interface CachingProcess {
  pageCache: PageCache;
  close(options?: StopOptions): Promise<void>;
}

/** What a process started as a cluster worker is given, so that purges and metrics cover every worker. */
export interface WorkerWiring {
  distributePurge?: PageCacheOptions['distributePurge'];
  fleetMetrics?: boolean;
}

/**
 * Starts one server process through `start`: as it is outside a cluster, or, in a cluster worker, with purges that
 * reach every other worker through the primary and metrics of the whole fleet.
 */
export async function startInCluster<P extends CachingProcess>(logger: Logger, start: (wiring: WorkerWiring) => Promise<P>): Promise<P> {
  if (!cluster.isWorker) return start({});
  // A relayed purge can arrive while this worker still starts: its cache is empty then, so there is nothing to purge.
  const started: { cache?: PageCache } = {};
  const fanout = new WorkerPurgeFanout({ purgeLocal: (request) => started.cache?.purge(request) ?? [], logger });
  const running = await start({ fleetMetrics: true, distributePurge: async (request) => (await fanout.purgeEverywhere(request)).purged });
  started.cache = running.pageCache;
  return {
    ...running,
    async close(stopOptions?: StopOptions) {
      fanout.close();
      await running.close(stopOptions);
      // The IPC channel to the primary would keep this worker alive once its servers are closed.
      cluster.worker?.disconnect();
    },
  };
}

async function listeningAddress(fleet: FrontWorkers): Promise<string> {
  let address = '';
  const onListening = (_worker: unknown, info: AddressInfo) => (address = `${info.address.includes(':') ? `[${info.address}]` : info.address}:${info.port}`);
  cluster.on('listening', onListening);
  try {
    await fleet.ready;
  } finally {
    cluster.off('listening', onListening);
  }
  return address;
}

/** Options of {@link runServerCommand}. */
export interface ServerCommandOptions {
  /** The server's name in the lines printed: `front`, `proxy`. */
  name: string;
  workers: number;
  /** The configuration as read; the shared secrets are added to it (see withSharedSecrets). */
  config: Config;
  logger: Logger;
  out: NodeJS.WritableStream;
  /** Work done once in the primary before the workers start. */
  prepare?: (config: Config) => Promise<void>;
  /** Starts this process's server; resolves with what to print and how to stop it. */
  startOne: (config: Config) => Promise<{ line: string; close(options?: StopOptions): Promise<void> }>;
}

/**
 * The body of a long-running server command on `PORT` with `--workers N`: the primary of N workers (each re-running the
 * command), or the one server; prints where it listens and resolves with exit code 0 once a stop request has drained it.
 */
export async function runServerCommand(options: ServerCommandOptions): Promise<number> {
  const { name, workers, config: given, logger, out } = options;
  ensureDataDir(given.dataDir);
  // A port in use or a HOST that does not resolve is told before anything is built or logged (once, in the primary of
  // a --workers server).
  if (cluster.isPrimary) await probeListen(given.host, given.port, 'PORT');
  const config = withSharedSecrets(given, logger);
  // Listening from the start: a stop requested while the server still builds and opens its stores waits for that.
  const stopRequested = waitForShutdown(logger);
  if (cluster.isPrimary && workers > 1) {
    await options.prepare?.(config);
    const fleet = runFrontWorkers({ workers, logger, shutdownTimeoutMs: config.shutdownTimeoutMs, drainDelayMs: config.drainDelayMs });
    const address = await listeningAddress(fleet).catch(async (error: unknown) => {
      await fleet.stop();
      throw error;
    });
    out.write(`${name} listening on http://${address} with ${workers} worker processes\n`);
    await fleet.stop(await stopRequested);
    return 0;
  }
  const server = await options.startOne(config);
  out.write(`${server.line}\n`);
  await server.close(await stopRequested);
  return 0;
}
