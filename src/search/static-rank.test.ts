import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FILED_PREFIX_LENGTH, RANK_BUCKETS, ROWIDS_PER_BUCKET, bucketStart, rankBucket, rankCandidates, titlePrefixes } from './static-rank.js';

describe('rankBucket', () => {
  it('gives a more popular document a lower bucket, so its rowids come first', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b) => {
        if (a > b) assert.ok(rankBucket(a) <= rankBucket(b));
        const lastOfA = bucketStart(rankBucket(a)) + BigInt(ROWIDS_PER_BUCKET) - 1n;
        if (rankBucket(a) < rankBucket(b)) assert.ok(lastOfA < bucketStart(rankBucket(b)));
      }),
    );
  });

  it('keeps every rowid a safe integer when popularity is at either end or out of range', () => {
    assert.equal(rankBucket(1), 0);
    assert.equal(rankBucket(0), RANK_BUCKETS);
    assert.equal(rankBucket(-3), RANK_BUCKETS);
    assert.equal(rankBucket(Number.NaN), RANK_BUCKETS);
    assert.ok(bucketStart(RANK_BUCKETS) + BigInt(ROWIDS_PER_BUCKET) <= BigInt(Number.MAX_SAFE_INTEGER));
  });
});

describe('titlePrefixes', () => {
  it('files the first 1 to FILED_PREFIX_LENGTH characters by code point', () => {
    assert.deepEqual(titlePrefixes('ab😀'), ['a', 'ab', 'ab😀']);
    assert.equal(titlePrefixes('x'.repeat(40)).length, FILED_PREFIX_LENGTH);
    assert.deepEqual(titlePrefixes(''), []);
  });
});

describe('rankCandidates', () => {
  const candidates = [
    { rowid: 1, popularity: 1, score: 1 },
    { rowid: 2, popularity: 0, score: 12 },
    { rowid: 3, popularity: 0.5, score: 5 },
    { rowid: 4, popularity: 0.5, score: 6 },
  ];
  it('orders by each sort formula, ties by static rank', () => {
    assert.deepEqual(rankCandidates(candidates, 'best').map((c) => c.rowid), [2, 1, 4, 3], 'rowid 1 and 4 tie at 11');
    assert.deepEqual(rankCandidates(candidates, 'relevance').map((c) => c.rowid), [2, 4, 3, 1]);
    assert.deepEqual(rankCandidates(candidates, 'popularity').map((c) => c.rowid), [1, 4, 3, 2]);
    assert.deepEqual(rankCandidates([{ rowid: 9, popularity: 0, score: 1 }, { rowid: 5, popularity: 0, score: 1 }], 'best').map((c) => c.rowid), [5, 9]);
  });
});
