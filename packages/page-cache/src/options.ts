import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERRORS } from './errors.js';
import { EVICTIONS, type Eviction } from './eviction/index.js';
import { LIFETIME_MODES, type LifetimeMode } from './freshness.js';
import { SILENT_LOGGER, type Logger } from './log.js';
import type { SharedTier } from './shared-tier.js';

/** The built-in key policies of spec §4 (see key.ts). */
export const CACHE_KEY_NAMES = ['url', 'path', 'path+variant', 'search-query'] as const;
export type CacheKeyName = (typeof CACHE_KEY_NAMES)[number];

/** A custom key policy: the returned string is the cache key, used as is. */
export type CacheKeyFunction = (req: IncomingMessage) => string;

/** What a purge names: pathnames (spec §4 rule), surrogate keys (the `Surrogate-Key` words of stored responses), or both. */
export interface PurgeRequest {
  pathnames?: readonly string[] | undefined;
  keys?: readonly string[] | undefined;
}

/** How a purge treats the entries it matches. */
export const PURGE_MODES = ['delete', 'soft'] as const;
export type PurgeMode = (typeof PURGE_MODES)[number];

/** Options of {@link createPageCache}; every field is optional and defaults to {@link DEFAULTS}. */
export interface PageCacheOptions {
  /**
   * Maximum number of entries; storing one more evicts one, chosen by {@link eviction}.
   * @default 1000
   */
  maxEntries?: number;
  /**
   * Which entry goes when a bound is reached. `'lru'`: the least recently used (the spec's rule; a flood of one-off
   * URLs pushes out every popular page). `'s3-fifo'`: new entries wait in a small queue and only those asked for again
   * join the main one, so a scan passes through without touching it. `'w-tinylfu'`: an entry joins the main space only
   * if asked for more often than the one it would push out; the only one still hitting when a crawl loops over more
   * pages than the cache holds. docs/page-cache.md#eviction has the measurements.
   * @default 'lru'
   */
  eviction?: Eviction;
  /**
   * Maximum bytes held, counting each entry's body plus its header names and values. A response larger than this is
   * never stored. `undefined` means no byte bound.
   * @default undefined
   */
  maxBytes?: number | undefined;
  /**
   * Key policy: `'url'` (path plus query string as sent), `'path'` (query ignored), `'path+variant'` (path plus the
   * values of {@link variantCookie} and {@link variantHeader}), `'search-query'` (query kept only under `/search`),
   * or a function of the request.
   * @default 'url'
   */
  key?: CacheKeyName | CacheKeyFunction;
  /**
   * Cookie whose value is part of the key under the `'path+variant'` policy.
   * @default 'display-mode'
   */
  variantCookie?: string;
  /**
   * Request header whose value is part of the key under the `'path+variant'` policy.
   * @default 'accept-language'
   */
  variantHeader?: string;
  /**
   * Request paths starting with one of these are passed on untouched: no header added, nothing stored.
   * @default ['/_render/image', '/_render/static', '/search']
   */
  bypassPrefixes?: readonly string[];
  /**
   * Concurrent misses of one key render once; the other requests wait for that response.
   * @default true
   */
  singleFlight?: boolean;
  /**
   * Store responses that carry `Set-Cookie` (the spec's literal rule). Off because a stored cookie would hand one
   * visitor's session to the next.
   * @default false
   */
  storeSetCookie?: boolean;
  /**
   * Store responses whose `Cache-Control` contains `private` or `no-store` (the spec's literal rule).
   * @default false
   */
  storePrivate?: boolean;
  /**
   * Path of the purge route that {@link PageCache.handle} answers itself.
   * @default '/__purge__'
   */
  purgePath?: string;
  /**
   * Bearer secret of the purge route. Unset: every purge is refused with 403 and a warning is logged once.
   * @default undefined
   */
  purgeSecret?: string | undefined;
  /**
   * A purged pathname also removes keys that are that pathname plus a query string.
   * @default false
   */
  purgeQueryVariants?: boolean;
  /**
   * Prefix of the renderer's client-navigation data routes (spec: `/_render/data/`).
   * @default '/_render/data/'
   */
  dataRoutePrefix?: string;
  /**
   * Data routes name a locale after the build (`<prefix><build>/<locale>/<page>.json`, the renderer's); false for
   * Next.js's `/_next/data/<build>/<page>.json`. Either way a purge of `/` removes the home page's data route
   * (`…/index.json`), and a purge of any page its data route, whatever the build.
   * @default true
   */
  dataRouteLocale?: boolean;
  /**
   * Largest purge request body read; a larger one is answered 413.
   * @default 1048576
   */
  maxPurgeBodyBytes?: number;
  /**
   * Most pathnames accepted in one purge.
   * @default 1000
   */
  maxPathnames?: number;
  /**
   * Longest pathname accepted in a purge, in characters.
   * @default 2048
   */
  maxPathnameLength?: number;
  /**
   * Most surrogate keys accepted in one purge.
   * @default 1000
   */
  maxKeys?: number;
  /**
   * How a purge accepted on the purge route also reaches the caches of other processes (front workers): it must purge
   * this cache through `purgeHere` and resolve with every key purged anywhere. Unset: the route purges this cache only.
   * @default undefined
   */
  distributePurge?: ((request: PurgeRequest, purgeHere: (request: PurgeRequest) => string[]) => Promise<string[]>) | undefined;
  /**
   * `'delete'` removes what a purge matches (the spec's rule: the next reader waits for a render). `'soft'` marks it
   * stale instead: the next request is answered at once from the stale copy (`x-middleware-cache: stale`) while one
   * background render through {@link revalidate} replaces it; a failed or unstorable render drops it.
   * @default 'delete'
   */
  purgeMode?: PurgeMode;
  /**
   * Longest time, in ms from its purge, that a soft-purged copy is still served; after it the copy is dropped and the
   * next request renders.
   * @default 60000
   */
  staleMaxMs?: number;
  /**
   * The renderer, for soft purge's background renders: called with a copy of the reader's request (as a `GET`,
   * without conditional headers) and a response that is captured and stored but sent nowhere. Required with
   * `purgeMode: 'soft'`; unused otherwise.
   * @default undefined
   */
  revalidate?: ((req: IncomingMessage, res: ServerResponse) => unknown) | undefined;
  /**
   * A store every process of a fleet shares (see {@link SharedTier}), looked in on a GET miss before rendering: a copy
   * another process rendered is answered and kept in memory; otherwise one process of the fleet renders the page while
   * the others wait for its copy, at most {@link sharedWaitMs}. Hits never touch it. Used by single flight's leaders
   * (`singleFlight`), for responses that vary by nothing but `Accept-Encoding` and are fresh until purged.
   * @default undefined
   */
  sharedTier?: SharedTier | undefined;
  /**
   * How long, in ms, a miss waits for another process's render of its page before it renders itself.
   * @default 3000
   */
  sharedWaitMs?: number;
  /**
   * How often, in ms, a waiting miss looks in the shared tier again.
   * @default 25
   */
  sharedPollMs?: number;
  /**
   * Keep a brotli and a gzip encoding beside each stored text body of at least {@link compressMinBytes}, each made when
   * a client first asks for it; send each request the encoding its `Accept-Encoding` prefers (hits and renders); add
   * `Vary: Accept-Encoding` to every cacheable answer. Off: bodies are stored and sent as the renderer wrote them,
   * without `Vary` (ETags and 304s stay).
   * @default true
   */
  compress?: boolean;
  /**
   * Smallest body, in bytes, kept and sent compressed; below it an encoding saves less than it costs.
   * @default 1024
   */
  compressMinBytes?: number;
  /**
   * Brotli quality (0–11) of stored encodings and compressed renders. The default compresses HTML nearly as well as the
   * qualities above it in a fraction of their time; the highest is far too slow for a render a reader waits on.
   * @default 5
   */
  brotliQuality?: number;
  /**
   * gzip level (1–9) of stored encodings and compressed renders.
   * @default 6
   */
  gzipLevel?: number;
  /**
   * `'ignore'`: a stored response stays fresh until a purge removes it (or {@link defaultLifetimeMs}), whatever its
   * `Cache-Control` says about time (sitestack's front, whose renderer sends `public,max-age=86400` for browsers and
   * purges on every change). `'honour'`: it is fresh for its `s-maxage`, else `max-age`, else `Expires` less `Date`,
   * less its `Age` (else {@link defaultLifetimeMs}); `no-cache`, or stale at once without `stale-while-revalidate`,
   * is not stored; once expired it is a miss, except within `stale-while-revalidate` (answered stale while one
   * background render through {@link revalidate} replaces it) and `stale-if-error` (answers in place of a failed
   * render). For a cache in front of another application (`sitestack proxy`).
   * @default 'ignore'
   */
  lifetimes?: LifetimeMode;
  /**
   * Lifetime, in ms, of a response that states none (with `lifetimes: 'ignore'`, of every response); `undefined`:
   * until purged.
   * @default undefined
   */
  defaultLifetimeMs?: number | undefined;
  /**
   * For how long, in ms, after a held copy turned stale (expired or soft-purged) it answers in place of a failed render
   * (the renderer answered 5xx or threw) when its response gave no `stale-if-error`. 0: failures go through.
   * @default 0
   */
  staleIfErrorMs?: number;
  /**
   * Response headers that name the surrogate keys of a response, in lower case: `cache-tag` (Cloudflare) is read as a
   * comma-separated list, any other (`surrogate-key`, Fastly) as a space-separated one.
   * @default ['surrogate-key']
   */
  keyHeaders?: readonly string[];
  /**
   * Remove the {@link keyHeaders} from what readers get (misses and hits). Off by default: sitestack's edge hides
   * `Surrogate-Key` itself, and a cache in front of this one may purge by them.
   * @default false
   */
  hideKeyHeaders?: boolean;
  /**
   * Where warnings and renderer errors are logged: pino's `Logger` fits.
   * @default a logger that discards everything
   */
  logger?: Logger;
}

export type ResolvedPageCacheOptions = Required<Omit<PageCacheOptions, 'maxBytes' | 'purgeSecret' | 'distributePurge' | 'revalidate' | 'defaultLifetimeMs' | 'sharedTier'>> & {
  maxBytes: number | undefined;
  defaultLifetimeMs: number | undefined;
  purgeSecret: string | undefined;
  distributePurge: PageCacheOptions['distributePurge'];
  revalidate: PageCacheOptions['revalidate'];
  sharedTier: PageCacheOptions['sharedTier'];
};

export const DEFAULTS = {
  maxEntries: 1000,
  eviction: 'lru',
  maxBytes: undefined,
  key: 'url',
  variantCookie: 'display-mode',
  variantHeader: 'accept-language',
  bypassPrefixes: ['/_render/image', '/_render/static', '/search'],
  singleFlight: true,
  storeSetCookie: false,
  storePrivate: false,
  purgePath: '/__purge__',
  purgeSecret: undefined,
  purgeQueryVariants: false,
  dataRoutePrefix: '/_render/data/',
  dataRouteLocale: true,
  maxPurgeBodyBytes: 1024 * 1024,
  maxPathnames: 1000,
  maxPathnameLength: 2048,
  maxKeys: 1000,
  distributePurge: undefined,
  purgeMode: 'delete',
  staleMaxMs: 60_000,
  revalidate: undefined,
  sharedTier: undefined,
  sharedWaitMs: 3_000,
  sharedPollMs: 25,
  compress: true,
  compressMinBytes: 1024,
  brotliQuality: 5,
  gzipLevel: 6,
  lifetimes: 'ignore',
  defaultLifetimeMs: undefined,
  staleIfErrorMs: 0,
  keyHeaders: ['surrogate-key'],
  hideKeyHeaders: false,
} as const satisfies Omit<ResolvedPageCacheOptions, 'logger'>;

const invalid = ERRORS.PAGE_CACHE_OPTIONS_INVALID;

/** Throws the complaint naming the option unless `value` is a whole number of at least 1. */
function positiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) throw invalid(name, 'to be a positive integer', value);
}

/** A header name as HTTP writes one (RFC 9110 §5.1 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Checks the freshness options and lower-cases the key headers, in place. */
function resolveFreshness(resolved: ResolvedPageCacheOptions): void {
  if (!(LIFETIME_MODES as readonly string[]).includes(resolved.lifetimes)) {
    throw invalid('lifetimes', `to be one of ${LIFETIME_MODES.join(', ')}`, String(resolved.lifetimes));
  }
  if (resolved.defaultLifetimeMs !== undefined) positiveInteger('defaultLifetimeMs', resolved.defaultLifetimeMs);
  if (!Number.isSafeInteger(resolved.staleIfErrorMs) || resolved.staleIfErrorMs < 0) {
    throw invalid('staleIfErrorMs', 'to be a whole number of ms, 0 or more', resolved.staleIfErrorMs);
  }
  const names: unknown = resolved.keyHeaders;
  if (!Array.isArray(names) || names.some((name) => typeof name !== 'string' || !HEADER_NAME.test(name))) {
    throw invalid('keyHeaders', 'to be a list of header names', String(names));
  }
  resolved.keyHeaders = [...new Set((names as string[]).map((name) => name.toLowerCase()))];
}

/** Fills every unset option from {@link DEFAULTS} and rejects values the cache cannot work with. */
export function resolveOptions(options: PageCacheOptions = {}): ResolvedPageCacheOptions {
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as PageCacheOptions;
  const resolved: ResolvedPageCacheOptions = { ...DEFAULTS, logger: SILENT_LOGGER, ...defined };
  positiveInteger('maxEntries', resolved.maxEntries);
  if (resolved.maxBytes !== undefined) positiveInteger('maxBytes', resolved.maxBytes);
  if (!(EVICTIONS as readonly string[]).includes(resolved.eviction)) {
    throw invalid('eviction', `to be one of ${EVICTIONS.join(', ')}`, String(resolved.eviction));
  }
  positiveInteger('maxPurgeBodyBytes', resolved.maxPurgeBodyBytes);
  positiveInteger('maxPathnames', resolved.maxPathnames);
  positiveInteger('maxPathnameLength', resolved.maxPathnameLength);
  positiveInteger('maxKeys', resolved.maxKeys);
  positiveInteger('staleMaxMs', resolved.staleMaxMs);
  positiveInteger('sharedWaitMs', resolved.sharedWaitMs);
  positiveInteger('sharedPollMs', resolved.sharedPollMs);
  if (!(PURGE_MODES as readonly string[]).includes(resolved.purgeMode)) {
    throw invalid('purgeMode', `to be one of ${PURGE_MODES.join(', ')}`, String(resolved.purgeMode));
  }
  if (resolved.purgeMode === 'soft' && typeof resolved.revalidate !== 'function') {
    throw ERRORS.PAGE_CACHE_OPTION_MISSING("purgeMode 'soft'", 'revalidate', 'the renderer that replaces a stale entry in the background');
  }
  if (typeof resolved.key !== 'function' && !(CACHE_KEY_NAMES as readonly string[]).includes(resolved.key)) {
    throw invalid('key', `to be one of ${CACHE_KEY_NAMES.join(', ')} or a function`, String(resolved.key));
  }
  if (!resolved.purgePath.startsWith('/')) throw invalid('purgePath', "to start with '/'", resolved.purgePath);
  if (!resolved.dataRoutePrefix.startsWith('/')) {
    throw invalid('dataRoutePrefix', "to start with '/'", resolved.dataRoutePrefix);
  }
  positiveInteger('compressMinBytes', resolved.compressMinBytes);
  if (!Number.isInteger(resolved.brotliQuality) || resolved.brotliQuality < 0 || resolved.brotliQuality > 11) {
    throw invalid('brotliQuality', 'to be an integer from 0 to 11', String(resolved.brotliQuality));
  }
  if (!Number.isInteger(resolved.gzipLevel) || resolved.gzipLevel < 1 || resolved.gzipLevel > 9) {
    throw invalid('gzipLevel', 'to be an integer from 1 to 9', String(resolved.gzipLevel));
  }
  resolveFreshness(resolved);
  if (resolved.purgeSecret === '') resolved.purgeSecret = undefined;
  return resolved;
}
