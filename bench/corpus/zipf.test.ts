import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { seededRandom } from '../../src/seeded-random.js';
import { zipfSampler } from './zipf.js';

describe('zipfSampler', () => {
  it('draws only the items it is given, one random number per draw, whatever the numbers', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 50 }), fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 20 }), (items, numbers) => {
        let drawn = 0;
        const sample = zipfSampler(items);
        for (const number of numbers) {
          const item = sample(() => {
            drawn++;
            return number;
          });
          assert.ok(items.includes(item));
        }
        assert.equal(drawn, numbers.length);
      }),
    );
  });

  it('draws an item about as often as 1 over its rank when many are drawn', () => {
    const items = ['a', 'b', 'c', 'd'];
    const sample = zipfSampler(items);
    const random = seededRandom(7);
    const counts = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      const item = sample(random);
      counts.set(item, (counts.get(item) ?? 0) + 1);
    }
    const first = counts.get('a') ?? 0;
    for (const [rank, item] of items.entries()) {
      assert.ok(Math.abs((counts.get(item) ?? 0) * (rank + 1) - first) < first * 0.1, `${item}: ${counts.get(item)}`);
    }
  });
});
