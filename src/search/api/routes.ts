import { performance } from 'node:perf_hooks';
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync } from 'fastify';
import { ERRORS } from '../../error-codes.js';
import type { Logger } from '../../log.js';
import { RateLimitLog } from '../../log-bounds.js';
import type { SearchEngine, SearchHit, Suggestion, TotalHits } from '../engines/types.js';
import { clientAddress, DEFAULT_TRUSTED_PROXIES, trustedProxyCheck } from '../../http/index.js';
import { DEFAULT_INDEX_PREFIX } from '../indexing/index-names.js';
import { allowCrossOriginReads, searchBoxRoutes } from './search-box/index.js';
import { SEARCH_CACHE_CONTROL, SEARCH_PARAM_LIMITS, autocompleteCacheControl, parseAutocompleteParams, parseSearchParams } from './params.js';

/** What the search routes need. */
export interface SearchRoutesOptions {
  engine: SearchEngine;
  /** The alias (or index) searched: the indexer's prefix. @default 'site_docs' */
  index?: string;
  /** Searches per client address and window (`SEARCH_RATE_LIMIT`). @default { max: 25, windowMs: 60_000 } */
  rateLimit?: { max: number; windowMs: number };
  /**
   * Addresses and CIDR subnets of proxies whose `X-Forwarded-For` is believed (`TRUSTED_PROXIES`); `loopback` stands
   * for 127.0.0.0/8 and ::1. Requests from any other peer are limited by the peer's own address.
   * @default ['loopback']
   */
  trustedProxies?: readonly string[];
  /** Suggestions returned at most. @default 3 */
  suggestions?: number;
  logger: Logger;
}

export const SEARCH_ROUTES_DEFAULTS = {
  index: DEFAULT_INDEX_PREFIX,
  rateLimit: { max: 25, windowMs: 60_000 },
  trustedProxies: DEFAULT_TRUSTED_PROXIES,
  suggestions: 3,
} as const;

/** One document of the search answer (DESIGN §7). */
export interface SearchDocument {
  url: string;
  /** The text-match score, without popularity. */
  score: number;
  title: string;
  locale: string;
  slug: string;
  popularity: number;
  summary: string;
  highlight: { title: string[]; body: string[] };
}

export interface SearchResponse {
  documents: SearchDocument[];
  metadata: {
    took_ms: number;
    total: TotalHits;
    size: number;
    page: number;
    /**
     * Present when a word of `q` that the index does not hold was matched by its spelling neighbours instead: the
     * text searched. The documents are that text's; `exact=1` searches `q` as typed.
     */
    corrected?: string;
  };
  /** "Did you mean" alternatives; always empty when `metadata.corrected` is present (the answer already is one). */
  suggestions: Suggestion[];
}

export interface AutocompleteResponse {
  q: string;
  matches: { title: string; url: string; locale: string }[];
}

function toDocument(hit: SearchHit): SearchDocument {
  return {
    url: hit.url,
    score: hit.score,
    title: hit.title,
    locale: hit.locale,
    slug: hit.slug,
    popularity: hit.popularity,
    summary: hit.summary,
    highlight: hit.highlight ?? { title: [], body: [] },
  };
}

/**
 * `GET /api/v1/search` (rate-limited per client address) and `GET /api/search/autocomplete`, as a fastify plugin for
 * the front's API app. Every error (invalid parameters, an index not built yet, a broken engine) is thrown to the
 * app's error mapper, which answers the one error body with each invalid field's problems as `errors`.
 */
export function searchRoutes(options: SearchRoutesOptions): FastifyPluginAsync {
  const index = options.index ?? SEARCH_ROUTES_DEFAULTS.index;
  const limit = options.rateLimit ?? SEARCH_ROUTES_DEFAULTS.rateLimit;
  const trusted = trustedProxyCheck(options.trustedProxies ?? SEARCH_ROUTES_DEFAULTS.trustedProxies);
  const suggestionCount = options.suggestions ?? SEARCH_ROUTES_DEFAULTS.suggestions;
  const { engine, logger } = options;

  return async (app) => {
    const refused = new RateLimitLog({ logger, message: 'search rate limit exceeded', windowMs: limit.windowMs });
    app.addHook('onClose', async () => refused.flush());
    await app.register(rateLimit, {
      global: false,
      enableDraftSpec: true,
      // A search answer is shared (the edge keeps it a second), so it must not tell one client's count to the next: the
      // rate-limit headers go only on the 429 (never stored), with its Retry-After.
      addHeadersOnExceeding: { 'ratelimit-limit': false, 'ratelimit-remaining': false, 'ratelimit-reset': false },
      keyGenerator: (request) => clientAddress(request.socket.remoteAddress, request.headers['x-forwarded-for'], trusted),
      errorResponseBuilder: (_request, context) =>
        ERRORS.RATE_LIMITED(`searches: at most ${context.max} per ${Math.round(limit.windowMs / 1000)} s`, context.after),
      onExceeded: (request, key) => refused.count(key, request.url),
    });
    app.addHook('onSend', allowCrossOriginReads);
    await app.register(searchBoxRoutes());

    app.get('/api/v1/search', { config: { rateLimit: { max: limit.max, timeWindow: limit.windowMs } } }, async (request, reply) => {
      const started = performance.now();
      const parsed = parseSearchParams(request.query);
      if (!parsed.ok) throw ERRORS.INVALID_QUERY.with({ fields: parsed.body.errors }, parsed.body.errors);
      const { q, locales, sort, size, page, slugPrefixes, exact } = parsed.value;
      // The total is exact as far as a client can page (every page up to the last one it may ask for), then `gte`.
      const totalUpTo = size * SEARCH_PARAM_LIMITS.maxPage;
      const result = await engine.search({
        index, text: q, locales, slugPrefixes, sort, size, from: (page - 1) * size, highlight: true, totalUpTo, corrections: !exact,
      });
      const corrected = typeof result.corrected === 'string' && result.corrected !== '' ? result.corrected : undefined;
      // A corrected answer already is the alternative "did you mean" would offer: suggestions are for a query that
      // matches (or fails) as typed.
      const suggestions = corrected !== undefined
        ? []
        : await engine.suggest({ index, text: q, locales, slugPrefixes, size: suggestionCount, knownTotal: result.total.value });
      const metadata: SearchResponse['metadata'] = { took_ms: Math.round(performance.now() - started), total: result.total, size, page };
      if (corrected !== undefined) metadata.corrected = corrected;
      const body: SearchResponse = { documents: result.documents.map(toDocument), metadata, suggestions };
      return reply.header('cache-control', SEARCH_CACHE_CONTROL).send(body);
    });

    app.get('/api/search/autocomplete', async (request, reply) => {
      const parsed = parseAutocompleteParams(request.query);
      if (!parsed.ok) throw ERRORS.INVALID_QUERY.with({ fields: parsed.body.errors }, parsed.body.errors);
      const { q, locales } = parsed.value;
      const matches = await engine.autocomplete({ index, prefix: q, locales, size: 10 });
      const cacheControl = autocompleteCacheControl(q);
      if (cacheControl !== undefined) reply.header('cache-control', cacheControl);
      return reply.send({ q, matches: matches.map(({ title, url, locale }) => ({ title, url, locale })) } satisfies AutocompleteResponse);
    });
  };
}
