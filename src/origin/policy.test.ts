import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { groupByMonth, pathnamesForPost, retryDelayMs } from './policy.js';

const post = (oid: string, pub_date: string) => ({ oid, title: oid, pub_date, categories: [], comments: 0 });

describe('groupByMonth', () => {
  it('groups consecutive posts of one month under YYYY.MM when posts are newest first', () => {
    const groups = groupByMonth([
      post('c', '2026-05-02T00:00:00.000Z'),
      post('b', '2026-05-01T00:00:00.000Z'),
      post('a', '2026-04-30T23:59:59.000Z'),
      post('z', '2025-12-31T00:00:00.000Z'),
    ]);
    assert.deepEqual(
      groups.map((group) => [group.date, group.posts.map((p) => p.oid)]),
      [
        ['2026.05', ['c', 'b']],
        ['2026.04', ['a']],
        ['2025.12', ['z']],
      ],
    );
  });

  it('answers no groups when there are no posts', () => {
    assert.deepEqual(groupByMonth([]), []);
  });
});

describe('pathnamesForPost', () => {
  it('lists the post, the home page and the archive when a post changes', () => {
    assert.deepEqual(pathnamesForPost('hello'), ['/plog/hello', '/', '/plog']);
  });
});

describe('retryDelayMs', () => {
  it('stays within half and all of the capped exponential delay for any attempt and jitter', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempts, random) => {
        const policy = { baseMs: 100, maxMs: 10_000 };
        const full = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempts - 1));
        const delay = retryDelayMs(attempts, policy, random);
        return delay >= full / 2 - 1 && delay <= full + 1;
      }),
    );
  });

  it('doubles the delay with each attempt until the cap when the jitter is fixed', () => {
    const policy = { baseMs: 100, maxMs: 1_000 };
    assert.deepEqual([1, 2, 3, 4, 5, 6].map((attempts) => retryDelayMs(attempts, policy, 0)), [50, 100, 200, 400, 500, 500]);
  });
});
