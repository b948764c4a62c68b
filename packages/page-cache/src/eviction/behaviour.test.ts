import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { EvictionPolicy } from './policy.js';
import { POLICY_NAMES, createEvictionPolicy, type PolicyName } from './policies.js';

/** Inserts `key` as the store does: insert, then evict while over `maxEntries`; returns what was evicted. */
function store(policy: EvictionPolicy<number>, maxEntries: number, key: number): number[] {
  policy.insert(key, 1);
  const evicted: number[] = [];
  while (policy.size > maxEntries) evicted.push(policy.evict()!);
  return evicted;
}

/** Popular keys asked for among others, then a scan of one-off keys ten times the cache: how many popular keys stay. */
function popularAfterScan(name: PolicyName): number {
  const maxEntries = 100;
  const policy = createEvictionPolicy<number>(name, { maxEntries });
  const popular = Array.from({ length: 20 }, (_, i) => i);
  let next = 1000;
  for (let round = 0; round < 20; round++) {
    for (const key of popular) if (!policy.touch(key)) store(policy, maxEntries, key);
    for (let i = 0; i < 20; i++) store(policy, maxEntries, next++);
  }
  for (let i = 0; i < maxEntries * 10; i++) store(policy, maxEntries, next++);
  return popular.filter((key) => policy.has(key)).length;
}

describe('scan-resistant eviction policies', () => {
  for (const name of POLICY_NAMES) {
    it(`${name} keeps every popular key through a scan of one-off keys ten times the cache`, () => {
      assert.equal(popularAfterScan(name), 20);
    });
  }

  it('sieve evicts from where its hand stopped, not from the oldest key again', () => {
    const policy = createEvictionPolicy<number>('sieve', { maxEntries: 3 });
    for (const key of [1, 2, 3]) store(policy, 3, key);
    policy.touch(1);
    assert.deepEqual(store(policy, 3, 4), [2], 'the hand clears 1 and evicts 2');
    assert.deepEqual(store(policy, 3, 5), [3], 'the hand goes on to 3; 1 stays until it passes again');
  });

  it('s3-fifo sends a key evicted from its small queue straight to main when it comes back', () => {
    const policy = createEvictionPolicy<number>('s3-fifo', { maxEntries: 10 });
    for (let key = 0; key < 10; key++) store(policy, 10, key);
    assert.deepEqual(store(policy, 10, 10), [0]);
    store(policy, 10, 0);
    // Key 0 came back from the ghost queue into main: one-off keys now leave before it.
    for (let key = 11; key < 40; key++) store(policy, 10, key);
    assert.ok(policy.has(0));
  });

  it('w-tinylfu keeps hitting under a loop larger than the cache, where LRU would hit nothing', () => {
    const maxEntries = 100;
    const policy = createEvictionPolicy<number>('w-tinylfu', { maxEntries });
    let hits = 0;
    for (let round = 0; round < 20; round++) {
      for (let key = 0; key < 150; key++) {
        if (policy.touch(key)) hits++;
        else store(policy, maxEntries, key);
      }
    }
    assert.ok(hits > 20 * 150 * 0.3, `${hits} hits`);
  });

  it('w-tinylfu refuses a one-off key rather than evict a key asked for often', () => {
    const policy = createEvictionPolicy<number>('w-tinylfu', { maxEntries: 1 });
    store(policy, 1, 7);
    for (let i = 0; i < 5; i++) policy.touch(7);
    assert.deepEqual(store(policy, 1, 8), [8]);
    assert.ok(policy.has(7));
  });
});
