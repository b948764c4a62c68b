import { Gauge, type Registry } from 'prom-client';
import type { FleetReaderState } from '../fleet/index.js';
import { mirroredCounter } from './metrics.js';

/**
 * A fleet member's own view of the purge stream on its `/metrics` (the origin's `sitestack_fleet_*` give the fleet's).
 * With `--workers N` the primary sums the workers' series, except the two gauges: lag the furthest-behind worker's,
 * connected only when every worker is.
 */
export function registerFleetReaderMetrics(registry: Registry, state: () => FleetReaderState): void {
  mirroredCounter(registry, 'sitestack_fleet_applied_total', 'Purge stream entries this process applied to its page cache', () => state().applied);
  mirroredCounter(registry, 'sitestack_fleet_skipped_total', 'Purge stream entries this process skipped as malformed', () => state().skipped);
  mirroredCounter(registry, 'sitestack_fleet_emptied_total', 'Times this process emptied its page cache because the stream could no longer tell what it missed', () => state().emptied);
  new Gauge({
    name: 'sitestack_fleet_lag_entries',
    help: 'Purge stream entries after the last one this process applied, as of its last read',
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.set(state().lag);
    },
  });
  new Gauge({
    name: 'sitestack_fleet_connected',
    help: "1 while this process's last read of the purge stream reached Redis, else 0",
    registers: [registry],
    aggregator: 'min',
    collect() {
      this.set(state().connected ? 1 : 0);
    },
  });
}
