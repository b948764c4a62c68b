import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bodyText, storedBody } from './stored-text.js';

describe('storedBody', () => {
  it('stores Latin-1 text as one byte a character and anything else as it is, and reads both back (property)', () => {
    const text = fc.oneof(fc.string({ unit: fc.constantFrom('a', 'Z', ' ', 'é', 'ß', 'ÿ', '\u00a0', '«') }), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }));
    fc.assert(
      fc.property(text, (value) => {
        const stored = storedBody(value);
        assert.equal(typeof stored === 'string', [...value].some((character) => character.charCodeAt(0) > 0xff));
        assert.equal(bodyText(stored), value);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads the beginning of an empty body, which SQLite gives as NULL, as empty', () => {
    assert.equal(bodyText(null), '');
  });
});
