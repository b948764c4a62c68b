import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { PurgeRequest } from '@sitestack/page-cache';
import { FLEET_DEFAULTS, FleetReader, fleetKeys, liveFronts, PurgeStreamWriter, type ResolvedFleetOptions } from '../src/fleet/index.js';
import { silentLogger } from '../src/log.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { eventually } from './support/stack.js';

const OPTIONS: ResolvedFleetOptions = { ...FLEET_DEFAULTS, prefix: 'fleet-test', heartbeatMs: 100, memberTtlMs: 600, applyWaitMs: 2_000, blockMs: 300, commandTimeoutMs: 500 };
const keys = fleetKeys(OPTIONS.prefix);

/** A page cache stand-in that records what the reader asks of it. */
function recordingTarget(holding = false) {
  const purges: PurgeRequest[] = [];
  const empties: string[] = [];
  return {
    purges,
    empties,
    target: {
      purge: (request: PurgeRequest) => {
        purges.push(request);
        return (request.pathnames ?? []).map((pathname) => `${pathname}`);
      },
      empty: (reason: string) => void empties.push(reason),
      holdsPages: () => holding,
    },
  };
}

/** A logger whose warnings a test can read. */
function capturingLogger() {
  const lines: { msg?: string; reason?: string }[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as { msg?: string }) });
  return { logger, lines };
}

describe('the purge stream', () => {
  let redis: RedisServer;
  let client: Redis;
  let writer: PurgeStreamWriter;
  const readers: FleetReader[] = [];
  const follow = async (recorded: ReturnType<typeof recordingTarget>, logger = silentLogger(), options = OPTIONS) => {
    const reader = new FleetReader({ url: redis.url, options, logger, target: recorded.target, address: `http://127.0.0.1:${45700 + readers.length}` });
    readers.push(reader);
    reader.start();
    await reader.synced;
    return reader;
  };

  before(async () => {
    redis = await startRedisServer();
    client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    writer = new PurgeStreamWriter({ redis: client, keys, options: OPTIONS, logger: silentLogger() });
  });
  after(async () => {
    await Promise.all(readers.map((reader) => reader.stop()));
    client.disconnect();
    await redis.stop();
  });

  it('reaches every reader, and the writer returns once every live reader applied it when two readers follow', async () => {
    const one = recordingTarget();
    const two = recordingTarget();
    const first = await follow(one);
    const second = await follow(two);
    const delivery = await writer.deliver({ pathnames: ['/plog/a'], keys: ['post:a'] });
    assert.deepEqual(delivery.behind, []);
    assert.deepEqual(one.purges, [{ pathnames: ['/plog/a'], keys: ['post:a'] }]);
    assert.deepEqual(two.purges, [{ pathnames: ['/plog/a'], keys: ['post:a'] }]);
    assert.deepEqual(delivery.purged, ['/plog/a'], 'the keys the readers reported');
    assert.equal(first.state().lastId, delivery.id);
    assert.equal(second.state().lastId, delivery.id);
    const fronts = await liveFronts(client, keys, OPTIONS.memberTtlMs);
    assert.deepEqual(fronts.map((front) => front.lag).filter((lag) => lag !== 0), []);
    assert.ok(fronts.length >= 2);
  });

  it('starts at the end of the stream when a reader joins after purges', async () => {
    await writer.deliver({ pathnames: ['/before'], keys: [] });
    const late = recordingTarget();
    await follow(late);
    assert.deepEqual(late.purges, []);
    await writer.deliver({ pathnames: ['/after'], keys: [] });
    await eventually('the late reader applies the next purge', async () => late.purges.length === 1, 3_000);
    assert.deepEqual(late.purges, [{ pathnames: ['/after'] }]);
    assert.deepEqual(late.empties, []);
  });

  it('skips hostile entries with a warning and applies the next purge when the stream holds garbage', async () => {
    const recorded = recordingTarget();
    const { logger, lines } = capturingLogger();
    const reader = await follow(recorded, logger);
    const hostile: string[][] = [
      ['something', 'else'],
      ['pathnames', 'not json'],
      ['pathnames', '[1, 2]'],
      ['pathnames', '"/a"'],
      ['pathnames', '["no-slash"]'],
      ['keys', '["has space"]'],
      ['pathnames', JSON.stringify(Array.from({ length: 2_000 }, (_, index) => `/p${index}`))],
      ['pathnames', JSON.stringify([`/${'x'.repeat(3 * 1024 * 1024)}`])],
      ['pathnames', '["/\u0000"]'],
      ['pathnames', JSON.stringify(['/大家好', '/😀'])],
    ];
    for (const fields of hostile) await client.xadd(keys.stream, '*', ...fields);
    await writer.deliver({ pathnames: ['/valid'], keys: [] });
    await eventually('the valid purge is applied', async () => recorded.purges.some((request) => request.pathnames?.[0] === '/valid'), 3_000);
    assert.deepEqual(recorded.purges, [{ pathnames: ['/大家好', '/😀'] }, { pathnames: ['/valid'] }]);
    assert.equal(reader.state().skipped, hostile.length - 1);
    const skipped = lines.filter((line) => line.msg === 'purge stream entry skipped');
    assert.equal(skipped.length, hostile.length - 1);
    assert.ok(skipped.some((line) => /over 1048576/.test(line.reason ?? '')), 'the huge entry is named as too large');
    assert.deepEqual(recorded.empties, []);
  });

  it('empties the cache once when the stream was trimmed past the last applied entry', async () => {
    const recorded = recordingTarget();
    const reader = await follow(recorded);
    // Added and trimmed in one transaction: the reader cannot see the entries before they are gone.
    const transaction = client.multi();
    for (let index = 0; index < 5; index++) transaction.xadd(keys.stream, '*', 'pathnames', `["/gone-${index}"]`);
    transaction.xtrim(keys.stream, 'MAXLEN', 1);
    await transaction.exec();
    await eventually('the reader empties its cache', async () => recorded.empties.length === 1, 3_000);
    assert.match(recorded.empties[0] ?? '', /trimmed past/);
    await writer.deliver({ pathnames: ['/next'], keys: [] });
    await eventually('the next purge is applied', async () => recorded.purges.some((request) => request.pathnames?.[0] === '/next'), 3_000);
    assert.equal(reader.state().emptied, 1);
    assert.ok(!recorded.purges.some((request) => request.pathnames?.[0]?.startsWith('/gone') === true), 'the cache was emptied instead of reading on past the gap');
  });

  it('waits at most applyWaitMs when a live front does not apply a purge', async () => {
    const quick = new PurgeStreamWriter({ redis: client, keys, options: { ...OPTIONS, applyWaitMs: 300 }, logger: silentLogger() });
    // A front that announces itself (its heartbeat in the future keeps it alive) but never reads.
    await client.hset(keys.announcements, 'stuck-front', JSON.stringify({ address: 'http://stuck', lastId: '1-0', startedAt: 0, pid: 1, host: 'h' }));
    await client.zadd(keys.members, Date.now() + 60_000, 'stuck-front');
    const started = Date.now();
    const delivery = await quick.deliver({ pathnames: ['/waited'], keys: [] });
    const waited = Date.now() - started;
    assert.deepEqual(delivery.behind.map((front) => front.id), ['stuck-front']);
    assert.ok(waited >= 300 && waited < 2_000, `waited ${waited} ms`);
    await client.zrem(keys.members, 'stuck-front');
  });

  it('drops a front from the live list once its heartbeat is older than the TTL', async () => {
    const recorded = recordingTarget();
    const reader = await follow(recorded);
    const { id } = reader.state();
    assert.ok((await liveFronts(client, keys, OPTIONS.memberTtlMs)).some((front) => front.id === id));
    await reader.stop();
    await eventually('the stopped front leaves the list', async () => !(await liveFronts(client, keys, OPTIONS.memberTtlMs)).some((front) => front.id === id), 3_000);
    assert.equal(await client.hexists(keys.announcements, id), 0, 'its announcement is trimmed too');
  });

  it('empties the cache once when the stream is deleted', async () => {
    const recorded = recordingTarget();
    await follow(recorded);
    await client.del(keys.stream);
    await eventually('the reader empties its cache', async () => recorded.empties.length === 1, 3_000);
    assert.match(recorded.empties[0] ?? '', /gone/);
  });

  it('empties the cache once, then applies new purges, when Redis restarts empty', async () => {
    const recorded = recordingTarget();
    const reader = await follow(recorded);
    const emptiedBefore = reader.state().emptied;
    await redis.restartEmpty();
    await eventually('the reader empties its cache', async () => recorded.empties.length === 1, 5_000);
    assert.match(recorded.empties[0] ?? '', /lost its data/);
    await eventually('the writer reaches Redis again', async () => client.status === 'ready', 5_000);
    await writer.deliver({ pathnames: ['/after-restart'], keys: [] });
    await eventually('the purge after the restart is applied', async () => recorded.purges.some((request) => request.pathnames?.[0] === '/after-restart'), 3_000);
    assert.equal(reader.state().emptied, emptiedBefore + 1);
  });

  it('empties the cache at first contact when the front served pages before Redis was reachable', async () => {
    const recorded = recordingTarget(true);
    await follow(recorded);
    assert.equal(recorded.empties.length, 1);
  });
});

describe('the purge stream across a Redis outage', () => {
  it('rejects appends while Redis is down, and a reader applies what is appended within 3 s of its return', async () => {
    const redis = await startRedisServer({ persistent: true });
    const client = new Redis(redis.url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => 50 });
    client.on('error', () => undefined);
    const writer = new PurgeStreamWriter({ redis: client, keys, options: OPTIONS, logger: silentLogger() });
    const recorded = recordingTarget();
    const reader = new FleetReader({ url: redis.url, options: OPTIONS, logger: silentLogger(), target: recorded.target, address: 'http://outage' });
    try {
      reader.start();
      await reader.synced;
      await writer.deliver({ pathnames: ['/before-outage'], keys: [] });
      await redis.kill();
      await assert.rejects(writer.deliver({ pathnames: ['/during-outage'], keys: [] }));
      await redis.start();
      const returned = Date.now();
      await eventually('the writer reconnects', async () => client.status === 'ready', 3_000);
      await writer.deliver({ pathnames: ['/after-outage'], keys: [] });
      await eventually('the reader applies the purge', async () => recorded.purges.some((request) => request.pathnames?.[0] === '/after-outage'), 3_000);
      assert.ok(Date.now() - returned < 3_000);
      assert.deepEqual(recorded.empties, [], 'the data survived (append-only file): nothing to empty');
    } finally {
      await reader.stop();
      client.disconnect();
      await redis.stop();
    }
  });
});
