import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import fc from 'fast-check';
import type { SharedCopy, SharedLookup } from '@sitestack/page-cache';
import { copyOf, sharedTierContract } from '../src/fleet/second-tier/test-support/shared-tier-contract.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { assertIndexWhole, redisTierUnderTest, withRedisTier, type RedisTierUnderTest } from './support/redis-tier.js';

describe('the shared second tier in Redis', () => {
  let redis: RedisServer;
  let admin: Redis;
  before(async () => {
    redis = await startRedisServer();
    admin = new Redis(redis.url);
  });
  after(async () => {
    admin.disconnect();
    await redis.stop();
  });

  sharedTierContract('the Redis tier', () => redisTierUnderTest(redis.url, admin));

  /** Leads `key` and stores `copy` when the lookup leads (not when the copy is there or a lock is held); its answer. */
  const storeAs = async (subject: RedisTierUnderTest, key: string, copy: SharedCopy): Promise<SharedLookup> => {
    const lookup = await subject.tier.lookup(key, true);
    if (lookup.role === 'lead') subject.tier.store(key, copy, lookup.ticket);
    await subject.settled();
    return lookup;
  };

  it('keeps its bytes within the budget by evicting the least recently used copies, and their index entries', async () => {
    await withRedisTier(redis.url, admin, { maxBytes: 20_000, maxCopyBytes: 5_000 }, async (subject) => {
      const store = async (index: number) => {
        const key = `/p/${index}`;
        const copy = { ...copyOf(key, [key, '/p/'], [`post:${index}`, 'posts']), body: Buffer.alloc(1_500, index) };
        assert.equal((await storeAs(subject, key, copy)).role, 'lead');
      };
      for (let index = 0; index < 10; index++) await store(index);
      // /p/0 is used again, so /p/1 is now the least recently used.
      assert.equal((await subject.tier.lookup('/p/0', true)).role, 'found');
      for (let index = 10; index < 40; index++) await store(index);
      const held = await assertIndexWhole(admin, subject.keys);
      assert.ok(held.bytes <= 20_000, `${held.bytes} bytes held`);
      assert.ok(held.copies.size >= 10, `${held.copies.size} copies held`);
      assert.ok(held.copies.has('/p/39'));
      assert.ok(!held.copies.has('/p/1'));
      assert.ok(!held.surrogates.has('post:1'), 'an evicted copy leaves no set behind');
      assert.equal(held.targets.get('/p/')?.length, held.copies.size);
      assert.deepEqual(await subject.tier.size(), { copies: held.copies.size, bytes: held.bytes });
      const stats = subject.tier.stats();
      assert.deepEqual(stats.stores, { stored: 40, refused: 0, oversized: 0, failed: 0 });
      assert.equal(stats.evicted, 40 - held.copies.size);
      assert.deepEqual(stats.lookups, { found: 1, lead: 40, wait: 0, off: 0 });
    });
  });

  it('stores a copy at the per-copy limit and refuses one a byte over it, releasing the lock', async () => {
    const limit = 4_096;
    await withRedisTier(redis.url, admin, { maxCopyBytes: limit }, async (subject) => {
      const sized = (key: string, bytes: number) => {
        const copy = copyOf(key, [key], ['k']);
        const overhead = Buffer.byteLength(key) * 2 + Buffer.byteLength(copy.head) + 1;
        return { ...copy, body: Buffer.alloc(bytes - overhead, 0x61) };
      };
      assert.equal((await storeAs(subject, '/at-limit', sized('/at-limit', limit))).role, 'lead');
      assert.equal((await subject.tier.lookup('/at-limit', true)).role, 'found');
      assert.equal((await storeAs(subject, '/over', sized('/over', limit + 1))).role, 'lead');
      assert.equal((await subject.tier.lookup('/over', true)).role, 'lead', 'not stored, and the lock is free again');
      assert.equal(subject.tier.stats().stores.oversized, 1);
    });
  });

  it('stores and purges copies whose key, pathnames and surrogate keys are 10 KB long', async () => {
    await withRedisTier(redis.url, admin, {}, async (subject) => {
      const long = (seed: string) => `/${seed.repeat(10_240 / seed.length)}`;
      const copy = copyOf('long', [long('ü{}'), long('\n')], [long('ключ')]);
      await storeAs(subject, long('k'), copy);
      assert.equal((await subject.tier.lookup(long('k'), false)).role, 'found');
      await subject.purge([], [long('ключ')], false);
      assert.equal((await subject.tier.lookup(long('k'), false)).role, 'off');
      await assertIndexWhole(admin, subject.keys);
    });
  });

  it('answers off to a lookup that does not lead when nothing is held and nobody renders', async () => {
    await withRedisTier(redis.url, admin, {}, async (subject) => {
      assert.deepEqual(await subject.tier.lookup('/nothing', false), { role: 'off' });
    });
  });

  it('counts a copy refused because a purge came after its ticket', async () => {
    await withRedisTier(redis.url, admin, {}, async (subject) => {
      const lead = await subject.tier.lookup('/r', true);
      assert.equal(lead.role, 'lead');
      await subject.purge(['/r'], [], false);
      subject.tier.store('/r', copyOf('r', ['/r']), lead.ticket);
      await subject.settled();
      assert.deepEqual(subject.tier.stats().stores, { stored: 0, refused: 1, oversized: 0, failed: 0 });
    });
  });

  it('appends the stream entry in the purge step, and keeps the first stale time when soft purges repeat', async () => {
    await withRedisTier(redis.url, admin, {}, async (subject) => {
      await storeAs(subject, '/s', copyOf('s', ['/s'], ['post:s']));
      await subject.purge(['/s'], [], true);
      const first = (await subject.tier.lookup('/s', false)) as { staleSince?: number };
      await new Promise((resolve) => setTimeout(resolve, 5));
      await subject.purge([], ['post:s'], true);
      const second = (await subject.tier.lookup('/s', false)) as { staleSince?: number };
      assert.ok(first.staleSince !== undefined);
      assert.equal(second.staleSince, first.staleSince);
      await subject.purge([], ['post:s'], false);
      assert.equal((await subject.tier.lookup('/s', false)).role, 'off');
      const entries = await admin.xrange(subject.stream, '-', '+');
      assert.deepEqual(
        entries.map(([, fields]) => fields),
        [['pathnames', '["/s"]'], ['keys', '["post:s"]'], ['keys', '["post:s"]']],
      );
      assert.equal(await admin.get(subject.keys.purges), '3');
    });
  });

  it('never leaves an index entry without its copy, or a copy out of its index, through stores, purges and evictions', async () => {
    await withRedisTier(redis.url, admin, { maxBytes: 8_000, maxCopyBytes: 4_000 }, async (subject) => {
    const pathnames = ['/a', '/b', '/{c}', '/ü\n'];
    const surrogates = ['x', 'y', '{z}', 'ζ'];
    const step = fc.oneof(
      fc.record({ op: fc.constant('store' as const), key: fc.integer({ min: 0, max: 5 }), targets: fc.subarray(pathnames), keys: fc.subarray(surrogates), bytes: fc.integer({ min: 0, max: 3_500 }) }),
      fc.record({ op: fc.constant('purge' as const), targets: fc.subarray(pathnames), keys: fc.subarray(surrogates), soft: fc.boolean() }),
      fc.record({ op: fc.constant('lookup' as const), key: fc.integer({ min: 0, max: 5 }) }),
    );
      await fc.assert(
        fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
          for (const action of steps) {
            if (action.op === 'store') {
              const key = `/k/${action.key}`;
              await storeAs(subject, key, { ...copyOf(key, [key, ...action.targets], action.keys), body: Buffer.alloc(action.bytes) });
            } else if (action.op === 'purge') {
              if (action.targets.length + action.keys.length === 0) continue;
              await subject.purge(action.targets, action.keys, action.soft);
              if (!action.soft) {
                const held = await assertIndexWhole(admin, subject.keys);
                for (const copy of held.copies.values()) {
                  assert.ok(!copy.targets.some((target) => action.targets.includes(target)) && !copy.keys.some((name) => action.keys.includes(name)), 'a purged copy is gone');
                }
              }
            } else {
              const answer = await subject.tier.lookup(`/k/${action.key}`, true);
              if (answer.role === 'lead') subject.tier.release(`/k/${action.key}`, answer.ticket);
              await subject.settled();
            }
            const held = await assertIndexWhole(admin, subject.keys);
            assert.ok(held.bytes <= 8_000, `${held.bytes} bytes held`);
          }
        }),
        { numRuns: 40 },
      );
    });
  });
});
