export type { EvictionBounds, EvictionPolicy, PolicyKey } from './policy.js';
export { EVICTIONS, POLICY_NAMES, createEvictionPolicy, type Eviction, type PolicyName } from './policies.js';
export { createBoundedTable, type BoundedTable, type BoundedTableOptions, type RemovalReason } from './bounded-table.js';
