import { Counter, type Registry } from 'prom-client';
import type { SharedTierStats } from '../fleet/index.js';
import { mirroredCounter } from './metrics.js';

/**
 * A counter per label value that mirrors running totals kept elsewhere: at each scrape each series grows by what its
 * total grew by since the last one (as `mirroredCounter` does for one series).
 */
function mirroredCounters(registry: Registry, name: string, help: string, label: string, read: () => Record<string, number>): void {
  const seen = new Map<string, number>();
  new Counter({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      for (const [value, total] of Object.entries(read())) {
        const before = seen.get(value) ?? 0;
        this.inc({ [label]: value }, Math.max(0, total - before));
        seen.set(value, total);
      }
    },
  });
}

/** What this process's shared second tier answered and stored, on its `/metrics` (summed over `--workers`). */
export function registerSharedTierMetrics(registry: Registry, stats: () => SharedTierStats): void {
  mirroredCounters(registry, 'sitestack_tier_lookups_total', "Shared second tier lookups of this process's misses, by answer (found, lead, wait, off)", 'answer', () => stats().lookups);
  mirroredCounters(registry, 'sitestack_tier_stores_total', 'Copies this process sent to the shared second tier, by outcome (stored, refused after a purge or a lost lock, oversized, failed)', 'outcome', () => stats().stores);
  mirroredCounter(registry, 'sitestack_tier_evicted_total', "Copies this process's stores evicted to keep the tier within its budget", () => stats().evicted);
}
