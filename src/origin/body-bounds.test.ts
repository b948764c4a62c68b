import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { silentLogger } from '../log.js';
import { createOriginApp } from './app.js';
import { openOriginDatabase, type OriginDatabase } from './database.js';
import { BODY_LIMITS, LIMITS } from './validation.js';

const TOKEN = 'body-bounds-token';
const OID = 'bounded-post';
let db: OriginDatabase;
let app: FastifyInstance;
let base: string;

const validPost = { title: 'Bounded', body: '<p>Text</p>', summary: 'Short', categories: ['Web'], pub_date: '2026-11-01' };

async function send(method: string, path: string, body: string | Buffer, options: { type?: string; token?: boolean } = {}) {
  const headers: Record<string, string> = { 'content-type': options.type ?? 'application/json' };
  if (options.token !== false) headers.authorization = `Bearer ${TOKEN}`;
  const response = await fetch(`${base}${path}`, { method, headers, body: typeof body === 'string' ? body : new Uint8Array(body) });
  const text = await response.text();
  return { status: response.status, json: () => JSON.parse(text) as { error: string; code: string } };
}

/** `prefix`, the bad bytes (`A\xff\xfeB`), then `suffix`: a JSON text whose one string holds invalid UTF-8. */
function badBytes(prefix: string, suffix: string): Buffer {
  return Buffer.concat([Buffer.from(`${prefix}A`), Buffer.from([0xff, 0xfe]), Buffer.from(`B${suffix}`)]);
}

/** Everything a request could change, to prove a refused request wrote nothing. */
function snapshot(): string {
  return JSON.stringify(['posts', 'comments', 'purge_jobs'].map((table) => db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all()));
}

/** Only escapes: `\uXXXX` for every character, surrogate pairs for those past U+FFFF, as ASCII-only JSON encoders write. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

before(async () => {
  db = openOriginDatabase(':memory:');
  app = await createOriginApp({ db, logger: silentLogger(), adminToken: TOKEN, commentRateLimit: { max: 1000, windowMs: 60_000 } });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  assert.equal((await send('PUT', `/api/v1/plog/${OID}`, JSON.stringify(validPost))).status, 201);
});
after(async () => {
  await app.close();
  db.close();
});

describe('origin JSON bodies with invalid UTF-8', () => {
  const cases: { what: string; method: string; path: string; body: Buffer; type?: string; field: string }[] = [
    { what: 'a PUT title', method: 'PUT', path: `/api/v1/plog/${OID}`, body: badBytes('{"title":"', `","body":"<p>x</p>","pub_date":"2026-11-02"}`), field: 'title' },
    { what: 'a PUT body', method: 'PUT', path: `/api/v1/plog/${OID}`, body: badBytes('{"title":"t","body":"<p>', `</p>","pub_date":"2026-11-02"}`), field: 'body' },
    { what: 'a PUT category', method: 'PUT', path: '/api/v1/plog/other-post', body: badBytes('{"title":"t","body":"x","categories":["Web","', `"],"pub_date":"2026-11-02"}`), field: 'categories[1]' },
    { what: 'a PUT in GET\'s shape', method: 'PUT', path: `/api/v1/plog/${OID}`, body: badBytes('{"post":{"title":"', `","body_html":"x","pub_date":"2026-11-02"}}`), field: 'post.title' },
    { what: 'a PATCH summary', method: 'PATCH', path: `/api/v1/plog/${OID}`, body: badBytes('{"summary":"', '"}'), type: 'application/merge-patch+json', field: 'summary' },
    { what: 'a PATCH sent as application/json', method: 'PATCH', path: `/api/v1/plog/${OID}`, body: badBytes('{"title":"', '"}'), field: 'title' },
    { what: 'a comment', method: 'POST', path: `/api/v1/plog/${OID}/comments`, body: badBytes('{"name":"Ann","comment":"', '"}'), field: 'comment' },
    { what: 'a commenter name', method: 'POST', path: `/api/v1/plog/${OID}/comments`, body: badBytes('{"name":"', '","comment":"hi"}'), field: 'name' },
    { what: 'a field name', method: 'PUT', path: `/api/v1/plog/${OID}`, body: badBytes('{"', `":"x","title":"t"}`), field: 'a field name in the body' },
    { what: 'bytes between values', method: 'POST', path: `/api/v1/plog/${OID}/comments`, body: badBytes('{"name":"Ann","comment":"hi"}', ''), field: 'the body' },
  ];
  for (const testCase of cases) {
    it(`answers 400 INVALID_UTF8 naming ${testCase.field} and stores nothing when ${testCase.what} holds bad bytes`, async () => {
      const before = snapshot();
      const response = await send(testCase.method, testCase.path, testCase.body, testCase.type === undefined ? {} : { type: testCase.type });
      assert.equal(response.status, 400);
      const { error, code } = response.json();
      assert.equal(code, 'INVALID_UTF8');
      assert.ok(error.startsWith(`${testCase.field} is not valid UTF-8 (byte `), error);
      assert.equal(snapshot(), before);
    });
  }

  it('refuses an unauthenticated write with bad bytes as unauthenticated, before reading the body', async () => {
    const response = await send('PUT', `/api/v1/plog/${OID}`, badBytes('{"title":"', '"}'), { token: false });
    assert.equal(response.status, 401);
  });
});

describe('origin body limits', () => {
  const wide = { 'a 3-byte': '漢', 'a 4-byte': '😀' } as const;
  for (const [kind, character] of Object.entries(wide)) {
    for (const [spelling, encode] of [['raw UTF-8', JSON.stringify], ['\\u escapes', asciiJson]] as const) {
      it(`takes a post body of ${LIMITS.bodyLength} ${kind} characters in ${spelling}, and refuses one more naming body`, async () => {
        const at = encode({ ...validPost, body: character.repeat(LIMITS.bodyLength) });
        assert.ok(Buffer.byteLength(at) <= BODY_LIMITS.post);
        assert.equal((await send('PUT', `/api/v1/plog/${OID}`, at)).status, 200);
        const before = snapshot();
        const over = await send('PUT', `/api/v1/plog/${OID}`, encode({ ...validPost, body: character.repeat(LIMITS.bodyLength + 1) }));
        assert.equal(over.status, 400);
        assert.deepEqual(over.json(), { error: `body must be at most ${LIMITS.bodyLength} characters`, code: 'INVALID_INPUT' });
        assert.equal(snapshot(), before);
      });

      it(`takes a comment of ${LIMITS.commentLength} ${kind} characters and a name of ${LIMITS.nameLength} in ${spelling}, and refuses one more`, async () => {
        const path = `/api/v1/plog/${OID}/comments`;
        const name = character.repeat(LIMITS.nameLength);
        assert.equal((await send('POST', path, encode({ name, comment: character.repeat(LIMITS.commentLength) }))).status, 201);
        const before = snapshot();
        const longComment = await send('POST', path, encode({ name, comment: character.repeat(LIMITS.commentLength + 1) }));
        assert.deepEqual(longComment.json(), { error: `comment must be at most ${LIMITS.commentLength} characters`, code: 'INVALID_INPUT' });
        const longName = await send('POST', path, encode({ name: `${name}${character}`, comment: 'hi' }));
        assert.deepEqual(longName.json(), { error: `name must be at most ${LIMITS.nameLength} characters`, code: 'INVALID_INPUT' });
        assert.equal(snapshot(), before);
      });
    }
  }

  it('answers 413 past the byte limit of each route, and writes nothing', async () => {
    const before = snapshot();
    const post = await send('PUT', `/api/v1/plog/${OID}`, JSON.stringify({ ...validPost, body: 'x'.repeat(BODY_LIMITS.post) }));
    assert.equal(post.status, 413);
    const comment = await send('POST', `/api/v1/plog/${OID}/comments`, JSON.stringify({ name: 'Ann', comment: 'x'.repeat(BODY_LIMITS.comment) }));
    assert.equal(comment.status, 413);
    assert.equal(snapshot(), before);
  });
});
