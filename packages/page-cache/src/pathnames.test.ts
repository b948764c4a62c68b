import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validatePathnames, validatePurgeBody } from './pathnames.js';

const limits = { maxPathnames: 1000, maxPathnameLength: 2048, maxKeys: 1000 };
const message = (value: unknown) => {
  const result = validatePurgeBody(value, limits);
  return result.ok ? 'ok' : result.message;
};

describe('validatePurgeBody', () => {
  it('accepts a non-empty array of pathnames when each starts with a slash', () => {
    assert.deepEqual(validatePurgeBody({ pathnames: ['/', '/plog/a', '/a/../b', '/caf\u00e9', '/\u{1F600}'] }, limits), {
      ok: true,
      pathnames: ['/', '/plog/a', '/a/../b', '/caf\u00e9', '/\u{1F600}'],
    });
  });

  it('rejects a body that is not an object with pathnames', () => {
    for (const body of [null, 1, 'x', [], ['/a']]) assert.equal(message(body), 'body must be a JSON object with a pathnames or keys array');
    for (const body of [{}, { pathnames: '/a' }, { pathnames: [] }, { pathnames: { 0: '/a' } }]) {
      assert.equal(message(body), 'pathnames must be a non-empty array of strings');
    }
  });

  it('names the first bad entry when an entry is invalid', () => {
    assert.equal(message({ pathnames: ['/a', 1] }), 'pathnames[1] must be a string');
    assert.equal(message({ pathnames: ['/a', ['/b']] }), 'pathnames[1] must be a string');
    assert.equal(message({ pathnames: [null] }), 'pathnames[0] must be a string');
    assert.equal(message({ pathnames: ['a'] }), "pathnames[0] must start with '/'");
    assert.equal(message({ pathnames: [''] }), "pathnames[0] must start with '/'");
    assert.equal(message({ pathnames: ['/a\nb'] }), 'pathnames[0] must not contain control characters');
    assert.equal(message({ pathnames: ['/a\u0000'] }), 'pathnames[0] must not contain control characters');
    assert.equal(message({ pathnames: ['/a\u0085'] }), 'pathnames[0] must not contain control characters');
  });

  it('enforces the count and length limits when they are exceeded', () => {
    assert.equal(message({ pathnames: Array.from({ length: 1000 }, (_, i) => `/${i}`) }), 'ok');
    assert.equal(message({ pathnames: Array.from({ length: 1001 }, (_, i) => `/${i}`) }), 'pathnames must hold at most 1000 entries, got 1001');
    assert.equal(message({ pathnames: [`/${'a'.repeat(2047)}`] }), 'ok');
    assert.equal(message({ pathnames: [`/${'a'.repeat(2048)}`] }), 'pathnames[0] must be at most 2048 characters');
  });

  it('applies custom limits when given', () => {
    assert.equal(validatePathnames(['/a', '/b'], { maxPathnames: 1, maxPathnameLength: 10 }).ok, false);
  });
});
