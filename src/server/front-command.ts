import cluster from 'node:cluster';
import type { Server, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.js';
import { ERRORS } from '../error-codes.js';
import type { Logger } from '../log.js';
import { createApiApp, discardBody, publicBaseMemo, trustedProxyCheck, type PublicBaseOptions } from '../http/index.js';
import { type CacheKeyFunction, computeKey, createPageCache, createStatsHandler, keyForTarget, type PageCache, type PageCacheOptions } from '@sitestack/page-cache';
import { buildClient, createCommentRoute, createRenderer, DATA_PREFIX, STATIC_PREFIX, type BuildClientOptions, type RendererHandler } from '../renderer/index.js';
import { createEngine, searchInsightsRoutes, searchRoutes } from '../search/index.js';
import { openSongs, songRoutes } from '../songs/index.js';
import { parseCommandArgs } from './cli-args.js';
import type { Command } from './command.js';
import type { StopOptions } from './drain.js';
import { createFrontServer } from './front.js';
import { joinFleet, openSharedTier } from './fleet-front.js';
import { FrontMetrics } from './metrics.js';
import { WorkerMetrics } from './metrics-cluster.js';
import { createOperationsHandler } from './operations.js';
import { frontRouteClass } from './operations-policy.js';
import { Readiness, type ReadinessCheck } from './readiness.js';
import { observeRequests } from './request-observer.js';
import { searchReadinessCheck } from './search-readiness.js';
import { drainProcess, listenOn, runServerCommand, startInCluster } from './server-process.js';

const FRONT_USAGE = 'sitestack front [--workers N]';

/** `--workers N` (or `--workers=N`): front processes to run, 1–64. @default 1 */
export function parseWorkers(args: readonly string[], usage: string): number {
  return workersOf(parseCommandArgs({ args: [...args], options: { workers: { type: 'string' } } }, usage).values.workers, usage);
}

/** The value of `--workers`, checked: 1–64, 1 when not given. */
export function workersOf(value: string | undefined, usage: string): number {
  if (value === undefined) return 1;
  const workers = /^\d{1,2}$/.test(value) ? Number(value) : Number.NaN;
  if (!(workers >= 1 && workers <= 64)) throw ERRORS.USAGE(`--workers expects a whole number from 1 to 64, got '${value}'`, usage);
  return workers;
}

/** Work done once in the primary so the workers do not race each other: the client bundle and the song store seed. */
export async function prepareWorkers(config: Config, logger: Logger): Promise<void> {
  await buildClient({ outDir: join(config.dataDir, 'client') });
  openSongs({ dataDir: config.dataDir, config: config.songs, logger, seed: true }).close();
}

/**
 * One front process: standalone, or a cluster worker whose purges reach every other worker through the primary.
 * `sitestack start` runs the same in its workers.
 */
export async function startFrontProcess(options: Omit<StartFrontOptions, 'distributePurge' | 'workerId'>): Promise<RunningFront> {
  return startInCluster(options.logger, (wiring) =>
    startFront({ ...options, ...wiring, ...(cluster.isWorker && options.config.frontWorkerHeader ? { workerId: String(cluster.worker?.id ?? '') } : {}) }),
  );
}

export interface RunningFront {
  url: string;
  buildId: string;
  pageCache: PageCache;
  server: Server;
  /** Starting, ready or draining, with the checks of `/readyz`. */
  readiness: Readiness;
  /** Marks the front unready, waits `config.drainDelayMs`, then drains the server within `config.shutdownTimeoutMs` (see drainServer), then closes the API, search and song stores. */
  close(options?: StopOptions): Promise<void>;
}

export interface StartFrontOptions {
  config: Config;
  logger: Logger;
  /** Overrides `config.port`; 0 picks a free port. */
  port?: number;
  /** Where the client bundle is built. @default `<dataDir>/client` */
  buildDir?: string;
  /** Client bundle options other than its folder (e.g. a release banner). */
  clientBuild?: Omit<BuildClientOptions, 'outDir'>;
  /** Route plugins for `/api/*` besides the song routes. */
  apiPlugins?: readonly FastifyPluginAsync[];
  /** How a purge accepted on the purge route also reaches other workers' caches (see the page cache option). */
  distributePurge?: PageCacheOptions['distributePurge'];
  /** Names this process on every answer as `x-front-worker: <id>` (tests of `--workers`; `FRONT_WORKER_HEADER`). */
  workerId?: string;
  /** `/metrics` answers for every worker of the cluster, through the primary (a `--workers` front). @default false */
  fleetMetrics?: boolean;
  /**
   * Times requests for the metrics and the request log. False leaves both out (with `/metrics` still answering), for
   * the benchmark that measures what they cost. @default true
   */
  observeRequests?: boolean;
}

/**
 * The configured key policy applied to the canonical URL's cache target (the search page shell without its query),
 * plus the request's public base URL after the key of a page made for any other base than
 * `ownBase()` (the front's own address, once it listens): pages name that base in their canonical link, Open Graph
 * URL and feed links, so a page made for one public base (`PUBLIC_URL`, an allowed host, a trusted proxy's scheme)
 * is never served for another; no client can add a base of its own, as a host that is not allowed gets the listener's. Requests to the front's own address keep the plain key, as the purge
 * route's answers list it. The base goes after a space, which the purge rules read as the end of the page path (as
 * with `path+variant`), so a purge of a path removes every host's copy. Data routes and static files hold no absolute
 * URL and are shared.
 */
function keyWithPublicBase(config: Config, renderer: RendererHandler, publicBase: PublicBaseOptions, ownBase: () => string | undefined): CacheKeyFunction {
  const options = { variantCookie: config.cacheVariantCookie, variantHeader: config.cacheVariantHeader };
  const baseOf = publicBaseMemo(config.allowedHosts, publicBase);
  return (req) => {
    // The front has sent every other spelling to the canonical URL: what is left to key is its cache target, which is
    // in origin form already.
    const url = req.url ?? '/';
    const target = renderer.canonicalUrl(url)?.cacheTarget;
    const key = target === undefined ? (computeKey(config.cacheKey, { url, headers: req.headers }, options) ?? url) : keyForTarget(config.cacheKey, target, req.headers, options);
    if (key.startsWith(DATA_PREFIX) || key.startsWith(STATIC_PREFIX)) return key;
    const base = baseOf(req);
    return base === ownBase() ? key : `${key} ${base}`;
  };
}

/** The page cache options `CACHE_*`, `PURGE_MODE`, `STALE_MAX_MS` and `PURGE_SECRET` set, for the front and the proxy. */
export function pageCacheSettings(config: Config): PageCacheOptions {
  return {
    maxEntries: config.cacheMaxEntries,
    maxBytes: config.cacheMaxBytes,
    eviction: config.cacheEviction,
    compress: config.cacheCompress,
    compressMinBytes: config.cacheCompressMinBytes,
    purgeMode: config.purgeMode,
    staleMaxMs: config.staleMaxMs,
    key: config.cacheKey,
    variantCookie: config.cacheVariantCookie,
    variantHeader: config.cacheVariantHeader,
    purgeSecret: config.purgeSecret,
  };
}

/**
 * The front's readiness checks. Both only report: the page cache answers what it holds while the origin or search is
 * down, and every front failing readiness together would turn a partial outage into a whole one.
 */
function frontChecks(apiBase: string, search: ReadinessCheck): ReadinessCheck[] {
  return [
    {
      name: 'origin',
      critical: false,
      async run(signal) {
        const response = await fetch(`${apiBase}/healthz`, { signal });
        await discardBody(response);
        if (!response.ok) throw ERRORS.ORIGIN_UNHEALTHY(response.status, `${apiBase}/healthz`);
        return 'reachable';
      },
    },
    search,
  ];
}

/**
 * Builds the client bundle when its sources changed, then serves the front: the API (song routes and `apiPlugins`),
 * the page cache and the renderer. The song store (`<dataDir>/songs.sqlite`) is opened, and seeded when empty.
 */
export async function startFront(options: StartFrontOptions): Promise<RunningFront> {
  const { config, logger } = options;
  const purgeSecret = config.purgeSecret;
  const buildDir = options.buildDir ?? join(config.dataDir, 'client');
  const manifest = await buildClient({ ...options.clientBuild, outDir: buildDir });
  const publicBase: PublicBaseOptions = { publicUrl: config.publicUrl, trustedProxy: trustedProxyCheck(config.trustedProxies) };
  const renderer = createRenderer({
    apiBase: config.apiBase,
    buildDir,
    logger,
    site: config.site,
    allowedHosts: config.allowedHosts,
    locales: config.siteLocales,
    publicBase,
    timeoutMs: config.originTimeoutMs,
    maxOriginAnswerBytes: config.originMaxAnswerBytes,
  });
  // Known once the server listens (the port may be 0); until then no request reaches the cache.
  const own: { base?: string } = {};
  const sharedTier = await openSharedTier(config, logger);
  const pageCache = createPageCache({
    ...pageCacheSettings(config),
    sharedTier,
    revalidate: renderer,
    key: keyWithPublicBase(config, renderer, publicBase, () => own.base),
    distributePurge: options.distributePurge,
    logger,
  });
  const songs = openSongs({ dataDir: config.dataDir, config: config.songs, logger, seed: true });
  const engine = createEngine(config.searchUrl, {}, { logger });
  const search = searchRoutes({
    engine,
    index: config.searchPrefix,
    rateLimit: config.searchRateLimit,
    trustedProxies: config.trustedProxies,
    logger,
  });
  const insights = searchInsightsRoutes({ originUrl: config.apiBase, secret: purgeSecret, trustedProxies: config.trustedProxies, timeoutMs: config.originTimeoutMs, logger });
  const api = await createApiApp({ logger, plugins: [songRoutes(songs), search, insights, ...(options.apiPlugins ?? [])] });
  const comments = createCommentRoute({ apiBase: config.apiBase, renderer, trustedProxies: config.trustedProxies, timeoutMs: config.originTimeoutMs, logger });
  const metricsToken = config.metricsToken ?? purgeSecret;
  if (metricsToken === undefined) logger.warn('METRICS_TOKEN and PURGE_SECRET are unset: the front refuses every /metrics request');
  const metrics = new FrontMetrics(() => pageCache.stats());
  const fleet = options.fleetMetrics === true && cluster.isWorker ? new WorkerMetrics(metrics.registry) : undefined;
  const readiness = new Readiness({ checks: frontChecks(config.apiBase, searchReadinessCheck(engine, config.searchPrefix)) });
  const observe = options.observeRequests ?? true;
  const server = createFrontServer({
    api,
    pageCache,
    stats: createStatsHandler(pageCache, { secret: purgeSecret }),
    renderer,
    comments,
    logger,
    operations: createOperationsHandler({
      readiness,
      metricsText: fleet === undefined ? () => metrics.text() : () => fleet.fleetText(),
      metricsToken,
      logger,
    }),
    ...(observe ? { onRender: (status: number, seconds: number) => metrics.render(status, seconds) } : {}),
  });
  if (observe) {
    observeRequests(server, {
      server: 'front',
      routeClass: frontRouteClass,
      record: (route, status, seconds) => metrics.request(route, status, seconds),
      logger,
      logRequests: config.logRequests,
      cacheStatus: true,
      ...(cluster.isWorker ? { worker: String(cluster.worker?.id ?? '') } : {}),
    });
  }
  const workerId = options.workerId;
  if (workerId !== undefined) server.prependListener('request', (_req, res: ServerResponse) => res.setHeader('x-front-worker', workerId));
  try {
    own.base = await listenOn(server, options.port ?? config.port, config.host);
  } catch (error) {
    fleet?.close();
    await sharedTier?.close();
    await api.close();
    await engine.close();
    songs.close();
    throw error;
  }
  readiness.ready();
  joinFleet({ config, logger, pageCache, server, readiness, address: own.base, metrics: metrics.registry, sharedTier });
  return {
    url: own.base,
    buildId: manifest.buildId,
    pageCache,
    server,
    readiness,
    async close(stopOptions = {}) {
      await drainProcess({ readiness, server, config, logger, name: 'front' }, stopOptions);
      fleet?.close();
      await api.close();
      await engine.close();
      songs.close();
    },
  };
}

export const frontCommand: Command = {
  name: 'front',
  summary: 'run the front: /api/*, the page cache with its purge route, and the React renderer (PORT); --workers N for N processes',
  usage: FRONT_USAGE,
  async run({ args, config: given, logger, out }) {
    const workers = parseWorkers(args, FRONT_USAGE);
    return runServerCommand({
      name: 'front',
      workers,
      config: given,
      logger,
      out,
      prepare: (config) => prepareWorkers(config, logger),
      async startOne(config) {
        const front = await startFrontProcess({ config, logger });
        return { line: `front listening on ${front.url} (build ${front.buildId}${cluster.isWorker ? `, worker ${cluster.worker?.id}` : ''})`, close: (stop) => front.close(stop) };
      },
    });
  },
};
