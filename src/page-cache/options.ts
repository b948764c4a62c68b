import type { IncomingMessage } from 'node:http';
import { ERRORS } from '../error-codes.js';
import type { AppError } from '../errors.js';
import { silentLogger, type Logger } from '../log.js';
import { positiveInteger } from '../positive-integer.js';

/** The built-in key policies of spec §4. */
/** The named cache-key policies (see key.ts). */
export const CACHE_KEY_NAMES = ['url', 'path', 'path+variant', 'search-query'] as const;
export type CacheKeyName = (typeof CACHE_KEY_NAMES)[number];

/** A custom key policy: the returned string is the cache key, used as is. */
export type CacheKeyFunction = (req: IncomingMessage) => string;

/** Options of {@link createPageCache}; every field is optional and defaults to {@link DEFAULTS}. */
export interface PageCacheOptions {
  /**
   * Maximum number of entries; storing one more evicts the least recently used (a hit refreshes recency).
   * @default 1000
   */
  maxEntries?: number;
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
   * How a purge accepted on the purge route also reaches the caches of other processes (front workers): it must purge
   * this cache through `purgeHere` and resolve with every key removed anywhere. Unset: the route purges this cache only.
   * @default undefined
   */
  distributePurge?: ((pathnames: string[], purgeHere: (pathnames: readonly string[]) => string[]) => Promise<string[]>) | undefined;
  /**
   * Where warnings and renderer errors are logged.
   * @default a silent logger
   */
  logger?: Logger;
}

export type ResolvedPageCacheOptions = Required<Omit<PageCacheOptions, 'maxBytes' | 'purgeSecret' | 'distributePurge'>> & {
  maxBytes: number | undefined;
  purgeSecret: string | undefined;
  distributePurge: PageCacheOptions['distributePurge'];
};

export const DEFAULTS = {
  maxEntries: 1000,
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
  maxPurgeBodyBytes: 1024 * 1024,
  maxPathnames: 1000,
  maxPathnameLength: 2048,
  distributePurge: undefined,
} as const satisfies Omit<ResolvedPageCacheOptions, 'logger'>;

function invalid(message: string): AppError {
  return ERRORS.PAGE_CACHE_OPTIONS_INVALID(message);
}

/** Fills every unset option from {@link DEFAULTS} and rejects values the cache cannot work with. */
export function resolveOptions(options: PageCacheOptions = {}): ResolvedPageCacheOptions {
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as PageCacheOptions;
  const resolved: ResolvedPageCacheOptions = { ...DEFAULTS, logger: silentLogger(), ...defined };
  positiveInteger('maxEntries', resolved.maxEntries, invalid);
  if (resolved.maxBytes !== undefined) positiveInteger('maxBytes', resolved.maxBytes, invalid);
  positiveInteger('maxPurgeBodyBytes', resolved.maxPurgeBodyBytes, invalid);
  positiveInteger('maxPathnames', resolved.maxPathnames, invalid);
  positiveInteger('maxPathnameLength', resolved.maxPathnameLength, invalid);
  if (typeof resolved.key !== 'function' && !(CACHE_KEY_NAMES as readonly string[]).includes(resolved.key)) {
    throw invalid(`expected key to be one of ${CACHE_KEY_NAMES.join(', ')} or a function, got '${String(resolved.key)}'`);
  }
  if (!resolved.purgePath.startsWith('/')) throw invalid(`expected purgePath to start with '/', got '${resolved.purgePath}'`);
  if (!resolved.dataRoutePrefix.startsWith('/')) {
    throw invalid(`expected dataRoutePrefix to start with '/', got '${resolved.dataRoutePrefix}'`);
  }
  if (resolved.purgeSecret === '') resolved.purgeSecret = undefined;
  return resolved;
}
