export { connectRedis, whenReady, type RedisClient } from './connection.js';
export { parseRedisAddress, redactedRedisUrl, type RedisAddress } from './redis-address.js';
export { LAG_COUNT_LIMIT, liveFronts, parseAnnouncement, type Announcement, type FleetFront } from './membership.js';
export { FLEET_DEFAULTS, fleetKeys, type FleetKeys, type FleetOptions, type SharedTierKeys, type ResolvedFleetOptions } from './options.js';
export { compareStreamIds, isStreamId, STREAM_START } from './stream-ids.js';
export { decodeEntry, encodeEntry, MAX_ENTRY_BYTES, type PurgeBatch } from './stream-entry.js';
export { FleetReader, type FleetReaderOptions, type FleetReaderState, type PurgeTarget } from './stream-reader.js';
export { PurgeStreamWriter, type PurgeStreamWriterOptions, type StreamDelivery } from './stream-writer.js';
export { RedisSharedTier, sharedTierSize, SHARED_TIER_DEFAULTS, type RedisSharedTierOptions, type ResolvedSharedTierOptions, type SharedTierOptions, type SharedTierSize, type SharedTierStats } from './second-tier/index.js';
