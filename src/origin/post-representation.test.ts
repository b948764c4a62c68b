import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parsePostPatch, parsePostRepresentation } from './post-representation.js';
import type { PostWithSource } from './store.js';

const current: PostWithSource = {
  oid: 'hello',
  title: 'Hello',
  format: 'html',
  body: '<p>Hi</p>',
  body_html: '<p>Hi</p>',
  summary: 'Short',
  pub_date: '2026-05-01T00:00:00.000Z',
  categories: ['Web'],
};
const stored = { title: 'Hello', format: 'html', body: '<p>Hi</p>', summary: 'Short', categories: ['Web'], pub_date: '2026-05-01T00:00:00.000Z' };

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

describe('the source of a write', () => {
  const markdown: PostWithSource = { ...current, format: 'markdown', body: '# Hi', body_html: '<h1 id="hi">Hi</h1>' };

  it('takes body as the source when GET\'s answer comes back with body_html unchanged', () => {
    assert.equal(parsePostPatch(markdown, { body: '## New' }).body, '## New');
    assert.equal(parsePostRepresentation({ ...markdown, body: '## New' }, { oid: 'hello' }, markdown).body, '## New');
    assert.deepEqual(parsePostPatch(markdown, { title: 'T' }), { ...stored, title: 'T', format: 'markdown', body: '# Hi' });
  });

  it('takes body_html as the source of an html post when only it was changed', () => {
    const sanitised: PostWithSource = { ...current, body: '<p onclick="x()">Hi</p>', body_html: '<p>Hi</p>' };
    assert.equal(parsePostPatch(sanitised, { body_html: '<p>Edited</p>' }).body, '<p>Edited</p>');
    assert.equal(parsePostPatch(sanitised, { title: 'T' }).body, '<p onclick="x()">Hi</p>');
  });

  it('reads the same source as another format when only format changes, and html when format is removed', () => {
    assert.deepEqual(parsePostPatch(current, { format: 'markdown' }), { ...stored, format: 'markdown' });
    assert.equal(parsePostPatch(markdown, { format: null }).format, 'html');
  });

  it('refuses both spellings changed, body_html as a Markdown source, an unknown format and a removed body', () => {
    assert.throws(() => parsePostPatch(current, { body: '<p>a</p>', body_html: '<p>b</p>' }), { code: 'INVALID_INPUT', message: /not both/ });
    assert.throws(() => parsePostPatch(markdown, { body_html: '<p>b</p>' }), { code: 'INVALID_INPUT', message: /body_html is rendered from body/ });
    assert.throws(() => parsePostRepresentation({ ...stored, body: undefined, body_html: 'x', format: 'markdown' }, { oid: 'hello' }), { message: /rendered from body/ });
    for (const format of ['Markdown', 'md', '', 1, ['html'], { html: true }]) {
      assert.throws(() => parsePostPatch(current, { format }), { code: 'INVALID_INPUT', message: /format must be one of "markdown", "html"/ });
    }
    for (const patch of [{ body: null }, { body_html: null }, { post: { body: null } }]) {
      assert.throws(() => parsePostPatch(current, patch), { code: 'INVALID_INPUT', message: /body is required/ });
    }
  });
});
