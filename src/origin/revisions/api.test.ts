import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { originAppForSuite } from '../test-support/origin-app.js';

const TOKEN = 'revisions-api-token';
const origin = originAppForSuite({ adminToken: TOKEN });

interface Answer {
  status: number;
  headers: Headers;
  json: () => Record<string, unknown>;
}

async function send(method: string, path: string, options: { body?: unknown; raw?: string; token?: string | null; type?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token !== null) headers.authorization = `Bearer ${options.token ?? TOKEN}`;
  const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (payload !== undefined) headers['content-type'] = options.type ?? 'application/json';
  const response = await fetch(`${origin.base}${path}`, { method, headers, body: payload, redirect: 'manual' });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: () => JSON.parse(text) as Record<string, unknown> };
}

const post = (title: string, body = `# ${title}\n\nSome *text*.`) => ({ title, format: 'markdown', body, categories: ['Web'], pub_date: '2026-03-04' });
const rename = (from: string, to: unknown, token?: string | null) => send('POST', `/api/v1/plog/${from}/rename`, { body: { to }, token });
const snapshot = () => JSON.stringify(['posts', 'comments', 'post_redirects', 'post_revisions', 'purge_jobs', 'search_jobs'].map((table) => origin.db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all()));

beforeEach(async () => {
  origin.db.exec('DELETE FROM posts; DELETE FROM post_redirects; DELETE FROM purge_jobs; DELETE FROM search_jobs');
  assert.equal((await send('PUT', '/api/v1/plog/first', { body: post('First') })).status, 201);
});

describe('POST /api/v1/plog/<oid>/rename', () => {
  it('answers the post at its new address, and the old one answers 301 there, when a post is renamed', async () => {
    const answer = await rename('first', 'second');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-location'), '/api/v1/plog/second');
    assert.equal((answer.json().post as { oid: string }).oid, 'second');
    const old = await send('GET', '/api/v1/plog/first', { token: null });
    assert.equal(old.status, 301);
    assert.equal(old.headers.get('location'), '/api/v1/plog/second');
    assert.deepEqual(old.json(), { moved_to: 'second' });
    assert.equal((await send('GET', '/api/v1/plog/second', { token: null })).status, 200);
    const followed = await fetch(`${origin.base}/api/v1/plog/first`);
    assert.equal(((await followed.json()) as { post: { title: string } }).post.title, 'First', 'a client following redirects reads the post');
  });

  it('answers 409 when the new slug is another post, and 404 when there is no post, writing nothing', async () => {
    await send('PUT', '/api/v1/plog/other', { body: post('Other') });
    const before = snapshot();
    const taken = await rename('first', 'other');
    assert.equal(taken.status, 409);
    assert.equal(taken.json().code, 'SLUG_TAKEN');
    const missing = await rename('missing', 'elsewhere');
    assert.equal(missing.status, 404);
    assert.equal(missing.json().code, 'POST_NOT_FOUND');
    assert.equal(snapshot(), before);
  });

  it("takes a reader's comment sent to an old slug for the renamed post", async () => {
    await rename('first', 'second');
    const sent = await send('POST', '/api/v1/plog/first/comments', { body: { name: 'Reader', comment: 'From an old tab' }, token: null });
    assert.equal(sent.status, 201);
    assert.equal(origin.db.prepare(`SELECT oid FROM comments WHERE comment = 'From an old tab'`).pluck().get(), 'second');
  });

  it('says where an old slug went when it is renamed again, patched or deleted', async () => {
    await rename('first', 'second');
    const answer = await rename('first', 'third');
    assert.equal(answer.status, 404);
    assert.match(answer.json().error as string, /renamed to 'second'/);
    assert.equal(answer.json().code, 'POST_RENAMED');
    for (const method of ['PATCH', 'DELETE']) {
      const write = await send(method, '/api/v1/plog/first', method === 'PATCH' ? { body: { title: 'X' } } : {});
      assert.equal(write.status, 404, method);
      assert.equal(write.json().code, 'POST_RENAMED', method);
    }
  });

  it('refuses a rename without the token, with 401 or 403', async () => {
    assert.equal((await rename('first', 'second', null)).status, 401);
    assert.equal((await rename('first', 'second', 'wrong')).status, 403);
  });

  it('refuses malformed, oversized, hostile and unicode slugs with a clear 400 and a suggestion, writing nothing', async () => {
    const before = snapshot();
    const cases: [unknown, RegExp][] = [
      ['Hello World', /such as "hello-world"/],
      ['café-crème', /such as "cafe-creme"/],
      ['../etc/passwd', /such as "etc-passwd"/],
      ['a--b', /single hyphens/],
      ['', /1-100 characters/],
      ['x'.repeat(101), /1-100 characters/],
      [42, /must be a string/],
      [null, /must be a string/],
      ['日本語', /1-100 characters/],
      ['<script>alert(1)</script>', /such as "script-alert-1-script"/],
    ];
    for (const [to, message] of cases) {
      const answer = await rename('first', to);
      assert.equal(answer.status, 400, JSON.stringify(to));
      assert.match(answer.json().error as string, message);
    }
    for (const [raw, status] of [
      ['{"to":"b","extra":1}', 400],
      ['[]', 400],
      ['not json', 400],
      ['', 400],
      [`{"to":"${'a'.repeat(5000)}"}`, 413],
    ] as const) {
      assert.equal((await send('POST', '/api/v1/plog/first/rename', { raw })).status, status, raw.slice(0, 30));
    }
    assert.equal((await send('POST', '/api/v1/plog/first/rename', { raw: 'to=b', type: 'application/x-www-form-urlencoded' })).status, 415);
    assert.equal((await send('POST', '/api/v1/plog/Bad%20Oid/rename', { body: { to: 'b' } })).status, 400);
    assert.equal(snapshot(), before);
  });

  it('never answers 500 whatever the body holds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 120 }), fc.jsonValue()), async (to) => {
        const answer = await rename('first', to);
        assert.ok(answer.status < 500, `${answer.status} for ${JSON.stringify(to)}`);
        if (answer.status === 200) await rename(typeof to === 'string' ? to : 'first', 'first');
      }),
      { numRuns: 60 },
    );
  });
});

describe('the revisions API', () => {
  it('lists every save newest first, in pages, and answers one with its source', async () => {
    for (const title of ['Second', 'Third']) await send('PUT', '/api/v1/plog/first', { body: post(title) });
    const first = (await send('GET', '/api/v1/plog/first/revisions?limit=2')).json();
    assert.deepEqual((first.items as { n: number; title: string; saved_by: string }[]).map((item) => [item.n, item.title, item.saved_by]), [
      [3, 'Third', 'api'],
      [2, 'Second', 'api'],
    ]);
    assert.equal(first.next, '2');
    const second = (await send('GET', `/api/v1/plog/first/revisions?limit=2&before=${String(first.next)}`)).json();
    assert.deepEqual((second.items as { n: number }[]).map((item) => item.n), [1]);
    assert.equal(second.next, null);
    const one = (await send('GET', '/api/v1/plog/first/revisions/1')).json();
    assert.equal(one.body, '# First\n\nSome *text*.');
    assert.equal(one.format, 'markdown');
  });

  it('restores a revision as a new one, with its purge and search jobs', async () => {
    await send('PUT', '/api/v1/plog/first', { body: post('Changed', 'Other words') });
    origin.db.exec('DELETE FROM purge_jobs; DELETE FROM search_jobs');
    const answer = await send('POST', '/api/v1/plog/first/revisions/1/restore');
    assert.equal(answer.status, 200);
    assert.equal(answer.json().revision, 3);
    assert.equal((answer.json().post as { title: string; body: string }).body, '# First\n\nSome *text*.');
    const newest = (await send('GET', '/api/v1/plog/first/revisions/3')).json();
    assert.equal(newest.restored_from, 1);
    assert.equal(origin.db.prepare(`SELECT count(*) FROM purge_jobs`).pluck().get(), 1);
    assert.equal(origin.db.prepare(`SELECT count(*) FROM search_jobs`).pluck().get(), 1);
  });

  it('follows the post when it is renamed', async () => {
    await rename('first', 'moved');
    assert.equal(((await send('GET', '/api/v1/plog/moved/revisions')).json().items as unknown[]).length, 1);
    assert.equal((await send('GET', '/api/v1/plog/first/revisions')).status, 404);
  });

  it('answers 404, 400 and 401 with clear errors for what is not there, malformed or unauthorised, writing nothing', async () => {
    const before = snapshot();
    const expectations: [string, string, number, string][] = [
      ['GET', '/api/v1/plog/first/revisions/9', 404, 'REVISION_NOT_FOUND'],
      ['GET', '/api/v1/plog/none/revisions/1', 404, 'POST_NOT_FOUND'],
      ['GET', '/api/v1/plog/none/revisions', 404, 'POST_NOT_FOUND'],
      ['POST', '/api/v1/plog/first/revisions/9/restore', 404, 'REVISION_NOT_FOUND'],
      ['POST', '/api/v1/plog/none/revisions/1/restore', 404, 'POST_NOT_FOUND'],
      ['GET', '/api/v1/plog/first/revisions/0', 400, 'INVALID_REVISION'],
      ['GET', '/api/v1/plog/first/revisions/-1', 400, 'INVALID_REVISION'],
      ['GET', '/api/v1/plog/first/revisions/1e3', 400, 'INVALID_REVISION'],
      ['GET', '/api/v1/plog/first/revisions/99999999999999999', 400, 'INVALID_REVISION'],
      ['POST', '/api/v1/plog/first/revisions/%F0%9F%92%A5/restore', 400, 'INVALID_REVISION'],
      ['GET', '/api/v1/plog/first/revisions?limit=0', 400, 'INVALID_LIMIT'],
      ['GET', '/api/v1/plog/first/revisions?limit=101', 400, 'INVALID_LIMIT'],
      ['GET', '/api/v1/plog/first/revisions?limit=1&limit=2', 400, 'INVALID_LIMIT'],
      ['GET', '/api/v1/plog/first/revisions?before=abc', 400, 'INVALID_CURSOR'],
      ['GET', '/api/v1/plog/first/revisions?bogus=1', 400, 'INVALID_INPUT'],
    ];
    for (const [method, path, status, code] of expectations) {
      const answer = await send(method, path);
      assert.equal(answer.status, status, `${method} ${path}`);
      assert.equal(answer.json().code, code, `${method} ${path}`);
    }
    assert.equal((await send('GET', '/api/v1/plog/first/revisions', { token: null })).status, 401);
    assert.equal((await send('POST', '/api/v1/plog/first/revisions/1/restore', { token: 'nope' })).status, 403);
    assert.equal(snapshot(), before);
  });
});
