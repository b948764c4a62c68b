import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FrequencySketch } from './frequency-sketch.js';
import { hashKey } from './key-hash.js';

describe('FrequencySketch', () => {
  it('never estimates fewer requests than a key had, up to its ceiling of 15, before counts are halved (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { minLength: 1, maxLength: 150 }), (keys) => {
        // 150 additions stay below the first halving of a 16-wide table (160).
        const sketch = new FrequencySketch(16);
        const counts = new Map<string, number>();
        for (const key of keys) {
          sketch.increment(hashKey(key));
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        for (const [key, count] of counts) assert.ok(sketch.frequency(hashKey(key)) >= Math.min(count, 15), key);
      }),
    );
  });

  it('halves every count once additions reach ten times its width, so that old popularity fades', () => {
    const sketch = new FrequencySketch(16);
    const popular = hashKey('/popular');
    for (let i = 0; i < 12; i++) sketch.increment(popular);
    for (let i = 0; sketch.frequency(popular) >= 12; i++) sketch.increment(hashKey(`/one-off/${i}`));
    assert.ok(sketch.frequency(popular) >= 6 && sketch.frequency(popular) < 12);
  });

  it('starts afresh, wider, when asked to hold more keys than its width', () => {
    const sketch = new FrequencySketch(16);
    sketch.increment(hashKey('/a'));
    sketch.ensureCapacity(10);
    assert.equal(sketch.frequency(hashKey('/a')), 1);
    sketch.ensureCapacity(1_000);
    assert.equal(sketch.frequency(hashKey('/a')), 0);
  });
});

describe('hashKey', () => {
  it('hashes a string by its UTF-16 units and an integer by its bits, to unsigned 32-bit values', () => {
    assert.equal(hashKey('/ü'), hashKey('/ü'));
    assert.notEqual(hashKey('/a'), hashKey('/b'));
    assert.notEqual(hashKey(1), hashKey(2));
    for (const key of ['', '/x'.repeat(10_000), '\u{1F600}', 0, 0xffffffff]) {
      const hash = hashKey(key);
      assert.ok(Number.isInteger(hash) && hash >= 0 && hash <= 0xffffffff);
    }
  });
});
