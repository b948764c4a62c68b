import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERRORS } from '../../error-codes.js';
import { isObject } from '../merge-patch.js';
import { parseInsightBatch } from './policy.js';
import { INSIGHT_PERIODS, type InsightPeriod, type InsightsStore } from './store.js';

export interface InsightsApiDeps {
  insights: InsightsStore;
  /** `PURGE_SECRET`, which the fronts send their counts with; unset: counts are refused (503). */
  secret: string | undefined;
  /** Whether an Authorization header is exactly `Bearer <token>` (the admin API's check). */
  authorized: (header: string | undefined, token: string) => boolean;
  /** The admin API's bearer check, for reading the report. */
  requireAdmin: (request: FastifyRequest) => Promise<void>;
  /** @default Date.now */
  now?: () => number;
}

/** Suggestions a front may ask for at most. */
export const POPULAR_MAX = 20;
/** How long a front, the edge and a browser may keep the popular queries. */
export const POPULAR_CACHE_CONTROL = 'public, max-age=300';

/** A flush of 1,000 entries each at its bounds, in JSON's longest spelling. */
const BATCH_BODY_LIMIT = 4 * 1024 * 1024;

/** `days=7` or `days=30` (the default); anything else is refused naming the choices. */
export function parsePeriod(query: unknown): InsightPeriod {
  const value = isObject(query) ? query.days : undefined;
  if (value === undefined || value === '') return 30;
  const days = INSIGHT_PERIODS.find((period) => String(period) === value);
  if (days === undefined) throw ERRORS.INVALID_INPUT('days', `must be ${INSIGHT_PERIODS.join(' or ')}`);
  return days;
}

/**
 * `POST /api/v1/search-insights` (the fronts' flushes, with PURGE_SECRET), `GET /api/v1/search-insights` (the report,
 * with the admin token) and `GET /api/v1/search-insights/popular` (public: what the empty search box suggests).
 */
export function registerInsightsApi(app: FastifyInstance, deps: InsightsApiDeps): void {
  const { insights } = deps;
  const now = deps.now ?? Date.now;

  app.post('/api/v1/search-insights', {
    bodyLimit: BATCH_BODY_LIMIT,
    onRequest: async (request) => {
      if (deps.secret === undefined) throw ERRORS.INSIGHTS_DISABLED();
      const header = request.headers.authorization;
      if (header === undefined) throw ERRORS.UNAUTHORIZED('search insights', 'PURGE_SECRET');
      if (!deps.authorized(header, deps.secret)) throw ERRORS.FORBIDDEN('PURGE_SECRET');
    },
  }, async (request) => ({ kept: insights.ingest(parseInsightBatch(request.body), now()) }));

  app.get('/api/v1/search-insights', { onRequest: deps.requireAdmin }, async (request) => {
    const unknown = Object.keys(isObject(request.query) ? request.query : {}).filter((name) => name !== 'days');
    if (unknown.length > 0) throw ERRORS.INVALID_INPUT('query', 'takes days (7 or 30) only');
    return insights.report(parsePeriod(request.query), now());
  });

  app.get('/api/v1/search-insights/popular', async (request, reply) => {
    const value = isObject(request.query) ? request.query.limit : undefined;
    const limit = value === undefined ? 8 : typeof value === 'string' && /^[1-9]\d?$/.test(value) && Number(value) <= POPULAR_MAX ? Number(value) : 0;
    if (limit === 0) throw ERRORS.INVALID_LIMIT('limit', `must be a whole number from 1 to ${POPULAR_MAX}`);
    return reply.header('cache-control', POPULAR_CACHE_CONTROL).send({ queries: insights.popular(limit, now()) });
  });
}
