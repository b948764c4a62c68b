import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  FILED_PREFIX_LENGTH,
  PARTITIONED_BASE,
  PARTITIONS,
  RANK_BUCKETS,
  localePartition,
  partitionOf,
  partitionRange,
  popularityOf,
  rankBucket,
  rankCandidates,
  rowidBlock,
  staticRank,
  titlePrefixes,
} from './static-rank.js';

describe('popularityOf', () => {
  it('gives back the popularity of any rowid of its step, within half a step (property)', () => {
    const halfStep = 0.5 / (RANK_BUCKETS - 1) + 1e-12;
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: PARTITIONS - 1 }), fc.integer({ min: 0, max: 2 ** 24 - 1 }), (popularity, partition, offset) => {
        const [first] = rowidBlock(partition, rankBucket(popularity));
        assert.ok(Math.abs(popularityOf(Number(first) + offset) - popularity) <= halfStep);
      }),
    );
    assert.equal(popularityOf(Number(rowidBlock(3, 0)[0])), 1);
    assert.equal(popularityOf(Number(rowidBlock(3, RANK_BUCKETS - 1)[0])), 0);
  });
});

describe('rankBucket and rowidBlock', () => {
  const popularity = fc.double({ min: 0, max: 1, noNaN: true });
  const partition = fc.integer({ min: 0, max: PARTITIONS - 1 });

  it('gives a more popular document of a partition lower rowids, so its postings come first', () => {
    fc.assert(
      fc.property(popularity, popularity, partition, (a, b, p) => {
        if (a > b) assert.ok(rankBucket(a) <= rankBucket(b));
        const [, endOfA] = rowidBlock(p, rankBucket(a));
        const [startOfB] = rowidBlock(p, rankBucket(b));
        if (rankBucket(a) < rankBucket(b)) assert.ok(endOfA <= startOfB);
      }),
    );
  });

  it('keeps every block inside its partition, and every rowid a safe negative integer', () => {
    fc.assert(
      fc.property(popularity, partition, (a, p) => {
        const [start, end] = rowidBlock(p, rankBucket(a));
        const [low, high] = partitionRange(p);
        assert.ok(start >= BigInt(low) && end - 1n <= BigInt(high));
        assert.equal(partitionOf(Number(start)), p);
        assert.equal(partitionOf(Number(end - 1n)), p);
      }),
    );
    assert.equal(rankBucket(1), 0);
    assert.equal(rankBucket(0), RANK_BUCKETS - 1);
    assert.equal(rankBucket(-3), RANK_BUCKETS - 1);
    assert.equal(rankBucket(Number.NaN), RANK_BUCKETS - 1);
    assert.ok(BigInt(PARTITIONED_BASE) >= BigInt(Number.MIN_SAFE_INTEGER));
    assert.ok((rowidBlock(PARTITIONS - 1, RANK_BUCKETS - 1)[1] as bigint) <= 0n);
  });

  it('ranks rowids of different partitions by popularity step alone', () => {
    const [popularInOne] = rowidBlock(200, rankBucket(0.9));
    const [unpopularInOther] = rowidBlock(3, rankBucket(0.1));
    assert.ok(staticRank(Number(popularInOne)) < staticRank(Number(unpopularInOther)));
  });

  it('spreads locales over partitions, case being folded by the caller', () => {
    for (const locale of ['en-us', 'fr', 'de', 'zh-cn', 'pt-br']) {
      const p = localePartition(locale);
      assert.ok(Number.isInteger(p) && p >= 0 && p < PARTITIONS);
      assert.equal(localePartition(locale), p);
    }
    assert.notEqual(localePartition('en-us'), localePartition('fr'));
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
