import { Redis, type RedisOptions } from 'ioredis';
import { retryDelayMs } from '../backoff.js';
import { ERRORS } from '../error-codes.js';
import type { Logger } from '../log.js';
import type { ResolvedFleetOptions } from './options.js';
import { parseRedisAddress, redactedRedisUrl, type RedisAddress } from './redis-address.js';

/**
 * A primary found through Redis Sentinel: the client asks the sentinels for its address, and again whenever the
 * connection drops, so a failover moves every connection to the promoted replica.
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
    // A sentinel that names a replica as primary during a failover is asked again rather than believed.
    failoverDetector: true,
  };
}

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
export function connectRedis({ url, options, logger, role, blocking = false, onReady }: RedisConnectionOptions): Redis {
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
  const redis = address.kind === 'server' ? new Redis(url, settings) : new Redis({ ...settings, ...sentinelSettings(address, options) });
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

/** Resolves once `redis` is connected; rejects with Redis's last error when that takes longer than `timeoutMs`. */
export async function whenReady(redis: Redis, timeoutMs: number): Promise<void> {
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
