import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { beginningText, bodyText, storedBody } from './stored-text.js';

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

describe('beginningText', () => {
  it('reads the first bytes of a body as the longest beginning of its text they hold whole, in any script (property)', () => {
    const text = fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: fc.constantFrom('a', ' ', 'é', 'ж', '国', '한', '😀', '\u0301') }), fc.string());
    fc.assert(
      fc.property(text, fc.nat(), (value, at) => {
        const stored = storedBody(value);
        const bytes = typeof stored === 'string' ? Buffer.from(stored, 'utf8') : stored;
        const end = at % (bytes.length + 1);
        const read = beginningText(bytes.subarray(0, end), typeof stored === 'string', end < bytes.length);
        // Lone surrogates are stored as U+FFFD, as SQLite stores them.
        const expected = Buffer.from(value, 'utf8').toString('utf8');
        assert.ok(expected.startsWith(read), `${JSON.stringify(read)} begins ${JSON.stringify(expected)}`);
        assert.ok(Buffer.byteLength(read, typeof stored === 'string' ? 'utf8' : 'latin1') <= end);
        const next = Array.from(expected.slice(read.length))[0];
        if (next !== undefined) assert.ok(Buffer.byteLength(read + next, typeof stored === 'string' ? 'utf8' : 'latin1') > end, 'no whole character is left out');
      }),
      { numRuns: 2000 },
    );
  });

  it('reads NULL as empty', () => {
    assert.equal(beginningText(null, true, false), '');
  });
});

