import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { silentLogger } from '../log.js';
import { adminAuthorized, createOriginApp } from './app.js';
import { openOriginDatabase, type OriginDatabase } from './database.js';
import { BODY_LIMITS } from './validation.js';

const TOKEN = 'admin-token-for-tests';
let db: OriginDatabase;
let app: FastifyInstance;
let base: string;
let changes = 0;

async function request(method: string, path: string, options: { body?: unknown; raw?: string; token?: string | null; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== null) headers.authorization = `Bearer ${options.token ?? TOKEN}`;
  let payload: string | undefined = options.raw;
  if (options.body !== undefined) payload = JSON.stringify(options.body);
  if (payload !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, ...(payload === undefined ? {} : { body: payload }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

/** Everything a request could change, to prove a refused request wrote nothing. */
function snapshot(): string {
  return JSON.stringify(['posts', 'comments', 'purge_jobs'].map((table) => db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all()));
}

/** The purge jobs enqueued so far, oldest first. */
function purgeJobs(): { pathnames: string[]; keys: string[] }[] {
  return db
    .prepare<[], { pathnames: string; keys: string }>('SELECT pathnames, keys FROM purge_jobs ORDER BY id')
    .all()
    .map((row) => ({ pathnames: JSON.parse(row.pathnames) as string[], keys: JSON.parse(row.keys) as string[] }));
}

const validPost = { title: 'A new post', body: '<h2 id="intro">Intro</h2><p>Text</p>', summary: 'Short', categories: ['Web'], pub_date: '2026-11-01' };

before(async () => {
  db = openOriginDatabase(':memory:');
  app = await createOriginApp({
    db,
    logger: silentLogger(),
    adminToken: TOKEN,
    commentRateLimit: { max: 1000, windowMs: 60_000 },
    onChange: () => {
      changes++;
    },
  });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await app.close();
  db.close();
});
beforeEach(() => {
  db.exec('DELETE FROM purge_jobs');
  changes = 0;
});

describe('origin GET /api/v1/plog/', () => {
  it('answers groups by month, newest first, with approved comment counts', async () => {
    const response = await request('GET', '/api/v1/plog/');
    assert.equal(response.status, 200);
    const groups = response.json().groups as { date: string; posts: { oid: string; pub_date: string; comments: number; categories: string[] }[] }[];
    assert.ok(groups.length >= 4);
    const dates = groups.map((group) => group.date);
    assert.deepEqual(dates, [...dates].sort().reverse());
    for (const group of groups) {
      assert.match(group.date, /^\d{4}\.\d{2}$/);
      for (const post of group.posts) assert.equal(`${post.pub_date.slice(0, 4)}.${post.pub_date.slice(5, 7)}`, group.date);
    }
    const first = groups[0]?.posts[0];
    assert.ok(first !== undefined && Array.isArray(first.categories));
    const approved = db.prepare(`SELECT count(*) FROM comments WHERE oid = ? AND approved = 1`).pluck().get(first.oid);
    assert.equal(first.comments, approved);
  });
});

describe('origin GET /api/v1/plog/<oid>', () => {
  it('answers the post with only its approved comments', async () => {
    const oid = db.prepare(`SELECT oid FROM comments GROUP BY oid HAVING sum(approved) > 0 AND sum(1 - approved) > 0 LIMIT 1`).pluck().get() as string;
    const response = await request('GET', `/api/v1/plog/${oid}`);
    assert.equal(response.status, 200);
    const body = response.json() as { post: Record<string, unknown>; comments: { count: number; items: { id: number }[] } };
    assert.deepEqual(Object.keys(body.post).sort(), ['body', 'body_html', 'categories', 'format', 'oid', 'pub_date', 'publish_at', 'state', 'summary', 'title']);
    const approved = db.prepare(`SELECT id FROM comments WHERE oid = ? AND approved = 1 ORDER BY add_date, id`).pluck().all(oid);
    assert.deepEqual(body.comments.items.map((item) => item.id), approved);
    assert.equal(body.comments.count, approved.length);
  });

  it('answers a JSON 404 when the post does not exist', async () => {
    const response = await request('GET', '/api/v1/plog/no-such-post');
    assert.equal(response.status, 404);
    assert.deepEqual(response.json(), { error: "no post 'no-such-post'", code: 'POST_NOT_FOUND' });
  });

  it('answers a JSON 400 when the oid is not a slug', async () => {
    for (const oid of ['Upper', '%2e%2e%2fetc', 'a%00b', '%F0%9F%99%82', 'x'.repeat(150)]) {
      const response = await request('GET', `/api/v1/plog/${oid}`);
      assert.equal(response.status, 400, oid);
      assert.equal(response.json().code, 'INVALID_OID');
    }
  });
});

describe('origin admin writes', () => {
  it('creates with 201, then updates with 200, enqueuing the purge in the same write', async () => {
    const created = await request('PUT', '/api/v1/plog/brand-new', { body: validPost });
    assert.equal(created.status, 201);
    assert.equal((created.json().post as { title: string }).title, 'A new post');
    const updated = await request('PUT', '/api/v1/plog/brand-new', { body: { ...validPost, title: 'Renamed' } });
    assert.equal(updated.status, 200);
    assert.equal(((await request('GET', '/api/v1/plog/brand-new')).json().post as { title: string }).title, 'Renamed');
    const job = {
      pathnames: ['/plog/brand-new', '/', '/plog', '/feed.xml', '/sitemap.xml', '/plog/category/Web'],
      keys: ['post:brand-new', 'listing:home', 'listing:archive', 'listing:feed', 'listing:sitemap', 'category:Web'],
    };
    assert.deepEqual(purgeJobs(), [job, job]);
    assert.equal(changes, 2);
  });

  it('deletes a post with its comments and answers 404 for it afterwards', async () => {
    await request('PUT', '/api/v1/plog/short-lived', { body: validPost });
    const comment = await request('POST', '/api/v1/plog/short-lived/comments', { body: { name: 'A', comment: 'B' }, token: null });
    assert.equal(comment.status, 201);
    db.exec('DELETE FROM purge_jobs');
    assert.equal((await request('DELETE', '/api/v1/plog/short-lived')).status, 204);
    assert.deepEqual(purgeJobs(), [
      {
        pathnames: ['/plog/short-lived', '/', '/plog', '/feed.xml', '/sitemap.xml', '/plog/category/Web'],
        keys: ['post:short-lived', 'listing:home', 'listing:archive', 'listing:feed', 'listing:sitemap', 'category:Web'],
      },
    ]);
    assert.equal((await request('GET', '/api/v1/plog/short-lived')).status, 404);
    assert.equal(db.prepare(`SELECT count(*) FROM comments WHERE oid = 'short-lived'`).pluck().get(), 0);
    assert.equal((await request('DELETE', '/api/v1/plog/short-lived')).status, 404);
  });

  it('approves a pending comment so the post shows it, and purges once', async () => {
    await request('PUT', '/api/v1/plog/commented', { body: validPost });
    const { id } = (await request('POST', '/api/v1/plog/commented/comments', { body: { name: 'Zoë', comment: '<script>x</script>' }, token: null })).json() as { id: number };
    assert.equal(((await request('GET', '/api/v1/plog/commented')).json().comments as { count: number }).count, 0);
    db.exec('DELETE FROM purge_jobs');
    assert.equal((await request('POST', `/api/v1/comments/${id}/approve`)).status, 200);
    assert.equal((await request('POST', `/api/v1/comments/${id}/approve`)).status, 200);
    assert.deepEqual(purgeJobs(), [
      { pathnames: ['/plog/commented', '/', '/plog', '/plog/category/Web'], keys: ['post:commented', 'listing:home', 'listing:archive', 'category:Web'] },
    ]);
    const page = (await request('GET', '/api/v1/plog/commented')).json().comments as { count: number; items: { comment: string }[] };
    assert.equal(page.count, 1);
    assert.equal(page.items[0]?.comment, '<script>x</script>');
    assert.equal((await request('DELETE', `/api/v1/comments/${id}`)).status, 204);
    assert.equal((await request('DELETE', `/api/v1/comments/${id}`)).status, 404);
    assert.equal((await request('POST', `/api/v1/comments/${id}/approve`)).status, 404);
  });

  it('lists pending comments for admins only', async () => {
    assert.equal((await request('GET', '/api/v1/comments/pending')).status, 200);
    assert.equal((await request('GET', '/api/v1/comments/pending', { token: null })).status, 401);
  });
});

describe('origin refuses bad input and writes nothing', () => {
  it('answers 401 with WWW-Authenticate without a token, and 403 with a wrong one, on every admin route', async () => {
    const routes: [string, string][] = [
      ['PUT', '/api/v1/plog/x'],
      ['PATCH', '/api/v1/plog/first-look-sqlite'],
      ['DELETE', '/api/v1/plog/first-look-sqlite'],
      ['GET', '/api/v1/comments/pending'],
      ['POST', '/api/v1/comments/1/approve'],
      ['DELETE', '/api/v1/comments/1'],
    ];
    const before = snapshot();
    for (const [method, path] of routes) {
      const body = method === 'GET' ? {} : { body: validPost };
      const missing = await request(method, path, { ...body, token: null });
      assert.equal(missing.status, 401, `${method} ${path}`);
      assert.equal(missing.headers.get('www-authenticate'), 'Bearer');
      for (const token of ['wrong', `${TOKEN}x`, '', 'ä']) {
        const headers = { authorization: `Bearer ${token}` };
        assert.equal((await request(method, path, { ...body, token: null, headers })).status, 403, `${method} ${path} ${token}`);
      }
      assert.equal((await request(method, path, { ...body, token: null, headers: { authorization: `Basic ${TOKEN}` } })).status, 403);
    }
    assert.equal(snapshot(), before);
    assert.equal(changes, 0);
  });

  it('answers 503 naming ORIGIN_ADMIN_TOKEN when no admin token is configured', async () => {
    const closed = await createOriginApp({ db, logger: silentLogger() });
    const response = await closed.inject({ method: 'PUT', url: '/api/v1/plog/x', payload: validPost, headers: { authorization: 'Bearer anything' } });
    assert.equal(response.statusCode, 503);
    assert.match(response.json().error, /ORIGIN_ADMIN_TOKEN/);
    await closed.close();
  });

  it('answers a clear 4xx JSON for malformed, oversized, hostile and unicode bodies', async () => {
    const before = snapshot();
    const cases: { method: string; path: string; raw?: string; body?: unknown; contentType?: string; status: number; code?: string }[] = [
      { method: 'PUT', path: '/api/v1/plog/ok-oid', raw: '{"title":', status: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' },
      { method: 'PUT', path: '/api/v1/plog/ok-oid', raw: '', status: 400 },
      { method: 'PUT', path: '/api/v1/plog/ok-oid', raw: 'title=x', contentType: 'application/x-www-form-urlencoded', status: 415 },
      { method: 'PUT', path: '/api/v1/plog/ok-oid', raw: JSON.stringify({ ...validPost, body: 'x'.repeat(BODY_LIMITS.post) }), status: 413 },
      { method: 'PUT', path: '/api/v1/plog/ok-oid', raw: '{"__proto__":{"admin":true},"title":"x"}', status: 400 },
      { method: 'PUT', path: '/api/v1/plog/ok-oid', body: [validPost], status: 400, code: 'INVALID_INPUT' },
      { method: 'PUT', path: '/api/v1/plog/ok-oid', body: { ...validPost, title: '\u0000' }, status: 400, code: 'INVALID_INPUT' },
      { method: 'PUT', path: '/api/v1/plog/ok-oid', body: { ...validPost, title: { $gt: '' } }, status: 400, code: 'INVALID_INPUT' },
      { method: 'PUT', path: '/api/v1/plog/ok-oid', body: { ...validPost, pub_date: '2026-02-31' }, status: 400, code: 'INVALID_INPUT' },
      { method: 'PUT', path: '/api/v1/plog/ok-oid', body: { ...validPost, categories: 'a'.repeat(10) }, status: 400, code: 'INVALID_INPUT' },
      { method: 'PUT', path: '/api/v1/plog/ok-oid', raw: '['.repeat(5000) + ']'.repeat(5000), status: 400 },
      { method: 'PUT', path: '/api/v1/plog/Bad%20Oid', body: validPost, status: 400, code: 'INVALID_OID' },
      { method: 'PUT', path: '/api/v1/plog/%F0%9F%98%80', body: validPost, status: 400, code: 'INVALID_OID' },
      { method: 'PUT', path: '/api/v1/plog/..%2F..%2Fetc', body: validPost, status: 400, code: 'INVALID_OID' },
      { method: 'DELETE', path: '/api/v1/plog/%00', status: 400, code: 'INVALID_OID' },
      { method: 'POST', path: '/api/v1/comments/abc/approve', status: 400, code: 'INVALID_COMMENT_ID' },
      { method: 'POST', path: '/api/v1/comments/1e3/approve', status: 400, code: 'INVALID_COMMENT_ID' },
      { method: 'DELETE', path: '/api/v1/comments/-1', status: 400, code: 'INVALID_COMMENT_ID' },
      { method: 'DELETE', path: '/api/v1/comments/99999999999999999999', status: 400, code: 'INVALID_COMMENT_ID' },
      { method: 'POST', path: '/api/v1/comments/987654/approve', status: 404, code: 'COMMENT_NOT_FOUND' },
      { method: 'POST', path: '/api/v1/plog/first-look-sqlite/comments', body: { name: '', comment: 'x' }, status: 400, code: 'INVALID_INPUT' },
      { method: 'POST', path: '/api/v1/plog/first-look-sqlite/comments', body: { name: 'x', comment: 'y'.repeat(5001) }, status: 400, code: 'INVALID_INPUT' },
      { method: 'POST', path: '/api/v1/plog/first-look-sqlite/comments', body: { name: 'x\u202e', comment: 'y' }, status: 400, code: 'INVALID_INPUT' },
      { method: 'POST', path: '/api/v1/plog/first-look-sqlite/comments', body: { name: 'x', comment: 'y\u0007' }, status: 400, code: 'INVALID_INPUT' },
      { method: 'POST', path: '/api/v1/plog/first-look-sqlite/comments', body: { name: 'x', comment: 'y', approved: 1 }, status: 400, code: 'INVALID_INPUT' },
      { method: 'POST', path: '/api/v1/plog/first-look-sqlite/comments', body: 'just a string', status: 400, code: 'INVALID_INPUT' },
      { method: 'POST', path: '/api/v1/plog/no-such-post/comments', body: { name: 'x', comment: 'y' }, status: 404, code: 'POST_NOT_FOUND' },
      { method: 'POST', path: '/api/v1/plog/NO/comments', body: { name: 'x', comment: 'y' }, status: 400, code: 'INVALID_OID' },
    ];
    for (const testCase of cases) {
      const headers = testCase.contentType === undefined ? undefined : { 'content-type': testCase.contentType };
      const response = await request(testCase.method, testCase.path, {
        ...(testCase.raw === undefined ? {} : { raw: testCase.raw }),
        ...(testCase.body === undefined ? {} : { body: testCase.body }),
        ...(headers === undefined ? {} : { headers }),
      });
      const label = `${testCase.method} ${testCase.path} ${(testCase.raw ?? JSON.stringify(testCase.body) ?? '').slice(0, 60)}`;
      assert.equal(response.status, testCase.status, `${label}: ${response.text.slice(0, 200)}`);
      const body = response.json();
      assert.equal(typeof body.error, 'string', label);
      if (testCase.code !== undefined) assert.equal(body.code, testCase.code, label);
    }
    assert.equal(snapshot(), before);
    assert.equal(changes, 0);
  });

  it('stores a unicode comment as written when it is valid', async () => {
    const response = await request('POST', '/api/v1/plog/first-look-sqlite/comments', {
      body: { name: 'José 🙂', comment: 'مرحبا — <b>bold?</b>\nsecond line' },
      token: null,
    });
    assert.equal(response.status, 201);
    const id = response.json().id as number;
    assert.deepEqual(db.prepare('SELECT name, comment, approved FROM comments WHERE id = ?').get(id), {
      name: 'José 🙂',
      comment: 'مرحبا — <b>bold?</b>\nsecond line',
      approved: 0,
    });
  });
});

describe('origin comment rate limit', () => {
  it('answers 429 with Retry-After once one address exceeds its comments per window', async () => {
    const limited = await createOriginApp({ db, logger: silentLogger(), commentRateLimit: { max: 2, windowMs: 60_000 } });
    const url = await limited.listen({ host: '127.0.0.1', port: 0 });
    try {
      const post = () =>
        fetch(`${url}/api/v1/plog/first-look-sqlite/comments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'n', comment: 'c' }),
        });
      assert.equal((await post()).status, 201);
      assert.equal((await post()).status, 201);
      const before = snapshot();
      const third = await post();
      assert.equal(third.status, 429);
      assert.ok(Number(third.headers.get('retry-after')) > 0);
      assert.equal(((await third.json()) as { code: string }).code, 'RATE_LIMITED');
      assert.equal(snapshot(), before);
    } finally {
      await limited.close();
    }
  });
});

describe('adminAuthorized', () => {
  it('accepts only the exact bearer token', () => {
    assert.equal(adminAuthorized('Bearer abc', 'abc'), true);
    for (const header of [undefined, '', 'Bearer', 'Bearer ', 'Bearer abcd', 'bearer abc', 'Bearer abc ', 'Basic abc', 'Bearer  abc']) {
      assert.equal(adminAuthorized(header, 'abc'), false, String(header));
    }
  });
});

describe('origin admin auth order', () => {
  it('refuses an unauthenticated write before reading its body', async () => {
    const oversized = await request('PUT', '/api/v1/plog/x', { raw: 'x'.repeat(2_000_000), token: null });
    assert.equal(oversized.status, 401);
    const malformed = await request('PUT', '/api/v1/plog/x', { raw: '{', token: 'wrong' });
    assert.equal(malformed.status, 403);
  });
});
