import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { copyOf } from '../src/fleet/second-tier/test-support/shared-tier-contract.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { withRedisTier } from './support/redis-tier.js';
import { eventually } from './support/stack.js';

const LOOKUP_TIMEOUT_MS = 200;

/** The shared tier when its Redis stops answering, dies, or comes back empty: lookups answer off, nothing throws. */
describe('the shared second tier when Redis fails', () => {
  let redis: RedisServer;
  let admin: Redis;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  before(async () => {
    process.on('unhandledRejection', onUnhandled);
    redis = await startRedisServer();
    admin = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    await admin.connect();
  });
  after(async () => {
    admin.disconnect();
    await redis.stop();
    process.off('unhandledRejection', onUnhandled);
    assert.deepEqual(unhandled, [], 'no unhandled rejection');
  });

  it('answers off within its bounded time, and at once while that lookup is overdue, when Redis is paused', async () => {
    await withRedisTier(redis.url, admin, { lookupTimeoutMs: LOOKUP_TIMEOUT_MS }, async (subject) => {
      redis.pause();
      try {
        let started = Date.now();
        assert.deepEqual(await subject.tier.lookup('/paused', true), { role: 'off' });
        const tookMs = Date.now() - started;
        assert.ok(tookMs >= LOOKUP_TIMEOUT_MS - 5 && tookMs < LOOKUP_TIMEOUT_MS + 1_000, `answered after ${tookMs} ms`);
        started = Date.now();
        assert.deepEqual(await subject.tier.lookup('/paused', true), { role: 'off' });
        assert.ok(Date.now() - started < LOOKUP_TIMEOUT_MS, 'the second lookup does not wait on a Redis already late');
        subject.tier.store('/paused', copyOf('p', ['/paused']), `0.${'a'.repeat(32)}`);
      } finally {
        redis.resume();
      }
      // The overdue lookup's lock went back to Redis as soon as its answer came: the next lookup leads.
      await eventually('the tier answers again', async () => (await subject.tier.lookup('/paused', true)).role === 'lead', 5_000);
    });
  });

  it('answers off and throws nothing while Redis is down, and works again when it is back', async () => {
    await withRedisTier(redis.url, admin, { lookupTimeoutMs: LOOKUP_TIMEOUT_MS }, async (subject) => {
      const lead = await subject.tier.lookup('/down', true);
      assert.equal(lead.role, 'lead');
      await redis.kill();
      assert.deepEqual(await subject.tier.lookup('/down', true), { role: 'off' });
      subject.tier.store('/down', copyOf('down', ['/down']), lead.ticket);
      subject.tier.release('/down', lead.ticket);
      await subject.settled();
      await assert.rejects(subject.tier.size());
      assert.equal(subject.tier.stats().lookups.off, 1);
      assert.equal(subject.tier.stats().stores.failed, 1, 'the store sent while Redis was down');
      await redis.start();
      await subject.tier.ready(5_000);
      await eventually('the tier answers again', async () => (await subject.tier.lookup('/after', true)).role === 'lead', 5_000);
    });
  });

  it('holds nothing after Redis restarts empty', async () => {
    await withRedisTier(redis.url, admin, { lookupTimeoutMs: LOOKUP_TIMEOUT_MS }, async (subject) => {
      const lead = await subject.tier.lookup('/kept', true);
      assert.equal(lead.role, 'lead');
      subject.tier.store('/kept', copyOf('kept', ['/kept']), lead.ticket);
      await subject.settled();
      assert.equal((await subject.tier.lookup('/kept', true)).role, 'found');
      await redis.restartEmpty();
      await subject.tier.ready(5_000);
      await eventually('the tier answers again', async () => (await subject.tier.lookup('/kept', true)).role === 'lead', 5_000);
      assert.deepEqual(await subject.tier.size(), { copies: 0, bytes: 0 });
    });
  });
});
