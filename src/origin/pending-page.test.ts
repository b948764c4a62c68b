import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isAppError } from '../errors.js';
import { decodeCursor, encodeCursor, PENDING_PAGE, parsePendingQuery } from './pending-page.js';

describe('pending comment cursors', () => {
  it('decodes to the id it was made from when given any positive safe integer', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (id) => decodeCursor(encodeCursor(id)) === id));
  });

  it('gives URL-safe strings with nothing to escape when made from any id', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (id) => /^[A-Za-z0-9_-]{1,64}$/.test(encodeCursor(id))));
  });

  it('either decodes or refuses with INVALID_CURSOR when given any string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.base64String(), fc.stringMatching(/^[A-Za-z0-9_-]{1,80}$/)), (text) => {
        try {
          const id = decodeCursor(text);
          assert.equal(encodeCursor(id), text);
        } catch (error) {
          assert.ok(isAppError(error) && error.code === 'INVALID_CURSOR', String(error));
        }
      }),
    );
  });

  it('refuses a cursor for id 0, a negative or unsafe id, padding or another version when given one', () => {
    const encode = (text: string) => Buffer.from(text).toString('base64url');
    for (const cursor of [encode('c1:0'), encode('c1:-5'), encode('c1:9007199254740993'), encode('c1:05'), encode('c2:5'), `${encodeCursor(5)}=`, encode('c1:5 ')]) {
      assert.throws(() => decodeCursor(cursor), { code: 'INVALID_CURSOR' }, cursor);
    }
  });
});

describe('parsePendingQuery', () => {
  it('answers the first page of the default size when given no or empty parameters', () => {
    for (const query of [undefined, {}, { limit: '' }, { cursor: '' }, { limit: '', cursor: '' }]) {
      assert.deepEqual(parsePendingQuery(query), { afterId: 0, limit: PENDING_PAGE.defaultLimit });
    }
  });

  it('answers the limit and the id after which to continue when both are valid', () => {
    assert.deepEqual(parsePendingQuery({ limit: '500', cursor: encodeCursor(41) }), { afterId: 41, limit: 500 });
    assert.deepEqual(parsePendingQuery({ limit: '1' }), { afterId: 0, limit: 1 });
  });

  it('refuses a limit outside 1-500 or not a plain whole number with INVALID_LIMIT', () => {
    for (const limit of ['0', '501', '1000', '-1', '+5', '1.5', '1e2', '0x10', ' 5', '5 ', 'abc', '٥', '05', ['5', '6']]) {
      assert.throws(() => parsePendingQuery({ limit }), { code: 'INVALID_LIMIT' }, JSON.stringify(limit));
    }
  });

  it('accepts exactly the whole numbers 1 to 500 when given any integer as text', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 100_000 }), (n) => {
        const valid = n >= 1 && n <= PENDING_PAGE.maxLimit;
        try {
          assert.equal(parsePendingQuery({ limit: String(n) }).limit, n);
          assert.ok(valid, String(n));
        } catch (error) {
          assert.ok(!valid && isAppError(error) && error.code === 'INVALID_LIMIT', String(n));
        }
      }),
    );
  });

  it('refuses unknown and repeated parameters when given them', () => {
    assert.throws(() => parsePendingQuery({ page: '2' }), { code: 'INVALID_INPUT', message: /unknown query parameter.*"page"/ });
    assert.throws(() => parsePendingQuery({ cursor: [encodeCursor(1), encodeCursor(2)] }), { code: 'INVALID_CURSOR' });
  });
});
