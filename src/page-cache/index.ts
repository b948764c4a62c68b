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
export { createStatsHandler, type StatsHandlerOptions } from './stats-handler.js';
export { bearerMatches } from './auth.js';
export { pathOf } from './key.js';
export { validatePathnames, type PathnameLimits, type PathnamesResult } from './pathnames.js';
export { SURROGATE_KEY_HEADER, isValidKey, keysOfHeader, validateKeys, type KeyLimits, type KeysResult } from './surrogate-keys.js';
