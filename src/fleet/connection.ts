import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { retryDelayMs } from '../backoff.js';
import { ERRORS } from '../error-codes.js';
import type { Logger } from '../log.js';
import type { ResolvedFleetOptions } from './options.js';
import { parseRedisAddress, redactedRedisUrl, type RedisAddress } from './redis-address.js';

/**
 * A primary found through Redis Sentinel: the client asks the sentinels for its address, and again whenever the
 * connection drops or the server it reached is a primary no longer, so a failover moves every connection to the
 * promoted replica.
 */
function sentinelSettings(address: Extract<RedisAddress, { kind: 'sentinel' }>, options: ResolvedFleetOptions): RedisOptions {
  return {
    sentinels: address.sentinels,
    name: address.primaryName,
    role: 'master',
    db: address.db,
    ...(address.username === undefined ? {} : { username: address.username }),
    ...(address.password === undefined ? {} : { password: address.password }),
    ...(address.tls ? { tls: {}, enableTLSForSentinelMode: true } : {}),
    sentinelCommandTimeout: options.commandTimeoutMs,
    sentinelRetryStrategy: (attempts) => retryDelayMs(attempts, options.reconnect, Math.random()),
    // A primary demoted while the connection stayed up answers writes READONLY: reconnecting asks the sentinels again.
    // (ioredis's failoverDetector would also notice, but its disconnect can race a reconnection under way and end the
    // connection for good.)
    reconnectOnError: (error) => error.message.includes('READONLY'),
  };
}

/**
 * A connection to the fleet's Redis: one server or a Sentinel's primary (`Redis`), or a Redis Cluster (`Cluster`).
 * Every key of a fleet shares one hash tag, so each script and multi-key command reaches one node either way.
 */
export type RedisClient = Redis | Cluster;

export interface RedisConnectionOptions {
  url: string;
  options: ResolvedFleetOptions;
  logger: Logger;
  /** Names the connection in logs (`origin`, `front reader`, …). */
  role: string;
  /** For a connection that blocks (XREAD BLOCK): no command timeout, the blocking read's own bound instead. */
  blocking?: boolean;
  /** Called each time the connection is ready (again). */
  onReady?: () => void;
}

/**
 * A Redis connection that fails fast while Redis is away (no offline queue, one try per command, bounded command
 * times), reconnects with capped backoff and jitter, and logs an outage once when it starts and once when it ends.
 */
export function connectRedis({ url, options, logger, role, blocking = false, onReady }: RedisConnectionOptions): RedisClient {
  const address = parseRedisAddress(url);
  if ('problem' in address) throw ERRORS.CONFIG_INVALID('REDIS_URL', address.problem, redactedRedisUrl(url));
  const settings: RedisOptions = {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: options.commandTimeoutMs,
    ...(blocking ? { blockingTimeout: options.blockMs + options.commandTimeoutMs } : { commandTimeout: options.commandTimeoutMs }),
    retryStrategy: (attempts) => retryDelayMs(attempts, options.reconnect, Math.random()),
    connectionName: `sitestack-${role.replace(/[^a-z]+/g, '-')}`,
  };
  const redis = address.kind === 'server' ? new Redis(url, settings) : address.kind === 'sentinel' ? new Redis({ ...settings, ...sentinelSettings(address, options) }) : connectCluster(address, settings, options);
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ redis: redactedRedisUrl(url), role, err: error.message }, 'Redis unreachable; retrying with backoff');
  });
  redis.on('ready', () => {
    if (down) logger.info({ redis: redactedRedisUrl(url), role }, 'Redis reachable again');
    down = false;
    onReady?.();
  });
  return redis;
}

/**
 * A Redis Cluster: the slot map is learned from the nodes given and refreshed as slots move (MOVED, ASK, a failover),
 * each node connection with the same bounds as a single server's.
 */
function connectCluster(address: Extract<RedisAddress, { kind: 'cluster' }>, settings: RedisOptions, options: ResolvedFleetOptions): Cluster {
  const { retryStrategy, enableOfflineQueue, ...nodeSettings } = settings;
  return new Cluster(address.nodes, {
    lazyConnect: false,
    enableOfflineQueue,
    clusterRetryStrategy: (attempts) => retryStrategy?.(attempts) ?? null,
    // The ready check (CLUSTER INFO) goes to a node whose connection may still be opening, which fails at once without
    // an offline queue and starts the whole connection over; the slot map having been read is ready enough.
    enableReadyCheck: false,
    slotsRefreshTimeout: options.commandTimeoutMs,
    redisOptions: {
      ...nodeSettings,
      ...(address.username === undefined ? {} : { username: address.username }),
      ...(address.password === undefined ? {} : { password: address.password }),
      ...(address.tls ? { tls: {} } : {}),
    },
  });
}

/** Resolves once `redis` is connected; rejects with Redis's last error when that takes longer than `timeoutMs`. */
export async function whenReady(redis: RedisClient, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return;
  let lastError: Error | undefined;
  const onError = (error: Error) => (lastError = error);
  redis.on('error', onError);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(lastError ?? ERRORS.REDIS_NOT_READY(timeoutMs)), timeoutMs);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  } finally {
    redis.off('error', onError);
  }
}
