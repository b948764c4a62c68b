import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ONE_TYPO_FROM, PINNED_TYPO_FROM, pinnable, pinnedTypoDistance, typoDistance } from './typo-rules.js';

describe('pinnedTypoDistance', () => {
  it('allows one edit when a word of two letters lost one, or one of three differs from another of three', () => {
    assert.deepEqual([pinnedTypoDistance(2, 3), pinnedTypoDistance(2, 2), pinnedTypoDistance(3, 3), pinnedTypoDistance(3, 2)], [1, 0, 1, 0]);
    assert.deepEqual([pinnedTypoDistance(1, 2), pinnedTypoDistance(3, 4), pinnedTypoDistance(4, 4)], [0, 0, 0], 'a longer pair has its own budget');
  });

  it('allows an edit only when the typo budget allows none, for any lengths', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }), (word, neighbour) => {
        const edits = pinnedTypoDistance(word, neighbour);
        assert.ok(edits === 0 || (typoDistance(Math.max(word, neighbour)) === 0 && neighbour >= word && word >= PINNED_TYPO_FROM));
      }),
    );
  });
});

describe('pinnable', () => {
  it('holds when a word of two letters or more is shorter than the typo budget reaches', () => {
    assert.deepEqual(
      Array.from({ length: ONE_TYPO_FROM + 1 }, (_, length) => pinnable(length)),
      Array.from({ length: ONE_TYPO_FROM + 1 }, (_, length) => length >= PINNED_TYPO_FROM && length < ONE_TYPO_FROM),
    );
  });
});
