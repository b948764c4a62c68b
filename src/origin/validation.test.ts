import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AppError } from '../errors.js';
import { OID_PATTERN, parseCommentId, parseCommentInput, parseOid, parsePostInput, parsePubDate } from './validation.js';

const validPost = { title: 'Hello', body: '<p>Hi</p>', summary: 'S', categories: ['Web'], pub_date: '2026-05-01' };

function rejects(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => error instanceof AppError && error.status === 400 && pattern.test(error.message));
}

describe('parseOid', () => {
  it('accepts lower-case slugs when they have single hyphens between parts', () => {
    assert.equal(parseOid('hello-world-2'), 'hello-world-2');
  });

  it('refuses anything that is not a slug when given hostile or odd identifiers', () => {
    for (const oid of ['', 'Hello', 'a--b', '-a', 'a-', '../etc', 'a b', 'é', 'a%2F', 'a'.repeat(101), 'a\u0000', '🙂']) {
      rejects(() => parseOid(oid), /oid must be/);
    }
  });

  it('answers only URL-safe strings for any input it accepts', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 120 }), (value) => {
        try {
          const oid = parseOid(value);
          return OID_PATTERN.test(oid) && encodeURIComponent(oid) === oid;
        } catch (error) {
          return error instanceof AppError && error.status === 400;
        }
      }),
    );
  });
});

describe('parseCommentId', () => {
  it('accepts positive integers and refuses the rest when given strings', () => {
    assert.equal(parseCommentId('42'), 42);
    for (const id of ['0', '-1', '1.5', '01', 'x', '99999999999999999', '1e3', '']) rejects(() => parseCommentId(id), /positive integer/);
  });
});

describe('parsePubDate', () => {
  it('normalises dates and date-times with zones to UTC ISO', () => {
    assert.equal(parsePubDate('2026-05-01'), '2026-05-01T00:00:00.000Z');
    assert.equal(parsePubDate('2026-05-01T10:30:00+02:00'), '2026-05-01T08:30:00.000Z');
  });

  it('refuses impossible or zone-less dates', () => {
    for (const value of ['2026-02-30', '2026-13-01', '2026-05-01T10:00', 'yesterday', 1_700_000_000, '1969-12-31', null]) {
      rejects(() => parsePubDate(value), /pub_date/);
    }
  });
});

describe('parsePostInput', () => {
  it('trims, normalises to NFC and deduplicates categories when the input is valid', () => {
    const input = parsePostInput({ ...validPost, title: '  Cafe\u0301  ', categories: ['Web', 'Web', 'Ünïcode'] });
    assert.equal(input.title, 'Café');
    assert.deepEqual(input.categories, ['Web', 'Ünïcode']);
    assert.equal(input.pub_date, '2026-05-01T00:00:00.000Z');
  });

  it('keeps the admin HTML of the body as written', () => {
    assert.equal(parsePostInput({ ...validPost, body: '<h2 id="x">X</h2><script>ok()</script>' }).body, '<h2 id="x">X</h2><script>ok()</script>');
  });

  it('takes the body from body_html when the fields are named as GET names them', () => {
    const { body: _body, ...rest } = validPost;
    assert.equal(parsePostInput({ ...rest, body_html: '<p>From GET</p>' }).body, '<p>From GET</p>');
  });

  it('reads the source as html unless format says markdown, and takes body and body_html when they agree', () => {
    assert.equal(parsePostInput(validPost).format, 'html');
    assert.equal(parsePostInput({ ...validPost, format: null }).format, 'html');
    assert.deepEqual(parsePostInput({ ...validPost, format: 'markdown', body: '# Hi' }), { ...parsePostInput(validPost), format: 'markdown', body: '# Hi' });
    assert.equal(parsePostInput({ ...validPost, body_html: validPost.body }).body, validPost.body);
  });

  it('tells which spelling of the body was edited by the stored post', () => {
    const stored = { body: '<p onclick="x()">Hi</p>', body_html: '<p>Hi</p>' };
    assert.equal(parsePostInput({ ...validPost, body: 'new', body_html: '<p>Hi</p>' }, stored).body, 'new');
    assert.equal(parsePostInput({ ...validPost, body: stored.body, body_html: '<p>new</p>' }, stored).body, '<p>new</p>');
    rejects(() => parsePostInput({ ...validPost, body: 'a', body_html: 'b' }, stored), /not both/);
    rejects(() => parsePostInput({ ...validPost, format: 'markdown', body: stored.body, body_html: 'b' }, stored), /body_html is rendered from body/);
  });

  it('refuses each malformed field with a message naming it', () => {
    const { title: _title, ...untitled } = validPost;
    const cases: [unknown, RegExp][] = [
      [null, /JSON object/],
      [untitled, /title is required/],
      [{ ...validPost, body_html: '<p>Other</p>' }, /body or as body_html, not both/],
      [{ ...validPost, body: undefined, body_html: 7 }, /body_html must be a string/],
      [[], /JSON object/],
      ['text', /JSON object/],
      [{ ...validPost, extra: 1 }, /unknown field/],
      [{ ...validPost, title: '' }, /title must not be empty/],
      [{ ...validPost, title: '   ' }, /title must not be empty/],
      [{ ...validPost, title: 7 }, /title must be a string/],
      [{ ...validPost, title: 'x'.repeat(201) }, /title must be at most/],
      [{ ...validPost, title: 'a\nb' }, /control characters/],
      [{ ...validPost, title: 'a\u202Eb\u0007' }, /control characters/],
      [{ ...validPost, body: 'x\u0000y' }, /control characters/],
      [{ ...validPost, body: '\ud800' }, /control characters/],
      [{ ...validPost, categories: 'Web' }, /categories must be an array/],
      [{ ...validPost, categories: [1] }, /categories must be an array/],
      [{ ...validPost, categories: Array.from({ length: 11 }, (_, i) => `c${i}`) }, /at most 10/],
      [{ ...validPost, categories: ['<b>'] }, /each category/],
      [{ ...validPost, pub_date: undefined }, /pub_date/],
    ];
    for (const [body, pattern] of cases) rejects(() => parsePostInput(body), pattern);
  });
});

describe('parseCommentInput', () => {
  it('keeps line breaks in the comment and refuses them in the name', () => {
    assert.deepEqual(parseCommentInput({ name: 'Zoë', comment: 'one\ntwo' }), { name: 'Zoë', comment: 'one\ntwo' });
    rejects(() => parseCommentInput({ name: 'a\nb', comment: 'x' }), /name must not contain control/);
  });

  it('refuses missing, oversized and non-string fields', () => {
    rejects(() => parseCommentInput({ name: 'a' }), /comment is required/);
    rejects(() => parseCommentInput({ name: 'a', comment: 'x'.repeat(5001) }), /at most 5000/);
    rejects(() => parseCommentInput({ name: ['a'], comment: 'x' }), /name must be a string/);
    rejects(() => parseCommentInput({ name: 'a', comment: 'x', approved: true }), /unknown field/);
  });
});
