import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parsePostPatch, parsePostRepresentation } from './post-representation.js';
import type { Post } from './store.js';

const current: Post = {
  oid: 'hello',
  title: 'Hello',
  body_html: '<p>Hi</p>',
  summary: 'Short',
  pub_date: '2026-05-01T00:00:00.000Z',
  categories: ['Web'],
};
const stored = { title: 'Hello', body: '<p>Hi</p>', summary: 'Short', categories: ['Web'], pub_date: '2026-05-01T00:00:00.000Z' };

/** Valid values of each writable field, as GET would show them. */
const fields = {
  title: fc.constantFrom('Other', 'Ünïcode 🙂', 'x'.repeat(200)),
  body_html: fc.constantFrom('<p>Other</p>', '<script>trusted()</script>'),
  summary: fc.constantFrom('', 'A summary'),
  pub_date: fc.constantFrom('2026-01-01T00:00:00.000Z', '1970-01-01T00:00:00.000Z'),
  categories: fc.constantFrom([], ['A', 'B']),
};

describe('parsePostRepresentation', () => {
  it('reads the same post when given the GET answer, its post alone or the fields as before', () => {
    const comments = { count: 1, items: [{ id: 1, name: 'n', comment: 'c', add_date: 'x' }] };
    for (const body of [{ post: current, comments }, { post: current }, current, stored]) {
      assert.deepEqual(parsePostRepresentation(body, { oid: 'hello' }), stored);
    }
  });

  it('refuses a changed oid with READ_ONLY_FIELD and ignores an unchanged one', () => {
    assert.throws(() => parsePostRepresentation({ ...current, oid: 'other' }, { oid: 'hello' }), { code: 'READ_ONLY_FIELD', status: 409 });
    assert.deepEqual(parsePostRepresentation({ ...stored, oid: 'hello' }, { oid: 'hello' }), stored);
  });
});

describe('parsePostPatch', () => {
  it('gives the patched fields their new values and keeps the others when given any patch of valid fields', () => {
    fc.assert(
      fc.property(fc.record(fields, { requiredKeys: [] }), (patch) => {
        const { body_html: body, ...rest } = { ...current, ...patch };
        const { oid: _oid, ...expected } = { ...rest, body };
        assert.deepEqual(parsePostPatch(current, patch), expected);
        assert.deepEqual(parsePostPatch(current, { post: patch }), expected);
      }),
    );
  });

  it('treats body as body_html and null as the default of an optional field', () => {
    assert.equal(parsePostPatch(current, { body: '<p>New</p>' }).body, '<p>New</p>');
    assert.deepEqual(parsePostPatch(current, { summary: null, categories: null }), { ...stored, summary: '', categories: [] });
  });

  it('refuses a null or changed oid, a removed post and a patch that is not an object', () => {
    assert.throws(() => parsePostPatch(current, { oid: null }), { code: 'READ_ONLY_FIELD' });
    assert.throws(() => parsePostPatch(current, { post: { oid: 'x' } }), { code: 'READ_ONLY_FIELD' });
    assert.throws(() => parsePostPatch(current, { post: null }), { code: 'INVALID_INPUT', message: /DELETE/ });
    for (const patch of [null, [], 'title', 7]) assert.throws(() => parsePostPatch(current, patch), { code: 'INVALID_INPUT' });
  });
});
