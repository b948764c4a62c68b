/**
 * Search insights on the front: the search page's client reports each search intent (the last query of a burst, with
 * its result count and the result opened, if any) to `POST /api/v1/search/insights`; the front counts them in memory,
 * per UTC day and normalised query, and flushes the counts to the origin every few seconds. Nothing of the reader is
 * kept: no cookie is read or set, the address only feeds the in-memory rate limit, and a report carries no id.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync } from 'fastify';
import { ERRORS } from '../../error-codes.js';
import type { Logger } from '../../log.js';
import { clientAddress, DEFAULT_TRUSTED_PROXIES, discardBody, readBoundedText, trustedProxyCheck } from '../../http/index.js';
import { INSIGHT_LIMITS, normaliseQuery, readableQuery, utcDay, validOpenedPath, type InsightEntry } from '../../origin/insights/index.js';

export interface SearchInsightsOptions {
  /** The origin's base URL (`API_BASE`): counts go to its `/api/v1/search-insights`. */
  originUrl: string;
  /** `PURGE_SECRET`, which the origin takes counts with. Unset: reports are answered but not counted. */
  secret: string | undefined;
  logger: Logger;
  /** How often counts go to the origin. @default 5000 */
  flushMs?: number;
  /** Day-and-query counters held between flushes; reports of further new queries wait for the next flush. @default 1000 */
  maxQueries?: number;
  /** How long the popular queries read from the origin are kept and may be kept by caches. @default 300000 (5 min) */
  popularTtlMs?: number;
  /** Reports per client address and window. @default { max: 30, windowMs: 60000 } */
  rateLimit?: { max: number; windowMs: number };
  /** As the search routes' (`TRUSTED_PROXIES`). @default ['loopback'] */
  trustedProxies?: readonly string[];
  /** Each request to the origin. @default 5000 */
  timeoutMs?: number;
  /** @default Date.now */
  now?: () => number;
}

export const SEARCH_INSIGHTS_DEFAULTS = {
  flushMs: 5_000,
  maxQueries: 1_000,
  popularTtlMs: 300_000,
  rateLimit: { max: 30, windowMs: 60_000 },
  trustedProxies: DEFAULT_TRUSTED_PROXIES,
  timeoutMs: 5_000,
} as const;

/** One search intent as the page's client reports it. */
export interface SearchIntent {
  q: string;
  /** Results of its search. */
  results: number;
  /** The result the reader opened after it (a site path), or null. */
  opened: string | null;
  /** Already reported without a click: counts only the click. */
  repeat: boolean;
}

const REPORT_BODY_LIMIT = 4 * 1024;
const POPULAR_ANSWER_MAX_BYTES = 64 * 1024;
const POPULAR_SHOWN = 8;

/** Reads a report body (JSON, sent as text/plain by `navigator.sendBeacon` or as application/json). */
export function parseSearchIntent(body: unknown): SearchIntent {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      throw ERRORS.INVALID_INPUT('body', 'must be JSON');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw ERRORS.INVALID_INPUT('body', 'must be an object with q and results');
  const { q, results, opened, repeat } = value as Record<string, unknown>;
  if (typeof q !== 'string' || q.length > 4 * INSIGHT_LIMITS.queryLength || !readableQuery(q) || normaliseQuery(q) === '') {
    throw ERRORS.INVALID_INPUT('q', 'must be a query of 1 or more characters, without control characters');
  }
  if (typeof results !== 'number' || !Number.isSafeInteger(results) || results < 0 || results > INSIGHT_LIMITS.maxCount) {
    throw ERRORS.INVALID_INPUT('results', 'must be a whole number of results');
  }
  if (opened !== undefined && opened !== null && !validOpenedPath(opened)) throw ERRORS.INVALID_INPUT('opened', 'must be a site path or null');
  if (repeat !== undefined && typeof repeat !== 'boolean') throw ERRORS.INVALID_INPUT('repeat', 'must be true or false');
  return { q, results, opened: (opened as string | null | undefined) ?? null, repeat: repeat === true };
}

/** Counts per day and query since the last flush, bounded in how many it holds. */
export class InsightsCounter {
  private entries = new Map<string, InsightEntry>();
  /** Reports not counted since the last flush because the counters were full. */
  overflow = 0;

  constructor(private readonly maxQueries: number) {}

  get size(): number {
    return this.entries.size;
  }

  record(intent: SearchIntent, nowMs: number): void {
    const q = normaliseQuery(intent.q);
    const day = utcDay(nowMs);
    const key = `${day}\n${q}`;
    let entry = this.entries.get(key);
    if (entry === undefined) {
      if (this.entries.size >= this.maxQueries) {
        this.overflow++;
        return;
      }
      entry = { day, q, searches: 0, no_results: 0, clicks: 0, results: 0, opens: {} };
      this.entries.set(key, entry);
    }
    // The origin takes no count above maxCount: a counter there stops rather than spoil the flush.
    if (entry.searches >= INSIGHT_LIMITS.maxCount) return;
    if (!intent.repeat) {
      entry.searches++;
      if (intent.results === 0) entry.no_results++;
      entry.results = intent.results;
    }
    if (intent.opened !== null) {
      entry.clicks++;
      const known = intent.opened in entry.opens;
      if (known || Object.keys(entry.opens).length < INSIGHT_LIMITS.opensPerQuery) entry.opens[intent.opened] = (entry.opens[intent.opened] ?? 0) + 1;
    }
  }

  /** Everything counted so far, leaving the counters empty. */
  take(): InsightEntry[] {
    const taken = [...this.entries.values()];
    this.entries = new Map();
    this.overflow = 0;
    return taken;
  }
}

/**
 * `POST /api/v1/search/insights` (a report; 204) and `GET /api/v1/search/popular` (the queries the empty search box
 * offers, read from the origin and kept for popularTtlMs), with the flush to the origin on a timer and at close.
 */
export function searchInsightsRoutes(options: SearchInsightsOptions): FastifyPluginAsync {
  const now = options.now ?? Date.now;
  const flushMs = options.flushMs ?? SEARCH_INSIGHTS_DEFAULTS.flushMs;
  const limit = options.rateLimit ?? SEARCH_INSIGHTS_DEFAULTS.rateLimit;
  const timeoutMs = options.timeoutMs ?? SEARCH_INSIGHTS_DEFAULTS.timeoutMs;
  const popularTtlMs = options.popularTtlMs ?? SEARCH_INSIGHTS_DEFAULTS.popularTtlMs;
  const trusted = trustedProxyCheck(options.trustedProxies ?? SEARCH_INSIGHTS_DEFAULTS.trustedProxies);
  const counter = new InsightsCounter(options.maxQueries ?? SEARCH_INSIGHTS_DEFAULTS.maxQueries);
  const { logger, secret } = options;
  const base = options.originUrl.replace(/\/+$/, '');

  let flushing: Promise<void> | undefined;
  const flush = async (): Promise<void> => {
    if (secret === undefined || counter.size === 0) return;
    const overflow = counter.overflow;
    const entries = counter.take();
    if (overflow > 0) logger.warn({ reports: overflow, held: entries.length }, 'search insight reports not counted: the counters were full until this flush');
    for (let at = 0; at < entries.length; at += INSIGHT_LIMITS.entriesPerBatch) await send(entries.slice(at, at + INSIGHT_LIMITS.entriesPerBatch));
  };
  const send = async (entries: InsightEntry[]): Promise<void> => {
    try {
      const response = await fetch(`${base}/api/v1/search-insights`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ entries }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await discardBody(response);
      if (!response.ok) logger.warn({ status: response.status, entries: entries.length }, 'the origin refused search insights; these counts are lost');
    } catch (error) {
      // Counts are a sample of readers' interest, not records: a flush the origin misses is dropped, not retried, so
      // an origin down for long cannot make a front hold more than one flush's worth.
      logger.warn({ err: error, entries: entries.length }, 'search insights could not reach the origin; these counts are lost');
    }
  };
  const flushOnce = () => (flushing ??= flush().finally(() => (flushing = undefined)));

  let popular: { queries: string[]; until: number } | undefined;
  let reading: Promise<string[]> | undefined;
  const readPopular = async (): Promise<string[]> => {
    try {
      const response = await fetch(`${base}/api/v1/search-insights/popular?limit=${POPULAR_SHOWN}`, { signal: AbortSignal.timeout(timeoutMs) });
      const text = await readBoundedText(response, POPULAR_ANSWER_MAX_BYTES, 'popular search queries');
      const queries = response.ok ? (JSON.parse(text) as { queries?: unknown }).queries : undefined;
      const valid = Array.isArray(queries) ? queries.filter((query): query is string => typeof query === 'string').slice(0, POPULAR_SHOWN) : [];
      popular = { queries: valid, until: now() + popularTtlMs };
      return valid;
    } catch (error) {
      logger.warn({ err: error }, 'popular search queries could not be read from the origin');
      // Tried again after a tenth of the lifetime, keeping what was known.
      popular = { queries: popular?.queries ?? [], until: now() + popularTtlMs / 10 };
      return popular.queries;
    }
  };

  return async (app) => {
    if (secret === undefined) logger.warn('PURGE_SECRET is unset: search insight reports are answered but not counted');
    const timer = setInterval(() => void flushOnce(), flushMs);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await flushing;
      await flushOnce();
    });
    await app.register(rateLimit, {
      global: false,
      keyGenerator: (request) => clientAddress(request.socket.remoteAddress, request.headers['x-forwarded-for'], trusted),
      errorResponseBuilder: (_request, context) => ERRORS.RATE_LIMITED('search reports from this address', context.after),
    });

    app.post('/api/v1/search/insights', { bodyLimit: REPORT_BODY_LIMIT, config: { rateLimit: { max: limit.max, timeWindow: limit.windowMs } } }, async (request, reply) => {
      const intent = parseSearchIntent(request.body);
      if (secret !== undefined) counter.record(intent, now());
      return reply.status(204).header('cache-control', 'no-store').send();
    });

    app.get('/api/v1/search/popular', async (_request, reply) => {
      const fresh = popular !== undefined && popular.until > now();
      const queries = fresh && popular !== undefined ? popular.queries : await (reading ??= readPopular().finally(() => (reading = undefined)));
      const maxAge = Math.max(1, Math.round(((popular?.until ?? now()) - now()) / 1000));
      return reply.header('cache-control', `public, max-age=${maxAge}`).send({ queries });
    });
  };
}
