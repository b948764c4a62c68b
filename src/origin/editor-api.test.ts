import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { silentLogger } from '../log.js';
import { createOriginApp } from './app.js';
import { openOriginDatabase, type OriginDatabase } from './database.js';
import { BODY_LIMITS } from './validation.js';
import { encodeCursor } from './pending-page.js';
import type { PendingComment, PostPage, PostWithSource } from './store.js';

const TOKEN = 'editor-api-token';
const OID = 'editable';
let db: OriginDatabase;
let app: FastifyInstance;
let base: string;
let changes = 0;

interface Answer {
  status: number;
  text: string;
  json: () => Record<string, unknown>;
}

async function send(method: string, path: string, options: { body?: unknown; raw?: string; type?: string | null; token?: string | null } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token !== null) headers.authorization = `Bearer ${options.token ?? TOKEN}`;
  const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (payload !== undefined && options.type !== null) headers['content-type'] = options.type ?? 'application/json';
  // fetch labels a string body text/plain; bytes go without a content-type.
  const body = options.type === null && payload !== undefined ? new TextEncoder().encode(payload) : payload;
  const response = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

const getPage = async (oid = OID): Promise<PostPage> => (await send('GET', `/api/v1/plog/${oid}`)).json() as unknown as PostPage;
const patch = (body: unknown, type = 'application/merge-patch+json') => send('PATCH', `/api/v1/plog/${OID}`, { body, type });

/** Everything a write could change, to prove a refused one wrote nothing. */
function snapshot(): string {
  return JSON.stringify(['posts', 'comments', 'purge_jobs', 'search_jobs'].map((table) => db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all()));
}

const original = { title: 'Editable', body: '<p>First</p>', summary: 'Short', categories: ['Web', 'Notes'], pub_date: '2026-11-01' };

before(async () => {
  db = openOriginDatabase(':memory:');
  app = await createOriginApp({ db, logger: silentLogger(), adminToken: TOKEN, onChange: () => void changes++ });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await app.close();
  db.close();
});
beforeEach(async () => {
  assert.ok([200, 201].includes((await send('PUT', `/api/v1/plog/${OID}`, { body: original })).status));
  db.exec('DELETE FROM purge_jobs; DELETE FROM search_jobs');
  changes = 0;
});

describe('origin PUT /api/v1/plog/<oid> with what GET answers', () => {
  it('stores nothing new and answers 200 when the whole GET answer or its post is put back', async () => {
    const page = await getPage();
    for (const body of [page, { post: page.post }, page.post]) {
      const response = await send('PUT', `/api/v1/plog/${OID}`, { body });
      assert.equal(response.status, 200, response.text);
      assert.deepEqual((await getPage()).post, page.post);
    }
    assert.equal(changes, 3);
  });

  it('round-trips any post it accepted when GET answers it back unchanged', async () => {
    const line = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });
    const dates = fc.date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true });
    await fc.assert(
      fc.asyncProperty(line, fc.string({ unit: 'grapheme', maxLength: 200 }), line, dates, async (title, body, category, date) => {
        const put = await send('PUT', '/api/v1/plog/round-trip', {
          body: { title, body: `<p>${body}</p>`, summary: body, categories: [category], pub_date: date.toISOString() },
        });
        if (put.status !== 201 && put.status !== 200) {
          assert.equal(put.status, 400, put.text);
          return;
        }
        const first = await getPage('round-trip');
        assert.equal((await send('PUT', '/api/v1/plog/round-trip', { body: first })).status, 200);
        assert.deepEqual(await getPage('round-trip'), first);
      }),
      { numRuns: 40 },
    );
  });

  it('ignores the comments of the GET answer when they are stale or edited', async () => {
    const page = await getPage();
    const edited = { ...page, comments: { count: 99, items: [{ id: 1, name: 'x', comment: 'y', add_date: '2026-01-01' }] } };
    assert.equal((await send('PUT', `/api/v1/plog/${OID}`, { body: edited })).status, 200);
    assert.deepEqual((await getPage()).comments, page.comments);
  });

  it('refuses with 409 READ_ONLY_FIELD and writes nothing when the oid would change', async () => {
    const page = await getPage();
    const before = snapshot();
    for (const body of [{ ...page.post, oid: 'other' }, { post: { ...page.post, oid: 'other' } }, { ...page.post, oid: null }, { ...page.post, oid: 7 }]) {
      const response = await send('PUT', `/api/v1/plog/${OID}`, { body });
      assert.equal(response.status, 409, response.text);
      assert.equal(response.json().code, 'READ_ONLY_FIELD');
      assert.match(response.json().error as string, /oid is read-only/);
    }
    const moved = await send('PUT', '/api/v1/plog/somewhere-else', { body: page });
    assert.equal(moved.status, 409);
    assert.equal(snapshot(), before);
    assert.equal(changes, 0);
  });

  it('refuses malformed, hostile and unicode representations with a clear 4xx and writes nothing', async () => {
    const { post } = await getPage();
    const before = snapshot();
    const cases: { body?: unknown; raw?: string; status: number; code: string; message?: RegExp }[] = [
      { body: { post: 'text' }, status: 400, code: 'INVALID_INPUT', message: /post must be a JSON object/ },
      { body: { post: [post] }, status: 400, code: 'INVALID_INPUT', message: /post must be a JSON object/ },
      { body: { comments: {} }, status: 400, code: 'INVALID_INPUT', message: /post must be a JSON object/ },
      { body: { post, comments: 'none' }, status: 400, code: 'INVALID_INPUT', message: /comments must be an object/ },
      { body: { post, extra: true }, status: 400, code: 'INVALID_INPUT', message: /unknown field.*"extra"/ },
      { body: { post: { ...post, updated_at: 'x' } }, status: 400, code: 'INVALID_INPUT', message: /unknown field/ },
      { body: { ...post, body: '<p>two</p>', body_html: '<p>three</p>' }, status: 400, code: 'INVALID_INPUT', message: /not both/ },
      { body: { ...post, body_html: '' }, status: 400, code: 'INVALID_INPUT', message: /body_html must not be empty/ },
      { body: { ...post, body_html: { $ne: '' } }, status: 400, code: 'INVALID_INPUT', message: /body_html must be a string/ },
      { body: { ...post, title: 'a\u202eb' }, status: 400, code: 'INVALID_INPUT', message: /control characters/ },
      { body: { ...post, oid: 'ÉDITABLE' }, status: 409, code: 'READ_ONLY_FIELD' },
      { raw: `{"post":${JSON.stringify({ ...post, body_html: 'x'.repeat(BODY_LIMITS.post) })}}`, status: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' },
      { raw: '{"post":{"__proto__":{"admin":true}}}', status: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' },
      { raw: `${'{"post":'.repeat(3000)}1${'}'.repeat(3000)}`, status: 400, code: 'INVALID_INPUT' },
    ];
    for (const testCase of cases) {
      const response = await send('PUT', `/api/v1/plog/${OID}`, testCase.raw === undefined ? { body: testCase.body } : { raw: testCase.raw });
      const label = (testCase.raw ?? JSON.stringify(testCase.body)).slice(0, 80);
      assert.equal(response.status, testCase.status, `${label}: ${response.text.slice(0, 200)}`);
      assert.equal(response.json().code, testCase.code, label);
      if (testCase.message !== undefined) assert.match(response.json().error as string, testCase.message, label);
    }
    assert.equal((await send('PUT', `/api/v1/plog/${OID}`, { body: post, type: 'application/merge-patch+json' })).status, 415);
    assert.equal(snapshot(), before);
  });
});

describe('origin PATCH /api/v1/plog/<oid>', () => {
  it('changes only the fields the patch names and records the same purge and search jobs as PUT', async () => {
    const before = (await getPage()).post;
    const response = await patch({ title: '  Cafe\u0301 renamed  ' });
    assert.equal(response.status, 200, response.text);
    const after = (response.json() as unknown as PostPage).post;
    assert.deepEqual(after, { ...before, title: 'Café renamed' });
    assert.deepEqual((await getPage()).post, after);
    const purge = db.prepare<[], { pathnames: string; keys: string }>('SELECT pathnames, keys FROM purge_jobs').all();
    const categories = before.categories;
    assert.deepEqual(purge.map((job) => JSON.parse(job.pathnames) as unknown), [[`/plog/${OID}`, '/', '/plog', '/feed.xml', '/sitemap.xml', ...categories.map((name) => `/plog/category/${encodeURIComponent(name)}`)]]);
    assert.ok((JSON.parse(purge[0]?.keys ?? '[]') as string[]).includes(`post:${OID}`));
    assert.deepEqual(db.prepare('SELECT oid FROM search_jobs').pluck().all(), [OID]);
    assert.equal(changes, 1);
  });

  it('applies a patch in GET form, of body or of body_html, and as application/json', async () => {
    const cases: [unknown, string, Partial<PostWithSource>][] = [
      [{ post: { summary: 'New summary' } }, 'application/merge-patch+json', { summary: 'New summary' }],
      [{ body: '<p>Second</p>' }, 'application/merge-patch+json; charset=utf-8', { body: '<p>Second</p>', body_html: '<p>Second</p>' }],
      [{ body_html: '<p>Third</p>', categories: ['Only'] }, 'application/json', { body: '<p>Third</p>', body_html: '<p>Third</p>', categories: ['Only'] }],
      [{ post: { pub_date: '2026-12-24T18:00:00+01:00' }, comments: null }, 'application/json', { pub_date: '2026-12-24T17:00:00.000Z' }],
      [{ oid: OID, title: 'Same oid is fine' }, 'application/merge-patch+json', { title: 'Same oid is fine' }],
    ];
    for (const [body, type, expected] of cases) {
      const before = (await getPage()).post;
      const response = await patch(body, type);
      assert.equal(response.status, 200, `${JSON.stringify(body)}: ${response.text}`);
      assert.deepEqual((await getPage()).post, { ...before, ...expected }, JSON.stringify(body));
    }
  });

  it('returns an optional field to its default when the patch sets it to null', async () => {
    assert.equal((await patch({ summary: null, categories: null })).status, 200);
    const { post } = await getPage();
    assert.deepEqual([post.summary, post.categories], ['', []]);
  });

  it('changes nothing but records the jobs when the patch is empty', async () => {
    const before = (await getPage()).post;
    assert.equal((await patch({})).status, 200);
    assert.deepEqual((await getPage()).post, before);
    assert.equal(db.prepare('SELECT count(*) FROM purge_jobs').pluck().get(), 1);
  });

  it('refuses what PUT refuses, read-only and required fields set to null, and bad media types, writing nothing', async () => {
    const before = snapshot();
    const cases: { body?: unknown; raw?: string; type?: string | null; status: number; code: string; message?: RegExp; path?: string }[] = [
      { body: { oid: 'renamed' }, status: 409, code: 'READ_ONLY_FIELD' },
      { body: { oid: null }, status: 409, code: 'READ_ONLY_FIELD' },
      { body: { post: { oid: null } }, status: 409, code: 'READ_ONLY_FIELD' },
      { body: { title: null }, status: 400, code: 'INVALID_INPUT', message: /title is required/ },
      { body: { body_html: null }, status: 400, code: 'INVALID_INPUT', message: /body is required \(as body, or as body_html\)/ },
      { body: { body: null }, status: 400, code: 'INVALID_INPUT', message: /body is required/ },
      { body: { body: '<p>a</p>', body_html: '<p>b</p>' }, status: 400, code: 'INVALID_INPUT', message: /not both/ },
      { body: { post: null }, status: 400, code: 'INVALID_INPUT', message: /DELETE/ },
      { body: { post: 'text' }, status: 400, code: 'INVALID_INPUT', message: /post must be a JSON object/ },
      { body: { post: {}, comments: 3 }, status: 400, code: 'INVALID_INPUT', message: /comments must be an object/ },
      { body: { title: 'x'.repeat(201) }, status: 400, code: 'INVALID_INPUT', message: /at most 200/ },
      { body: { title: '\u0000' }, status: 400, code: 'INVALID_INPUT', message: /control characters/ },
      { body: { categories: { a: 1 } }, status: 400, code: 'INVALID_INPUT', message: /categories must be an array/ },
      { body: { pub_date: '2026-02-30' }, status: 400, code: 'INVALID_INPUT', message: /real calendar date/ },
      { body: { updated_at: '2026-01-01' }, status: 400, code: 'INVALID_INPUT', message: /unknown field/ },
      { body: ['title'], status: 400, code: 'INVALID_INPUT', message: /must be a JSON object/ },
      { body: 'title', status: 400, code: 'INVALID_INPUT', message: /must be a JSON object/ },
      { raw: 'null', status: 400, code: 'INVALID_INPUT', message: /must be a JSON object/ },
      { raw: '{"title":', status: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' },
      { raw: '', status: 400, code: 'FST_ERR_CTP_EMPTY_JSON_BODY' },
      { raw: '{"__proto__":{"title":"x"}}', status: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' },
      { raw: `{"title":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_001)}`, status: 400, code: 'INVALID_INPUT', message: /levels deep/ },
      { raw: JSON.stringify({ body: 'x'.repeat(BODY_LIMITS.post) }), status: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' },
      { body: { title: 'x' }, type: 'text/plain', status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: /merge-patch\+json/ },
      { body: { title: 'x' }, type: 'application/x-www-form-urlencoded', status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
      { body: { title: 'x' }, type: 'application/json-patch+json', status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
      { body: { title: 'x' }, type: null, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: /no content-type/ },
      { body: {}, path: '/api/v1/plog/no-such-post', status: 404, code: 'POST_NOT_FOUND', message: /create it with PUT/ },
      { body: {}, path: '/api/v1/plog/%F0%9F%98%80', status: 400, code: 'INVALID_OID' },
      { body: {}, path: '/api/v1/plog/..%2F..%2Fetc', status: 400, code: 'INVALID_OID' },
    ];
    for (const testCase of cases) {
      const options = {
        ...(testCase.raw === undefined ? { body: testCase.body } : { raw: testCase.raw }),
        type: testCase.type === undefined ? 'application/merge-patch+json' : testCase.type,
      };
      const response = await send('PATCH', testCase.path ?? `/api/v1/plog/${OID}`, options);
      const label = `${testCase.type ?? ''} ${(testCase.raw ?? JSON.stringify(testCase.body)).slice(0, 80)}`;
      assert.equal(response.status, testCase.status, `${label}: ${response.text.slice(0, 200)}`);
      assert.equal(response.json().code, testCase.code, label);
      if (testCase.message !== undefined) assert.match(response.json().error as string, testCase.message, label);
    }
    assert.equal(snapshot(), before);
    assert.equal(changes, 0);
  });

  it('answers 401 before reading the body when the patch comes without the admin token', async () => {
    const response = await send('PATCH', `/api/v1/plog/${OID}`, { raw: 'x'.repeat(2_000_000), type: 'text/plain', token: null });
    assert.equal(response.status, 401);
  });
});

describe('origin GET /api/v1/comments/pending', () => {
  const insert = (count: number): number[] => {
    const statement = db.prepare(`INSERT INTO comments (oid, name, comment, approved, add_date) VALUES (?, ?, ?, 0, ?)`);
    return db.transaction(() => Array.from({ length: count }, (_, i) => Number(statement.run(OID, `Reader ${i}`, `Comment ${i} 🙂`, '2026-11-02T00:00:00.000Z').lastInsertRowid)))();
  };
  const page = async (query: string) => {
    const response = await send('GET', `/api/v1/comments/pending${query}`);
    assert.equal(response.status, 200, response.text);
    return response.json() as unknown as { items: PendingComment[]; next: string | null };
  };

  beforeEach(() => {
    db.exec('DELETE FROM comments');
  });

  it('answers 50 comments, oldest first, and a cursor to the next page when no limit is given', async () => {
    const ids = insert(120);
    const first = await page('');
    assert.deepEqual(first.items.map((item) => item.id), ids.slice(0, 50));
    assert.deepEqual(Object.keys(first.items[0] ?? {}).sort(), ['add_date', 'comment', 'id', 'name', 'oid']);
    assert.equal(typeof first.next, 'string');
    const second = await page(`?cursor=${first.next}`);
    assert.deepEqual(second.items.map((item) => item.id), ids.slice(50, 100));
  });

  it('pages through every pending comment once, up to 500 a page, and ends with next null', async () => {
    const ids = insert(1_201);
    const seen: number[] = [];
    const sizes: number[] = [];
    let next: string | null = '';
    while (next !== null) {
      const answer = await page(`?limit=500${next === '' ? '' : `&cursor=${encodeURIComponent(next)}`}`);
      seen.push(...answer.items.map((item) => item.id));
      sizes.push(answer.items.length);
      next = answer.next;
    }
    assert.deepEqual(sizes, [500, 500, 201]);
    assert.deepEqual(seen, ids);
  });

  it('neither repeats nor skips a comment when others arrive, are approved or deleted between pages', async () => {
    const ids = insert(30);
    const first = await page('?limit=10');
    const added = insert(5);
    const approved = ids[15] as number;
    const deleted = ids[0] as number;
    assert.equal((await send('POST', `/api/v1/comments/${approved}/approve`)).status, 200);
    assert.equal((await send('DELETE', `/api/v1/comments/${deleted}`)).status, 204);
    const rest: number[] = [];
    for (let next = first.next; next !== null; ) {
      const answer = await page(`?limit=10&cursor=${next}`);
      rest.push(...answer.items.map((item) => item.id));
      next = answer.next;
    }
    assert.deepEqual(rest, [...ids.slice(10).filter((id) => id !== approved), ...added]);
  });

  it('answers an empty page with next null when nothing is pending', async () => {
    assert.deepEqual(await page('?limit=5'), { items: [], next: null });
    insert(5);
    assert.equal((await page('?limit=5')).next, null, 'an exactly full last page has no next');
  });

  it('refuses a bad limit, cursor or parameter with a clear 400', async () => {
    insert(3);
    const cases: [string, string][] = [
      ['?limit=0', 'INVALID_LIMIT'],
      ['?limit=501', 'INVALID_LIMIT'],
      ['?limit=ten', 'INVALID_LIMIT'],
      ['?limit=1.5', 'INVALID_LIMIT'],
      ['?limit=-3', 'INVALID_LIMIT'],
      ['?limit=%D9%A5', 'INVALID_LIMIT'],
      [`?limit=${'9'.repeat(5000)}`, 'INVALID_LIMIT'],
      ['?limit=5&limit=6', 'INVALID_LIMIT'],
      ['?cursor=not-a-cursor', 'INVALID_CURSOR'],
      ['?cursor=%F0%9F%98%80', 'INVALID_CURSOR'],
      ['?cursor=%00', 'INVALID_CURSOR'],
      [`?cursor=${'A'.repeat(5000)}`, 'INVALID_CURSOR'],
      [`?cursor=${encodeCursor(1)}&cursor=${encodeCursor(2)}`, 'INVALID_CURSOR'],
      ['?page=2', 'INVALID_INPUT'],
      ['?limit[]=5', 'INVALID_INPUT'],
    ];
    for (const [query, code] of cases) {
      const response = await send('GET', `/api/v1/comments/pending${query}`);
      assert.equal(response.status, 400, `${query.slice(0, 60)}: ${response.text.slice(0, 200)}`);
      assert.equal(response.json().code, code, query.slice(0, 60));
      assert.equal(typeof response.json().error, 'string');
    }
  });
});
