import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { encodeEntry, FLEET_DEFAULTS, FleetReader, fleetKeys, type ResolvedFleetOptions } from '../src/fleet/index.js';
import { silentLogger } from '../src/log.js';
import { registerFleetReaderMetrics } from '../src/server/fleet-reader-metrics.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { eventually } from './support/stack.js';

const OPTIONS: ResolvedFleetOptions = { ...FLEET_DEFAULTS, prefix: 'reader-metrics', heartbeatMs: 100, memberTtlMs: 600, blockMs: 300, commandTimeoutMs: 500 };
const keys = fleetKeys(OPTIONS.prefix);

/** One sample's value in the Prometheus text. */
function sample(text: string, name: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  assert.ok(line, `${name} is exported`);
  return Number(line.slice(name.length + 1));
}

describe("a fleet member's reader metrics", () => {
  let redis: RedisServer;
  let client: Redis;
  let reader: FleetReader;
  /** The lag the reader reported while it applied each entry: what it knew as of its previous read. */
  const lagsSeen: number[] = [];

  before(async () => {
    redis = await startRedisServer();
    client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    reader = new FleetReader({
      url: redis.url,
      options: OPTIONS,
      logger: silentLogger(),
      address: 'http://127.0.0.1:45290',
      target: {
        purge: () => {
          lagsSeen.push(reader.state().lag);
          return [];
        },
        empty: () => undefined,
        holdsPages: () => false,
      },
    });
    reader.start();
    await reader.synced;
  });
  after(async () => {
    await reader.stop();
    client.disconnect();
    await redis.stop();
  });

  it('counts the entries still to read after each step when a reader catches up on more than one step holds', async () => {
    const appended = 120;
    const transaction = client.multi();
    for (let index = 0; index < appended; index++) transaction.xadd(keys.stream, '*', ...encodeEntry({ pathnames: [`/plog/${index}`], keys: [] }));
    await transaction.exec();
    await eventually('the reader applies every entry', async () => reader.state().applied === appended, 5_000);
    assert.equal(reader.state().lag, 0, 'caught up');
    const lags = [...new Set(lagsSeen)];
    assert.ok(lags.length >= 2 && Math.max(...lags) > 0 && Math.max(...lags) < appended, `lags seen while catching up: ${lags.join(', ')}`);
  });

  it('exports applied, skipped, emptied, lag and connected, with the gauges kept apart when workers are summed', async () => {
    const registry = new Registry();
    registerFleetReaderMetrics(registry, () => reader.state());
    const text = await registry.metrics();
    assert.equal(sample(text, 'sitestack_fleet_applied_total'), reader.state().applied);
    assert.equal(sample(text, 'sitestack_fleet_skipped_total'), 0);
    assert.equal(sample(text, 'sitestack_fleet_emptied_total'), 0);
    assert.equal(sample(text, 'sitestack_fleet_lag_entries'), 0);
    assert.equal(sample(text, 'sitestack_fleet_connected'), 1);
    const aggregators = Object.fromEntries((await registry.getMetricsAsJSON()).map((metric) => [metric.name, metric.aggregator]));
    assert.equal(aggregators['sitestack_fleet_lag_entries'], 'max');
    assert.equal(aggregators['sitestack_fleet_connected'], 'min');
  });
});
