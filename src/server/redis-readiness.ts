import { ERRORS } from '../error-codes.js';
import { redactedRedisUrl } from '../fleet/index.js';
import type { ReadinessCheck } from './readiness.js';

/**
 * `/readyz`'s `redis` check of a fleet member: never critical, since pages are answered and purges kept while Redis is
 * away. Fails with Redis's address (password hidden) and why; passes with what `detail` tells.
 */
export function redisReadinessCheck(redisUrl: string, ping: () => Promise<unknown>, detail: () => Promise<string> | string): ReadinessCheck {
  return {
    name: 'redis',
    critical: false,
    async run() {
      try {
        await ping();
      } catch (error) {
        throw ERRORS.REDIS_UNREACHABLE(redactedRedisUrl(redisUrl), error instanceof Error ? error.message : String(error));
      }
      return detail();
    },
  };
}
