import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Revalidations, staleServable } from './soft-purge.js';

describe('staleServable', () => {
  it('answers from a stale copy up to staleMaxMs after its purge, and not a millisecond later', () => {
    assert.equal(staleServable(1_000, 1_000, 500), true);
    assert.equal(staleServable(1_000, 1_500, 500), true);
    assert.equal(staleServable(1_000, 1_501, 500), false);
  });

  it('agrees with the age of the copy when the times are any', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 1e9 }), (staleSince, age, max) => {
        assert.equal(staleServable(staleSince, staleSince + age, max), age <= max);
      }),
    );
  });
});

describe('Revalidations', () => {
  it('starts one revalidation per key while one is under way', () => {
    const revalidations = new Revalidations(1_000);
    assert.equal(revalidations.begin('/a', 0), true);
    assert.equal(revalidations.begin('/a', 10), false);
    assert.equal(revalidations.begin('/b', 10), true);
  });

  it('starts another when the one under way has run for longer than staleMaxMs', () => {
    const revalidations = new Revalidations(1_000);
    revalidations.begin('/a', 0);
    assert.equal(revalidations.begin('/a', 1_000), false);
    assert.equal(revalidations.begin('/a', 1_001), true);
  });

  it('starts another once the one under way has ended', () => {
    const revalidations = new Revalidations(1_000);
    revalidations.begin('/a', 0);
    revalidations.end('/a', 0);
    assert.equal(revalidations.begin('/a', 5), true);
  });

  it('keeps the one that replaced a lost revalidation when the lost one ends late', () => {
    const revalidations = new Revalidations(1_000);
    revalidations.begin('/a', 0);
    revalidations.begin('/a', 2_000);
    revalidations.end('/a', 0);
    assert.equal(revalidations.begin('/a', 2_500), false);
  });
});
