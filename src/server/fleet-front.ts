import type { Server } from 'node:http';
import { DEFAULTS as PAGE_CACHE_DEFAULTS, type PageCache } from '@sitestack/page-cache';
import type { Config } from '../config.js';
import { FleetReader, RecentUrls } from '../fleet/index.js';
import type { Logger } from '../log.js';
import type { Readiness } from './readiness.js';
import { redisReadinessCheck } from './redis-readiness.js';

/** URLs remembered for emptying the cache, per cache entry it may hold; at least {@link MIN_RECENT_URLS}. */
const RECENT_URLS_PER_ENTRY = 4;
const MIN_RECENT_URLS = 10_000;
const MAX_RECENT_URLS = 1_000_000;

export interface FleetFrontParts {
  config: Config;
  logger: Logger;
  pageCache: PageCache;
  server: Server;
  readiness: Readiness;
  /** The front's own address, announced to the fleet. */
  address: string;
}

/** Paths no page cache entry is kept under: the API, the operator routes. */
function neverCached(url: string): boolean {
  return url.startsWith('/api/') || url.startsWith('/__');
}

/**
 * Makes this front process a member of the fleet when `REDIS_URL` is set (else does nothing): it reads the purge
 * stream into its page cache, announces itself, reports Redis in `/readyz` (not critical: the cache answers while
 * Redis is away), and leaves when its server closes. Each process of a `--workers` front reads for its own cache.
 */
export function joinFleet(parts: FleetFrontParts): FleetReader | undefined {
  const { config, logger, pageCache, server, readiness } = parts;
  const fleet = config.fleet;
  if (fleet === undefined) return undefined;
  const recent = new RecentUrls(Math.min(MAX_RECENT_URLS, Math.max(MIN_RECENT_URLS, RECENT_URLS_PER_ENTRY * config.cacheMaxEntries)));
  server.prependListener('request', (req) => {
    const url = req.url;
    if (url !== undefined && (req.method === 'GET' || req.method === 'HEAD') && !neverCached(url)) recent.add(url);
  });
  const reader = new FleetReader({
    url: fleet.redisUrl,
    options: fleet,
    logger,
    address: parts.address,
    target: {
      purge: (request) => pageCache.purge(request),
      holdsPages: () => pageCache.stats().entries > 0,
      empty() {
        let purged = 0;
        for (const pathnames of recent.pathnameChunks(PAGE_CACHE_DEFAULTS.maxPathnames, PAGE_CACHE_DEFAULTS.maxPathnameLength)) purged += pageCache.purge({ pathnames }).length;
        recent.clear();
        const left = pageCache.stats().entries;
        if (left > 0 && config.purgeMode === 'delete') logger.warn({ purged, left }, 'page cache entries left after emptying: their URLs were pushed out of the recent URLs');
        else logger.info({ purged }, 'page cache emptied');
      },
    },
  });
  readiness.add(redisReadinessCheck(fleet.redisUrl, () => reader.ping(), () => `last applied ${reader.state().lastId ?? 'nothing yet'}`));
  reader.start();
  server.once('close', () => void reader.stop());
  return reader;
}
