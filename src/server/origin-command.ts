import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { ContentStore, createOriginApp, openOriginDatabase, PurgeOutbox, SearchOutbox, type BackoffPolicy, type CdnPurge } from '../origin/index.js';
import { CdnPurgeError, purgeCdn } from '../edge/index.js';
import { createEngine, createLiveUpdater, PopularityStore, type SearchEngine } from '../search/index.js';
import type { Command } from './command.js';
import { drainServer, type StopOptions } from './drain.js';
import { waitForShutdown } from './shutdown.js';

/** How long the origin's live search update waits for the embedded engine's write lock before it retries later. */
const LIVE_UPDATE_BUSY_TIMEOUT_MS = 200;

export interface RunningOrigin {
  url: string;
  outbox: PurgeOutbox | undefined;
  searchOutbox: SearchOutbox;
  /** Drains the API within `config.shutdownTimeoutMs` (see drainServer), then stops the outboxes and closes the stores. */
  close(options?: StopOptions): Promise<void>;
}

export interface StartOriginOptions {
  config: Config;
  logger: Logger;
  /** Overrides `config.purgeSecret` (`sitestack start` shares a per-run secret with its front). */
  purgeSecret?: string | undefined;
  /** Overrides `config.originPort`; 0 picks a free port. */
  port?: number;
  /** The edge purge step of the outbox. @default purgeCdn on `config.cdnBaseUrl` when it is set, else no CDN purge */
  cdnPurge?: CdnPurge;
  /** Retry policy of the purge and search outboxes. @default the outboxes' own */
  backoff?: BackoffPolicy;
  /** The search engine live updates are written to (not closed with the origin). @default the engine `config.searchUrl` names */
  searchEngine?: SearchEngine;
}

/**
 * Opens `<dataDir>/origin.sqlite` (migrating and seeding it when new), serves the origin API and runs the purge
 * outbox. Without a purge secret the outbox keeps every job for a later run and delivers nothing.
 */
export async function startOrigin(options: StartOriginOptions): Promise<RunningOrigin> {
  const { config, logger } = options;
  const db = openOriginDatabase(join(config.dataDir, 'origin.sqlite'));
  const secret = options.purgeSecret ?? config.purgeSecret;
  const cdnBaseUrl = config.cdnBaseUrl;
  const cdnPurge: CdnPurge | undefined =
    options.cdnPurge ??
    (cdnBaseUrl === undefined
      ? undefined
      : async (urls) => {
          try {
            await purgeCdn(urls, { baseUrl: cdnBaseUrl });
            return [];
          } catch (error) {
            if (!(error instanceof CdnPurgeError)) throw error;
            return error.failures.map(({ requested, reason }) => ({ url: requested, reason }));
          }
        });
  const outbox =
    secret === undefined
      ? undefined
      : new PurgeOutbox({
          db,
          routes: config.purgeUrls,
          secret,
          logger,
          ...(cdnPurge === undefined ? {} : { cdnPurge }),
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
    ...(options.backoff === undefined ? {} : { backoff: options.backoff }),
  });
  if (outbox === undefined) logger.warn('PURGE_SECRET is unset: content changes are queued in the outbox but no front is purged');
  if (config.originAdminToken === undefined) logger.warn('ORIGIN_ADMIN_TOKEN is unset: admin writes are refused');
  const app = await createOriginApp({
    db,
    logger,
    adminToken: config.originAdminToken,
    commentRateLimit: config.commentRateLimit,
    trustedProxies: config.trustedProxies,
    onChange: () => {
      outbox?.notify();
      searchOutbox.notify();
    },
  });
  const url = await app.listen({ host: config.host, port: options.port ?? config.originPort });
  outbox?.start();
  searchOutbox.start();
  return {
    url,
    outbox,
    searchOutbox,
    async close(stopOptions = {}) {
      const drainEnds = Date.now() + config.shutdownTimeoutMs;
      await drainServer(app.server, { logger, timeoutMs: config.shutdownTimeoutMs, name: 'origin', close: () => app.close(), ...stopOptions });
      // What is left of the drain time lets a purge in flight reach its front now rather than at the next start.
      await outbox?.stop({ graceMs: drainEnds - Date.now(), ...stopOptions });
      await searchOutbox.stop({ graceMs: drainEnds - Date.now(), ...stopOptions });
      if (options.searchEngine === undefined) await searchEngine.close();
      popularity.close();
      db.close();
    },
  };
}

export const originCommand: Command = {
  name: 'origin',
  summary: 'run the content origin: JSON API over SQLite, admin writes and the purge outbox (ORIGIN_PORT)',
  usage: 'sitestack origin',
  async run({ config, logger, out }) {
    // Listening from the start: a stop requested while the origin still opens its stores waits for that, then drains.
    const stopRequested = waitForShutdown(logger);
    const origin = await startOrigin({ config, logger });
    out.write(`origin listening on ${origin.url}\n`);
    await origin.close(await stopRequested);
    return 0;
  },
};
