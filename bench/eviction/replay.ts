import { EVICTION_POLICY_NAMES, createBoundedTable, type BoundedTable, type EvictionPolicyName } from '@sitestack/page-cache';

/** The policies the bench replays traces through: the spec's LRU (lru-cache) first, then every candidate. */
export const REPLAYED: readonly Replayed[] = ['lru', ...EVICTION_POLICY_NAMES];
export type Replayed = 'lru' | EvictionPolicyName;

const HELD = { held: true } as const;
const ignore = (): void => {};

/** A table as the page cache's store bounds it, every entry weighing 1. */
export function countingTable<K extends number | string = number>(eviction: Replayed, maxEntries: number): BoundedTable<K, typeof HELD> {
  return createBoundedTable<K, typeof HELD>({ eviction, maxEntries, maxWeight: undefined, weightOf: () => 1, onInsert: ignore, onRemove: ignore });
}

type Table = BoundedTable<number, typeof HELD>;

/** Asks `table` for each key in turn, storing every miss; returns the hits. */
export function replay(table: Table, keys: ArrayLike<number>, from = 0, to = keys.length): number {
  let hits = 0;
  for (let i = from; i < to; i++) {
    const key = keys[i]!;
    if (table.get(key) === undefined) table.set(key, HELD);
    else hits++;
  }
  return hits;
}

/** Hit ratio (0–1) of a fresh table of `maxEntries` over the whole trace. */
export function hitRatio(eviction: Replayed, maxEntries: number, keys: ArrayLike<number>): number {
  return replay(countingTable(eviction, maxEntries), keys) / keys.length;
}

export interface ScanSurvival {
  /** Of the `popular` most asked-for keys of the warm-up, how many were held before the scan. */
  before: number;
  after: number;
}

/**
 * Warms a table on `warmup`, then sends `scanLength` one-off keys (never asked for before): how many of the `popular`
 * keys asked for most in the warm-up are held before and after.
 */
export function scanSurvival(eviction: Replayed, maxEntries: number, warmup: ArrayLike<number>, popular: number, scanLength: number): ScanSurvival {
  const table = countingTable(eviction, maxEntries);
  replay(table, warmup);
  const counts = new Map<number, number>();
  let highest = 0;
  for (let i = 0; i < warmup.length; i++) {
    const key = warmup[i]!;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    highest = Math.max(highest, key);
  }
  const top = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, popular).map(([key]) => key);
  const held = () => top.filter((key) => table.has(key)).length;
  const before = held();
  const scan = Array.from({ length: scanLength }, (_, i) => highest + 1 + i);
  replay(table, scan);
  return { before, after: held() };
}
