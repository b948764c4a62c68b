import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { PurgeRequest } from '@sitestack/page-cache';
import { connectRedis, FLEET_DEFAULTS, FleetReader, fleetKeys, liveFronts, PurgeStreamWriter, type ResolvedFleetOptions, whenReady } from '../src/fleet/index.js';
import { silentLogger } from '../src/log.js';
import { eventually } from './support/stack.js';

const liveUrl = process.env['REDIS_LIVE_URL'];

/** The purge stream against a Redis someone runs: one server, a Sentinel-managed primary or a Cluster, as REDIS_URL takes them. */
describe('the purge stream against a live Redis', () => {
  if (liveUrl === undefined) {
    it('runs against a live Redis primary when REDIS_LIVE_URL is set', {
      skip: 'SKIPPED: set REDIS_LIVE_URL=redis://host:6379, redis+sentinel://host:26379/name or redis+cluster://host:6379 (see docs/fleet.md) to run the stream against a real deployment',
    }, () => undefined);
    return;
  }

  it('brings purges to two readers, lists them, and cleans up its keys when Redis is live', async () => {
    const options: ResolvedFleetOptions = { ...FLEET_DEFAULTS, prefix: `sitestack-live-${randomBytes(4).toString('hex')}`, heartbeatMs: 200, memberTtlMs: 1_000, blockMs: 500 };
    const keys = fleetKeys(options.prefix);
    const client = connectRedis({ url: liveUrl, options, logger: silentLogger(), role: 'live test' });
    await whenReady(client, 5_000);
    const applied: PurgeRequest[][] = [[], []];
    const readers = applied.map(
      (list, index) =>
        new FleetReader({
          url: liveUrl,
          options,
          logger: silentLogger(),
          address: `http://live-${index}`,
          target: { purge: (request) => (list.push(request), []), empty: () => undefined, holdsPages: () => false },
        }),
    );
    try {
      for (const reader of readers) reader.start();
      await Promise.all(readers.map((reader) => reader.synced));
      const writer = new PurgeStreamWriter({ redis: client, keys, options, logger: silentLogger() });
      const delivery = await writer.deliver({ pathnames: ['/live'], keys: ['post:live'] });
      assert.deepEqual(delivery.behind, []);
      await eventually('both readers applied the purge', async () => applied.every((list) => list.length === 1), 3_000);
      const fronts = await liveFronts(client, keys, options.memberTtlMs);
      assert.deepEqual(fronts.map((front) => front.address).sort(), ['http://live-0', 'http://live-1']);
    } finally {
      await Promise.all(readers.map((reader) => reader.stop()));
      await client.del(keys.stream, keys.epoch, keys.members, keys.announcements);
      client.disconnect();
    }
  });
});
