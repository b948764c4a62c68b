export { SHARED_TIER_DEFAULTS, type ResolvedSharedTierOptions, type SharedTierOptions } from './options.js';
export { RedisSharedTier, sharedTierSize, type RedisSharedTierOptions, type SharedTierSize, type SharedTierStats } from './redis-shared-tier.js';
export { PURGE_SCRIPT } from './scripts.js';
