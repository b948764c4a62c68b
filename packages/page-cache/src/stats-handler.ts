import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerMatches, bearerToken } from './auth.js';
import { ERRORS, errorBody, type PageCacheError } from './errors.js';
import { sendJson } from './http-answers.js';
import type { PageCache } from './page-cache.js';

export interface StatsHandlerOptions {
  /** Bearer secret; unset refuses every request with 403. */
  secret: string | undefined;
}

/** The stats are JSON, so their refusals are the one error body of every JSON API. */
function sendError(res: ServerResponse, error: PageCacheError, headers: Record<string, string> = {}): void {
  sendJson(res, error.status, errorBody(error), headers);
}

/**
 * A handler for `GET /__cache__/stats`: the cache's {@link PageCache.stats} as JSON, behind the same bearer auth as
 * the purge route (no bearer credentials → 401, wrong token or no secret → 403). Other methods → 405.
 */
export function createStatsHandler(cache: Pick<PageCache, 'stats'>, options: StatsHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const secret = options.secret === '' ? undefined : options.secret;
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, ERRORS.METHOD_NOT_ALLOWED('the cache stats', 'GET or HEAD'), { allow: 'GET, HEAD' });
      return;
    }
    const authorization = req.headers.authorization;
    if (secret !== undefined && bearerToken(authorization) === undefined) {
      sendError(res, ERRORS.UNAUTHORIZED('cache stats', 'PURGE_SECRET'), { 'www-authenticate': 'Bearer' });
      return;
    }
    if (!bearerMatches(authorization, secret)) {
      sendError(res, ERRORS.FORBIDDEN('cache stats'));
      return;
    }
    sendJson(res, 200, cache.stats());
  };
}
