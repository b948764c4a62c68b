import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { retryDelayMs } from './backoff.js';

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
