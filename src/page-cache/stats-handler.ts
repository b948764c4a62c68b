import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerMatches, bearerToken } from './auth.js';
import { sendJson, sendText } from './http-answers.js';
import type { PageCache } from './page-cache.js';

export interface StatsHandlerOptions {
  /** Bearer secret; unset refuses every request with 403. */
  secret: string | undefined;
}

/**
 * A handler for `GET /__cache__/stats`: the cache's {@link PageCache.stats} as JSON, behind the same bearer auth as
 * the purge route (no bearer credentials → 401, wrong token or no secret → 403). Other methods → 405.
 */
export function createStatsHandler(cache: Pick<PageCache, 'stats'>, options: StatsHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const secret = options.secret === '' ? undefined : options.secret;
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendText(res, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
      return;
    }
    const authorization = req.headers.authorization;
    if (secret !== undefined && bearerToken(authorization) === undefined) {
      sendText(res, 401, 'Unauthorized', { 'www-authenticate': 'Bearer' });
      return;
    }
    if (!bearerMatches(authorization, secret)) {
      sendText(res, 403, 'Forbidden');
      return;
    }
    sendJson(res, 200, cache.stats());
  };
}
