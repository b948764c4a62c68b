export type { EvictionBounds, EvictionPolicy, PolicyKey } from './policy.js';
export { POLICY_NAMES, createEvictionPolicy, type PolicyName } from './policies.js';
export { createBoundedTable, type BoundedTable, type BoundedTableOptions, type RemovalReason } from './bounded-table.js';
