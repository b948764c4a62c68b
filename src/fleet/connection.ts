import { Redis } from 'ioredis';
import { retryDelayMs } from '../backoff.js';
import { ERRORS } from '../error-codes.js';
import type { Logger } from '../log.js';
import type { ResolvedFleetOptions } from './options.js';

/** `redis://user:secret@host` as `redis://user:***@host`: a URL fit for logs and error messages. */
export function redactedRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
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
  const redis = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: options.commandTimeoutMs,
    ...(blocking ? { blockingTimeout: options.blockMs + options.commandTimeoutMs } : { commandTimeout: options.commandTimeoutMs }),
    retryStrategy: (attempts) => retryDelayMs(attempts, options.reconnect, Math.random()),
    connectionName: `sitestack-${role.replace(/[^a-z]+/g, '-')}`,
  });
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
