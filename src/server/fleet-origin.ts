import { Gauge, type Registry } from 'prom-client';
import type { PurgeMode } from '@sitestack/page-cache';
import type { FleetConfig } from '../config.js';
import { connectRedis, fleetKeys, liveFronts, PurgeStreamWriter, type FleetFront } from '../fleet/index.js';
import type { Logger } from '../log.js';
import type { PurgeStream } from '../origin/index.js';
import type { ReadinessCheck } from './readiness.js';
import { redisReadinessCheck } from './redis-readiness.js';

/** The origin's part of a fleet (`REDIS_URL`): the outbox's stream route, its readiness check and its gauges. */
export interface OriginFleet {
  stream: PurgeStream;
  /** Non-critical: content is served and purges wait in the outbox while Redis is away. */
  readinessCheck: ReadinessCheck;
  /** Adds the fleet gauges (fronts alive, their largest lag, Redis reachable) to the origin's `/metrics`. */
  registerMetrics(registry: Registry): void;
  close(): Promise<void>;
}

/**
 * Connects the origin to the fleet's Redis. `onReturn` is called each time Redis is reachable again, so that purges
 * the outbox holds for the stream go at once rather than after the outbox's backoff. `purgeMode` (`PURGE_MODE`) is
 * how a purge treats the shared tier's copies.
 */
export function originFleet(config: FleetConfig, logger: Logger, onReturn: () => void, purgeMode: PurgeMode): OriginFleet {
  const keys = fleetKeys(config.prefix);
  const redis = connectRedis({ url: config.redisUrl, options: config, logger, role: 'origin', onReady: onReturn });
  const writer = new PurgeStreamWriter({ redis, keys, options: config, logger, purgeMode });
  const fronts = (): Promise<FleetFront[]> => liveFronts(redis, keys, config.memberTtlMs);
  return {
    stream: {
      route: writer.route,
      deliver: async (batch, signal) => (await writer.deliver(batch, signal)).purged,
    },
    readinessCheck: redisReadinessCheck(config.redisUrl, () => redis.ping(), async () => `${(await fronts()).length} fronts alive`),
    registerMetrics(registry) {
      // One read of the membership serves the three gauges of a scrape.
      let scrape: Promise<FleetFront[] | undefined> | undefined;
      const read = () => (scrape ??= fronts().then((list) => list, () => undefined).finally(() => setTimeout(() => (scrape = undefined), 0)));
      new Gauge({
        name: 'sitestack_fleet_redis_up',
        help: 'Whether the fleet Redis answered the last scrape (1) or not (0)',
        registers: [registry],
        async collect() {
          this.set((await read()) === undefined ? 0 : 1);
        },
      });
      new Gauge({
        name: 'sitestack_fleet_fronts',
        help: 'Fronts alive: their heartbeat is within FLEET_MEMBER_TTL_MS',
        registers: [registry],
        async collect() {
          const list = await read();
          if (list !== undefined) this.set(list.length);
        },
      });
      new Gauge({
        name: 'sitestack_fleet_max_lag_entries',
        help: 'Purge stream entries the furthest-behind live front has yet to apply',
        registers: [registry],
        async collect() {
          const list = await read();
          if (list !== undefined) this.set(Math.max(0, ...list.map((front) => front.lag)));
        },
      });
    },
    async close() {
      redis.disconnect();
    },
  };
}
