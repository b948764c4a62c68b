export { createPageCache, type PageCache, type NextFunction } from './page-cache.js';
export {
  CACHE_KEY_NAMES,
  DEFAULTS,
  PURGE_MODES,
  type PageCacheOptions,
  type CacheKeyName,
  type CacheKeyFunction,
  type PurgeMode,
  type PurgeRequest,
} from './options.js';
export type { PageCacheStats } from './store.js';
export type { SharedCopy, SharedLookup, SharedTicket, SharedTier } from './shared-tier.js';
// The eviction policies on their own, for replaying request traces through each (as the bench does).
export {
  EVICTIONS,
  POLICY_NAMES as EVICTION_POLICY_NAMES,
  createBoundedTable,
  createEvictionPolicy,
  type BoundedTable,
  type BoundedTableOptions,
  type Eviction,
  type EvictionBounds,
  type EvictionPolicy,
  type PolicyName as EvictionPolicyName,
} from './eviction/index.js';
export { createStatsHandler, type StatsHandlerOptions } from './stats-handler.js';
export { bearerMatches } from './auth.js';
export { pathOf } from './key.js';
export { validatePathnames, type PathnameLimits, type PathnamesResult } from './pathnames.js';
export { SURROGATE_KEY_HEADER, CACHE_TAG_HEADER, isValidKey, keysOfHeader, keysOfHeaders, validateKeys, type KeyLimits, type KeysResult } from './surrogate-keys.js';
export { LIFETIME_MODES, type LifetimeMode } from './freshness.js';

// The HTTP rules the cache applies, for servers and tools beside it that must agree with it (a renderer's own
// negotiation and ETags, an edge's cache configuration, a purge client's validation).
export { CACHE_HEADER, etagOf } from './entry.js';
export { PER_CLIENT_HEADERS } from './cacheability.js';
export { parseDirectives, responseDirectives, type Directive, type ResponseDirectives } from './cache-control.js';
export { varyNames, PERSONAL_REQUEST_HEADERS } from './vary.js';
export { computeKey, keyForTarget, originForm } from './key.js';
export { chooseCoding, ifNoneMatchMatches, preferencesMemo, type Coding, type Compressed, type Preferences } from './negotiate.js';
export { purgeMatches } from './purge-match.js';
export { MAX_KEY_LENGTH } from './surrogate-keys.js';
export { firstInvalidUtf8, jsonPathAt, jsonUtf8Problem } from './utf8-body.js';
export { ERRORS as PAGE_CACHE_ERRORS, PageCacheError, errorBody as pageCacheErrorBody } from './errors.js';
