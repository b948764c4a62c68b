/** Options of a fleet's shared second tier in Redis (docs/fleet.md, "The shared second tier"). */
export interface SharedTierOptions {
  /**
   * The tier's memory budget: the bytes of every copy together (head, body, key and index lists). Storing a copy past
   * it evicts the least recently used copies first.
   * @default 268435456 (256 MiB)
   */
  maxBytes?: number;
  /** A copy larger than this is not stored (its render still serves its own front). At most `maxBytes`. @default 8388608 (8 MiB) */
  maxCopyBytes?: number;
  /**
   * How long the fleet's one render of a key holds its lock: a bit above a slow render. A render that outlives it
   * lets another front lead, and its own copy is refused.
   * @default 3000
   */
  lockMs?: number;
  /**
   * The longest a lookup waits for Redis before it answers `off` (a miss renders as without the tier). Lookups sit
   * on a miss's path, hence shorter than the fleet's command timeout.
   * @default 250
   */
  lookupTimeoutMs?: number;
}

export type ResolvedSharedTierOptions = Required<SharedTierOptions>;

export const SHARED_TIER_DEFAULTS: ResolvedSharedTierOptions = {
  maxBytes: 256 * 1024 * 1024,
  maxCopyBytes: 8 * 1024 * 1024,
  lockMs: 3_000,
  lookupTimeoutMs: 250,
};
