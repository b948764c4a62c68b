import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { ContentStore, createOriginApp, openOriginDatabase, PublicationScheduler, PurgeOutbox, SearchOutbox, type BackoffPolicy, type CdnPurge } from '../origin/index.js';
import { CdnPurgeError, purgeCdn } from '../edge/index.js';
import { createEngine, createLiveUpdater, ensureSearchIndex, PopularityStore, type SearchEngine } from '../search/index.js';
import { ERRORS } from '../error-codes.js';
import { parseCommandArgs } from './cli-args.js';
import type { Command } from './command.js';
import { drainServer, type StopOptions } from './drain.js';
import { OriginMetrics } from './metrics.js';
import { originFleet } from './fleet-origin.js';
import { createOperationsHandler } from './operations.js';
import { HEALTH_PATH, METRICS_PATH, READY_PATH } from '../http/index.js';
import { originRouteClass } from './operations-policy.js';
import { Readiness } from './readiness.js';
import { observeRequests } from './request-observer.js';
import { ensureDataDir } from './data-dir.js';
import { probeListen } from './listen-probe.js';
import { searchReadinessCheck } from './search-readiness.js';
import { withSharedSecrets } from './secrets.js';
import { waitForShutdown } from './shutdown.js';

/** How long the origin's live search update waits for the embedded engine's write lock before it retries later. */
const LIVE_UPDATE_BUSY_TIMEOUT_MS = 200;

export interface RunningOrigin {
  url: string;
  outbox: PurgeOutbox | undefined;
  searchOutbox: SearchOutbox;
  /** Starting, ready or draining, with the checks of `/readyz`. */
  readiness: Readiness;
  /** Marks the origin unready, waits what is left of `config.drainDelayMs`, drains the API within `config.shutdownTimeoutMs` (see drainServer), then stops the outboxes and closes the stores. */
  close(options?: StopOptions): Promise<void>;
}

export interface StartOriginOptions {
  config: Config;
  logger: Logger;
  /** Overrides `config.edgeRefreshSecret`, the `secret-header` value of the edge refreshes. */
  edgeRefreshSecret?: string | undefined;
  /** Overrides `config.originPort`; 0 picks a free port. */
  port?: number;
  /** The edge purge step of the outbox. @default purgeCdn on `config.cdnBaseUrl` when it is set, else no CDN purge */
  cdnPurge?: CdnPurge;
  /** Retry policy of the purge and search outboxes. @default the outboxes' own */
  backoff?: BackoffPolicy;
  /** The search engine live updates are written to (not closed with the origin). @default the engine `config.searchUrl` names */
  searchEngine?: SearchEngine;
}

/** SQLite's own error names no file: this one does, and says what to do. */
function openDatabase(file: string): ReturnType<typeof openOriginDatabase> {
  try {
    return openOriginDatabase(file);
  } catch (error) {
    const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
    if (name !== 'SqliteError') throw error;
    throw ERRORS.DATA_DIR_UNUSABLE.with(
      { cause: error },
      `cannot open ${file}`,
      `${String(code)}: ${String(message)}`,
      'it must be an origin database this user can read and write; move it away to start afresh',
    );
  }
}

/**
 * Opens `<dataDir>/origin.sqlite` (migrating and seeding it when new), serves the origin API and runs the purge
 * outbox. Without a purge secret the outbox keeps every job for a later run and delivers nothing.
 */
export async function startOrigin(options: StartOriginOptions): Promise<RunningOrigin> {
  const { config, logger } = options;
  const secret = config.purgeSecret;
  const cdnBaseUrl = config.cdnBaseUrl;
  const edgeRefreshSecret = options.edgeRefreshSecret ?? config.edgeRefreshSecret;
  if (options.cdnPurge === undefined && cdnBaseUrl !== undefined && edgeRefreshSecret === undefined) {
    // The edge takes a refresh without its secret as an ordinary request, answered from the copy it meant to replace.
    throw ERRORS.EDGE_REFRESH_SECRET_UNSET();
  }
  const db = openDatabase(join(config.dataDir, 'origin.sqlite'));
  const cdnPurge: CdnPurge | undefined =
    options.cdnPurge ??
    (cdnBaseUrl === undefined || edgeRefreshSecret === undefined
      ? undefined
      : async (urls) => {
          try {
            await purgeCdn(urls, { baseUrl: cdnBaseUrl, secret: edgeRefreshSecret });
            return [];
          } catch (error) {
            if (!(error instanceof CdnPurgeError)) throw error;
            return error.failures.map(({ requested, reason, stale }) => ({ url: requested, reason, ...(stale === undefined ? {} : { stale }) }));
          }
        });
  // The outboxes count into it from their constructors on; its backlog gauges read them at each scrape.
  const sources: { outbox?: PurgeOutbox; searchOutbox?: SearchOutbox } = {};
  const metrics = new OriginMetrics({
    purgeBacklog: () => sources.outbox?.jobsBacklog() ?? { pending: 0, oldestAt: undefined },
    edgeBacklog: () => sources.outbox?.cdnBacklog() ?? { pending: 0, oldestAt: undefined },
    searchBacklog: () => sources.searchOutbox?.backlog() ?? { pending: 0, oldestAt: undefined },
  });
  // Redis back after an outage: the purges the outbox kept for the stream go at once.
  const fleet = config.fleet === undefined ? undefined : originFleet(config.fleet, logger, () => sources.outbox?.retryRouteNow(fleet?.stream.route ?? ''), config.purgeMode);
  fleet?.registerMetrics(metrics.registry);
  const outbox =
    secret === undefined
      ? undefined
      : new PurgeOutbox({
          db,
          routes: config.purgeUrls,
          secret,
          logger,
          metrics: { deliveryFailed: (route) => metrics.deliveryFailed(route), edgePurgeFailed: (urls) => metrics.edgePurgeFailed(urls) },
          ...(cdnPurge === undefined ? {} : { cdnPurge }),
          ...(fleet === undefined ? {} : { stream: fleet.stream }),
          ...(options.backoff === undefined ? {} : { backoff: options.backoff }),
        });
  // A live update that finds the embedded engine locked by another writer (an index run) fails fast and is retried,
  // rather than holding the origin's event loop while it waits.
  const searchEngine = options.searchEngine ?? createEngine(config.searchUrl, { busyTimeoutMs: LIVE_UPDATE_BUSY_TIMEOUT_MS }, { logger });
  const popularity = new PopularityStore(join(config.dataDir, 'popularity.sqlite'));
  const store = new ContentStore(db);
  const updateSearch = createLiveUpdater({ engine: searchEngine, prefix: config.searchPrefix, popularityOf: (key) => popularity.normalizedOf(key), logger });
  const searchOutbox = new SearchOutbox({
    db,
    logger,
    readPost: (oid) => store.getPost(oid)?.post,
    apply: async (changes) => {
      await updateSearch(changes);
    },
    metrics: { updateFailed: () => metrics.searchUpdateFailed() },
    ...(options.backoff === undefined ? {} : { backoff: options.backoff }),
  });
  sources.searchOutbox = searchOutbox;
  const scheduler = new PublicationScheduler({
    store,
    logger,
    onPublished: () => {
      outbox?.notify();
      searchOutbox.notify();
    },
  });
  if (outbox !== undefined) sources.outbox = outbox;
  const readiness = new Readiness({
    checks: [
      // The origin answers nothing without its database: a closed one makes it unready.
      {
        name: 'database',
        critical: true,
        run: () => {
          if (!db.open) throw ERRORS.DATABASE_CLOSED('origin.sqlite');
          db.prepare('SELECT 1').get();
          return 'open';
        },
      },
      // Search updates wait in the outbox while the engine is down: reported, not a reason to stop serving content.
      searchReadinessCheck(searchEngine, config.searchPrefix),
      ...(fleet === undefined ? [] : [fleet.readinessCheck]),
    ],
  });
  const metricsToken = config.metricsToken ?? config.originAdminToken;
  if (metricsToken === undefined) logger.warn('METRICS_TOKEN and ORIGIN_ADMIN_TOKEN are unset: the origin refuses every /metrics request');
  if (outbox === undefined) logger.warn('PURGE_SECRET is unset: content changes are queued in the outbox but no front is purged');
  if (config.originAdminToken === undefined) logger.warn('ORIGIN_ADMIN_TOKEN is unset: admin writes are refused');
  const app = await createOriginApp({
    db,
    logger,
    adminToken: config.originAdminToken,
    commentRateLimit: config.commentRateLimit,
    trustedProxies: config.trustedProxies,
    desk: { publicUrl: config.publicUrl, ...config.desk },
    site: { identity: config.site, ...(config.siteLocales[0] === undefined ? {} : { locale: config.siteLocales[0] }) },
    searchInsights: { secret },
    images: { dir: join(config.dataDir, 'images'), ...config.images },
    onChange: () => {
      outbox?.notify();
      searchOutbox.notify();
      scheduler.notify();
    },
    operations: {
      paths: [HEALTH_PATH, READY_PATH, METRICS_PATH],
      handle: createOperationsHandler({ readiness, metricsText: () => metrics.text(), metricsToken, logger }),
    },
  });
  observeRequests(app.server, {
    server: 'origin',
    routeClass: originRouteClass,
    record: (route, status, seconds) => metrics.request(route, status, seconds),
    logger,
    logRequests: config.logRequests,
  });
  const url = await app.listen({ host: config.host, port: options.port ?? config.originPort });
  outbox?.start();
  searchOutbox.start();
  scheduler.start();
  readiness.ready();
  return {
    url,
    outbox,
    searchOutbox,
    readiness,
    async close(stopOptions = {}) {
      await readiness.drainDelay(config.drainDelayMs, stopOptions.force);
      const drainEnds = Date.now() + config.shutdownTimeoutMs;
      await drainServer(app.server, { logger, timeoutMs: config.shutdownTimeoutMs, name: 'origin', close: () => app.close(), ...stopOptions });
      await scheduler.stop();
      // What is left of the drain time lets a purge in flight reach its front now rather than at the next start.
      await outbox?.stop({ graceMs: drainEnds - Date.now(), ...stopOptions });
      await searchOutbox.stop({ graceMs: drainEnds - Date.now(), ...stopOptions });
      await fleet?.close();
      if (options.searchEngine === undefined) await searchEngine.close();
      popularity.close();
      db.close();
    },
  };
}

const ORIGIN_USAGE = 'sitestack origin';

/**
 * Builds the first search index from this origin when there is none (ensureSearchIndex). A failure is logged with
 * what to run by hand and the origin serves on: content does not wait for search, and `/readyz` reports the search
 * check failing with the same advice.
 */
export async function buildFirstIndex(config: Config, originUrl: string, logger: Logger): Promise<void> {
  try {
    await ensureSearchIndex({ config: { ...config, apiBase: originUrl }, logger });
  } catch (error) {
    logger.error({ err: error }, 'the first search index could not be built; run sitestack content-build and sitestack index');
  }
}

export const originCommand: Command = {
  name: 'origin',
  summary: 'run the content origin: JSON API over SQLite, admin writes and the purge outbox (ORIGIN_PORT)',
  usage: ORIGIN_USAGE,
  async run({ args, config: given, logger, out }) {
    parseCommandArgs({ args, options: {} }, ORIGIN_USAGE);
    ensureDataDir(given.dataDir);
    // A port in use or a HOST that does not resolve is told before any store is opened and anything is logged.
    await probeListen(given.host, given.originPort, 'ORIGIN_PORT');
    const config = withSharedSecrets(given, logger);
    // Listening from the start: a stop requested while the origin still opens its stores waits for that, then drains.
    const stopRequested = waitForShutdown(logger);
    const origin = await startOrigin({ config, logger });
    // The origin builds the first index, as `sitestack start` does: it owns the content the build reads and the search
    // outbox whose live updates need an index to write to, and it is the one layer every set-up runs exactly once.
    await buildFirstIndex(config, origin.url, logger);
    out.write(`origin listening on ${origin.url}\n`);
    await origin.close(await stopRequested);
    return 0;
  },
};
