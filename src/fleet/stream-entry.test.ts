import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeEntry, encodeEntry, OVERSIZED_FIELD } from './stream-entry.js';

// eslint-disable-next-line no-control-regex -- a pathname may hold anything but control characters
const pathname = fc.string({ minLength: 0, maxLength: 40 }).map((text) => `/${text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')}`);
const key = fc.stringMatching(/^[\x21-\x7e]{1,40}$/);

describe('stream entries', () => {
  it('decodes what it encodes for any pathnames and keys a purge route takes', () => {
    fc.assert(
      fc.property(fc.array(pathname, { minLength: 1, maxLength: 20 }), fc.array(key, { maxLength: 20 }), (pathnames, keys) => {
        const decoded = decodeEntry(encodeEntry({ pathnames, keys }));
        assert.ok(decoded.ok);
        assert.deepEqual(decoded.request, keys.length === 0 ? { pathnames } : { pathnames, keys });
      }),
    );
  });

  it('refuses every malformed entry with a reason, never throwing, when given any fields', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant('pathnames'), fc.constant('keys'), fc.constant('[]'))), (fields) => {
        const decoded = decodeEntry(fields);
        if (!decoded.ok) assert.ok(decoded.reason.length > 0);
      }),
    );
  });

  it('names what is wrong when an entry is hostile', () => {
    const reason = (fields: unknown[]) => {
      const decoded = decodeEntry(fields);
      return decoded.ok ? 'accepted' : decoded.reason;
    };
    assert.match(reason(['pathnames']), /pairs/);
    assert.match(reason(['other', 'x']), /neither/);
    assert.match(reason(['pathnames', '{']), /not JSON/);
    assert.match(reason(['pathnames', '[]']), /non-empty/);
    assert.match(reason(['pathnames', '["a"]']), /start with/);
    assert.match(reason(['keys', '["a b"]']), /visible ASCII/);
    assert.match(reason(['pathnames', JSON.stringify(Array.from({ length: 1_001 }, (_, index) => `/${index}`))]), /at most 1000/);
    assert.match(reason([OVERSIZED_FIELD, '5000000']), /5000000 bytes/);
    assert.equal(reason(['pathnames', '["/a"]', 'future-field', 'ignored']), 'accepted');
  });
});
