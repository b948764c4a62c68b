import cluster from 'node:cluster';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createPageCache, createStatsHandler, type PageCache, type PageCacheOptions } from '@sitestack/page-cache';
import type { Config } from '../config.js';
import { parseProxyUpstream } from '../config.js';
import { ERRORS } from '../error-codes.js';
import type { Logger } from '../log.js';
import { createUpstreamHandler, type UpstreamHandler } from '../proxy/index.js';
import { parseCommandArgs } from './cli-args.js';
import type { Command } from './command.js';
import type { StopOptions } from './drain.js';
import { joinFleet, openSharedTier } from './fleet-front.js';
import { createBoundedServer, guardedHandler, missPasser } from './front.js';
import { pageCacheSettings, workersOf } from './front-command.js';
import { FrontMetrics } from './metrics.js';
import { WorkerMetrics } from './metrics-cluster.js';
import { createOperationsHandler, isOperationsPath } from './operations.js';
import { proxyRouteClass, STATS_PATH } from './operations-policy.js';
import { Readiness } from './readiness.js';
import { observeRequests } from './request-observer.js';
import { drainProcess, listenOn, runServerCommand, startInCluster, type WorkerWiring } from './server-process.js';

const PROXY_USAGE = 'sitestack proxy [--upstream URL]... [--workers N]';

export interface RunningProxy {
  url: string;
  pageCache: PageCache;
  server: Server;
  upstream: UpstreamHandler;
  readiness: Readiness;
  /** Marks the proxy unready, waits `config.drainDelayMs`, drains the server, then closes the upstream connections. */
  close(options?: StopOptions): Promise<void>;
}

export interface StartProxyOptions extends WorkerWiring {
  config: Config;
  logger: Logger;
  /** Overrides `config.port`; 0 picks a free port. */
  port?: number;
  /** Page cache options over those the proxy sets (tests and benchmarks). */
  pageCache?: Partial<PageCacheOptions>;
}

/**
 * The page cache options for an application sitestack did not write: it is told what to keep by the answers
 * themselves, so nothing private or cookie-setting is ever stored, and Next.js's data routes go with their pages.
 */
export function proxyCacheOptions(config: Config): PageCacheOptions {
  return {
    ...pageCacheSettings(config),
    bypassPrefixes: config.proxy.bypassPrefixes,
    dataRoutePrefix: config.proxy.dataRoutePrefix,
    dataRouteLocale: false,
    // The app router asks for a page's payload as `<page>?_rsc=…`: a purge of the page removes those too.
    purgeQueryVariants: true,
    storePrivate: false,
    storeSetCookie: false,
    lifetimes: 'honour',
    staleIfErrorMs: config.proxy.staleIfErrorMs,
    keyHeaders: ['surrogate-key', 'cache-tag'],
    hideKeyHeaders: true,
  };
}

/** Serves the proxy: `/healthz`, `/readyz`, `/metrics`, `/__cache__/stats`, then the page cache before the upstreams. */
export async function startProxy(options: StartProxyOptions): Promise<RunningProxy> {
  const { config, logger } = options;
  const upstream = createUpstreamHandler({
    upstreams: config.proxy.upstreams,
    connectTimeoutMs: config.proxy.connectTimeoutMs,
    firstByteTimeoutMs: config.proxy.firstByteTimeoutMs,
    idleTimeoutMs: config.proxy.idleTimeoutMs,
    trustedProxies: config.trustedProxies,
    logger,
  });
  const sharedTier = await openSharedTier(config, logger);
  const pageCache = createPageCache({ ...proxyCacheOptions(config), sharedTier, revalidate: upstream, distributePurge: options.distributePurge, logger, ...options.pageCache });
  const metricsToken = config.metricsToken ?? config.purgeSecret;
  if (metricsToken === undefined) logger.warn('METRICS_TOKEN and PURGE_SECRET are unset: the proxy refuses every /metrics request');
  const metrics = new FrontMetrics(() => pageCache.stats(), 'proxy');
  const fleet = options.fleetMetrics === true && cluster.isWorker ? new WorkerMetrics(metrics.registry) : undefined;
  // Reported, not critical: while the upstreams are down the page cache still answers what it holds, and every proxy
  // turning unready at once would make a partial outage a whole one.
  const readiness = new Readiness({ checks: [{ name: 'upstream', critical: false, run: (signal) => upstream.check(signal) }] });
  const operations = createOperationsHandler({ readiness, metricsText: fleet === undefined ? () => metrics.text() : () => fleet.fleetText(), metricsToken, logger });
  const stats = createStatsHandler(pageCache, { secret: config.purgeSecret });
  const forward = missPasser({ logger, onRender: (status, seconds) => metrics.render(status, seconds) }, upstream);
  const server = createBoundedServer(
    guardedHandler(logger, 'proxy', (req: IncomingMessage, res: ServerResponse, _url, path) => {
      if (isOperationsPath(path)) operations(req, res, path);
      else if (path === STATS_PATH) stats(req, res);
      else pageCache.handle(req, res, forward(req, res));
    }),
  );
  observeRequests(server, {
    server: 'proxy',
    routeClass: proxyRouteClass(config.proxy.bypassPrefixes),
    record: (route, status, seconds) => metrics.request(route, status, seconds),
    logger,
    logRequests: config.logRequests,
    cacheStatus: true,
    ...(cluster.isWorker ? { worker: String(cluster.worker?.id ?? '') } : {}),
  });
  let url: string;
  try {
    url = await listenOn(server, options.port ?? config.port, config.host);
  } catch (error) {
    fleet?.close();
    upstream.close();
    await sharedTier?.close();
    throw error;
  }
  readiness.ready();
  // Purges over the Redis stream reach an application sitestack did not write the same way they reach a front.
  joinFleet({ config, logger, pageCache, server, readiness, address: url, metrics: metrics.registry, sharedTier });
  return {
    url,
    pageCache,
    server,
    upstream,
    readiness,
    async close(stopOptions = {}) {
      await drainProcess({ readiness, server, config, logger, name: 'proxy' }, stopOptions);
      fleet?.close();
      upstream.close();
    },
  };
}

/**
 * The arguments of `sitestack proxy`: the upstreams of `--upstream URL` (repeatable; each checked as `UPSTREAM_URL`
 * is), else of `UPSTREAM_URL`, and `--workers N`.
 */
export function parseProxyArgs(args: readonly string[], config: Config): { upstreams: string[]; workers: number } {
  const { values } = parseCommandArgs({ args: [...args], options: { upstream: { type: 'string', multiple: true }, workers: { type: 'string' } } }, PROXY_USAGE);
  const given = (values.upstream ?? []).map((value) => parseProxyUpstream('--upstream', value));
  const upstreams = given.length > 0 ? given : config.proxy.upstreams;
  if (upstreams.length === 0) throw ERRORS.USAGE('name the application to proxy with --upstream http://host:port or UPSTREAM_URL', PROXY_USAGE);
  return { upstreams, workers: workersOf(values.workers, PROXY_USAGE) };
}

export const proxyCommand: Command = {
  name: 'proxy',
  summary: 'run the page cache (purges, soft purge, compressed copies, metrics) before any HTTP application (--upstream URL or UPSTREAM_URL; PORT)',
  usage: PROXY_USAGE,
  async run({ args, config: given, logger, out }) {
    const { upstreams, workers } = parseProxyArgs(args, given);
    return runServerCommand({
      name: 'proxy',
      workers,
      config: { ...given, proxy: { ...given.proxy, upstreams } },
      logger,
      out,
      async startOne(config) {
        const proxy = await startInCluster(logger, (wiring) => startProxy({ config, logger, ...wiring }));
        return { line: `proxy listening on ${proxy.url}, forwarding to ${upstreams.join(', ')}${cluster.isWorker ? ` (worker ${cluster.worker?.id})` : ''}`, close: (stop) => proxy.close(stop) };
      },
    });
  },
};
