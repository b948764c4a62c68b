import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compareStreamIds, isStreamId, STREAM_START } from './stream-ids.js';

const id = fc.tuple(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }));

describe('compareStreamIds', () => {
  it('orders ids by milliseconds, then sequence, for any two ids', () => {
    fc.assert(
      fc.property(id, id, ([ms1, seq1], [ms2, seq2]) => {
        const expected = ms1 === ms2 ? Math.sign(Number(seq1 - seq2)) : Math.sign(Number(ms1 - ms2));
        assert.equal(compareStreamIds(`${ms1}-${seq1}`, `${ms2}-${seq2}`), expected);
        assert.equal(compareStreamIds(`${ms2}-${seq2}`, `${ms1}-${seq1}`), -expected);
      }),
    );
  });

  it('compares numerically where text order would not when ids differ in length', () => {
    assert.ok(compareStreamIds('10-0', '9-0') > 0);
    assert.ok(compareStreamIds('5-10', '5-9') > 0);
    assert.equal(compareStreamIds(STREAM_START, '0-0'), 0);
  });

  it('sorts anything that is not an id first when given garbage', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!isStreamId(text));
        assert.ok(compareStreamIds(text, '0-0') < 0);
        assert.ok(compareStreamIds('0-0', text) > 0);
        assert.equal(compareStreamIds(text, 'also not'), 0);
      }),
    );
  });
});
