import type { Server } from 'node:http';
import type { Registry } from 'prom-client';
import type { PageCache } from '@sitestack/page-cache';
import type { Config } from '../config.js';
import { FleetReader, RedisSharedTier } from '../fleet/index.js';
import type { Logger } from '../log.js';
import { registerFleetReaderMetrics } from './fleet-reader-metrics.js';
import { registerSharedTierMetrics } from './shared-tier-metrics.js';
import type { Readiness } from './readiness.js';
import { redisReadinessCheck } from './redis-readiness.js';

export interface FleetFrontParts {
  config: Config;
  logger: Logger;
  pageCache: PageCache;
  server: Server;
  readiness: Readiness;
  /** The front's own address, announced to the fleet. */
  address: string;
  /** Where its `/metrics` gets the reader's series (`sitestack_fleet_applied_total`, …). */
  metrics: Registry;
  /** The shared second tier its page cache uses ({@link openSharedTier}); closed with the server. */
  sharedTier?: RedisSharedTier | undefined;
}

/**
 * The fleet's shared second tier for this process's page cache (`sharedTier` option), when `REDIS_URL` is set and
 * `FLEET_SECOND_TIER` is not off. Waits for its connection at most `REDIS_TIMEOUT_MS`, so that a new front's first
 * requests find the pages the fleet rendered; while it is not ready misses render as without it.
 */
export async function openSharedTier(config: Config, logger: Logger): Promise<RedisSharedTier | undefined> {
  const fleet = config.fleet;
  if (fleet?.secondTier === undefined) return undefined;
  const tier = new RedisSharedTier({ url: fleet.redisUrl, options: fleet, tier: fleet.secondTier, logger });
  const ready = await tier.ready(fleet.commandTimeoutMs).then(
    () => true,
    () => false,
  );
  if (!ready) logger.warn({ waitedMs: fleet.commandTimeoutMs }, 'shared tier: Redis not ready yet; misses render without it until it is');
  return tier;
}

/**
 * Makes this front (or proxy) process a member of the fleet when `REDIS_URL` is set (else does nothing): it reads the
 * purge stream into its page cache, announces itself, reports Redis in `/readyz` (not critical: the cache answers while
 * Redis is away) and the reader's state in `/metrics`, and leaves when its server closes. Each process of a
 * `--workers` front reads for its own cache.
 */
export function joinFleet(parts: FleetFrontParts): FleetReader | undefined {
  const { config, logger, pageCache, server, readiness } = parts;
  const fleet = config.fleet;
  if (fleet === undefined) return undefined;
  const reader = new FleetReader({
    url: fleet.redisUrl,
    options: fleet,
    logger,
    address: parts.address,
    target: {
      purge: (request) => pageCache.purge(request),
      holdsPages: () => pageCache.stats().entries > 0,
      empty() {
        logger.info({ purged: pageCache.purgeAll().length }, 'page cache emptied');
      },
    },
  });
  registerFleetReaderMetrics(parts.metrics, () => reader.state());
  const { sharedTier } = parts;
  if (sharedTier !== undefined) registerSharedTierMetrics(parts.metrics, () => sharedTier.stats());
  readiness.add(redisReadinessCheck(fleet.redisUrl, () => reader.ping(), () => `last applied ${reader.state().lastId ?? 'nothing yet'}`));
  reader.start();
  server.once('close', () => {
    void reader.stop({ leave: true });
    void sharedTier?.close();
  });
  return reader;
}
