import type { IncomingMessage } from 'node:http';
import { keyForTarget, type KeyPolicyOptions } from './key.js';
import { logUrl, type Logger } from './log.js';
import type { CacheKeyFunction, CacheKeyName } from './options.js';

/**
 * The cache key of a request under the `key` option: a built-in policy applied to its origin-form `target`, or the
 * custom function's string. A custom function that throws or returns a non-string is logged, and the request is not
 * cached (`undefined`).
 */
export function requestKeyOf(policy: CacheKeyName | CacheKeyFunction, options: KeyPolicyOptions, logger: Logger): (req: IncomingMessage, target: string) => string | undefined {
  if (typeof policy !== 'function') return (req, target) => keyForTarget(policy, target, req.headers, options);
  return (req) => {
    try {
      const key = policy(req);
      if (typeof key === 'string') return key;
      logger.error({ url: logUrl(req.url) }, 'page cache: the key function returned a non-string; request not cached');
    } catch (error) {
      logger.error({ err: error, url: logUrl(req.url) }, 'page cache: the key function threw; request not cached');
    }
    return undefined;
  };
}
