export { createOriginApp, type OriginAppOptions } from './app.js';
export { openOriginDatabase, migrate, MIGRATIONS, type OriginDatabase, type OpenOriginDatabaseOptions } from './database.js';
export { PurgeOutbox, type PurgeOutboxOptions, type CdnPurge, type CdnUrlFailure } from './outbox.js';
export { SearchOutbox, type SearchOutboxOptions, type PostChange, type ApplyPostChanges } from './search-outbox.js';
export { ContentStore, type Post, type PostPage, type PublicComment, type PendingComment } from './store.js';
export { groupByMonth, purgeForComments, purgeForPost, type PostGroup, type PostSummary, type PurgeTargets } from './policy.js';
export type { BackoffPolicy } from '../backoff.js';
export { OID_PATTERN, parseOid, type PostInput, type CommentInput } from './validation.js';
export { demoPosts } from './seed.js';
