import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PostGroup } from './policy.js';
import { originAppForSuite } from './test-support/origin-app.js';

const TOKEN = 'admin-token-for-tests';
const origin = originAppForSuite({ adminToken: TOKEN, commentRateLimit: { max: 1000, windowMs: 60_000 } });

beforeEach(() => {
  origin.db.exec('DELETE FROM posts; DELETE FROM purge_jobs');
});

function admin(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${origin.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const post = (categories: string[], pub_date = '2026-03-01') => ({ title: 'T', body: '<p>b</p>', categories, pub_date });

/** The keys of the purge jobs enqueued so far, oldest job first. */
function jobKeys(): string[][] {
  return origin.db.prepare<[], string>('SELECT keys FROM purge_jobs ORDER BY id').pluck().all().map((keys) => JSON.parse(keys) as string[]);
}

async function list(query: string): Promise<{ status: number; body: { groups?: PostGroup[]; error?: string; code?: string } }> {
  const response = await fetch(`${origin.base}/api/v1/plog/${query}`);
  return { status: response.status, body: (await response.json()) as { groups?: PostGroup[]; error?: string; code?: string } };
}

const oidsOf = (groups: PostGroup[] | undefined) => (groups ?? []).flatMap((group) => group.posts.map((item) => item.oid));

describe('origin GET /api/v1/plog/?category=', () => {
  it('lists only the posts of the category, newest first, when given its exact name', async () => {
    await admin('PUT', '/api/v1/plog/old-web', post(['Web'], '2026-01-05'));
    await admin('PUT', '/api/v1/plog/new-web', post(['Databases', 'Web'], '2026-03-05'));
    await admin('PUT', '/api/v1/plog/other', post(['Databases'], '2026-02-05'));
    const web = await list('?category=Web');
    assert.equal(web.status, 200);
    assert.deepEqual(oidsOf(web.body.groups), ['new-web', 'old-web']);
    assert.deepEqual(web.body.groups?.map((group) => group.date), ['2026.03', '2026.01']);
    assert.deepEqual(oidsOf((await list('?category=web')).body.groups), [], 'names are compared exactly');
    assert.deepEqual(oidsOf((await list('?category=')).body.groups), ['new-web', 'other', 'old-web'], 'an empty value lists every post');
  });

  it('finds a unicode category whether the query is NFC or NFD, and answers no groups for an unknown one', async () => {
    await admin('PUT', '/api/v1/plog/cafe', post(['Café au lait', 'C#', '数据库']));
    for (const query of ['?category=Caf%C3%A9%20au%20lait', '?category=Cafe%CC%81+au+lait', '?category=C%23', `?category=${encodeURIComponent('数据库')}`]) {
      assert.deepEqual(oidsOf((await list(query)).body.groups), ['cafe'], query);
    }
    const unknown = await list('?category=Nothing');
    assert.equal(unknown.status, 200);
    assert.deepEqual(unknown.body.groups, []);
  });

  it('answers a clear 400 when the query is malformed, oversized or hostile', async () => {
    const cases: [string, RegExp][] = [
      ['?category=Web&category=Databases', /category must be given once/],
      [`?category=${'a'.repeat(41)}`, /category must be 1-40 letters/],
      [`?category=${'a'.repeat(7_000)}`, /category must be 1-40 letters/],
      ['?category=%00', /category must be 1-40/],
      ['?category=a%0Ab', /category must be 1-40/],
      ['?category=..%2F..%2Fetc', /category must be 1-40/],
      ['?category=%3Cscript%3E', /category must be 1-40/],
      ['?category=%F0%9F%99%82', /category must be 1-40/],
      ['?category=%ED%A0%80', /category must be 1-40/],
      ['?category=%20Web', /no space at either end/],
      ['?category=%ZZ', /category must be 1-40/],
      ['?categroy=Web', /unknown query parameter\(s\): "categroy"; use category/],
      ['?category[]=Web', /unknown query parameter/],
      ['?__proto__=x', /unknown query parameter/],
    ];
    for (const [query, message] of cases) {
      const answer = await list(query);
      assert.equal(answer.status, 400, query);
      assert.equal(answer.body.code, 'INVALID_INPUT', query);
      assert.match(answer.body.error ?? '', message, query);
      assert.ok((answer.body.error ?? '').length < 200, 'the message does not echo a long value');
    }
  });
});

describe('origin purge jobs by key', () => {
  const listings = ['listing:home', 'listing:archive', 'listing:feed', 'listing:sitemap'];

  it('names the new post, every listing and its categories when a post is created', async () => {
    assert.equal((await admin('PUT', '/api/v1/plog/fresh', post(['Web', 'Café']))).status, 201);
    assert.deepEqual(jobKeys(), [['post:fresh', ...listings, 'category:Web', 'category:Caf%C3%A9']]);
  });

  it('names the categories the post left and those it joined when an edit moves it', async () => {
    await admin('PUT', '/api/v1/plog/moved', post(['Web', 'Search']));
    origin.db.exec('DELETE FROM purge_jobs');
    assert.equal((await admin('PUT', '/api/v1/plog/moved', post(['Search', 'Databases']))).status, 200);
    assert.deepEqual(jobKeys(), [['post:moved', ...listings, 'category:Web', 'category:Search', 'category:Databases']]);
    origin.db.exec('DELETE FROM purge_jobs');
    const patched = await fetch(`${origin.base}/api/v1/plog/moved`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ categories: [] }),
    });
    assert.equal(patched.status, 200);
    assert.deepEqual(jobKeys(), [['post:moved', ...listings, 'category:Search', 'category:Databases']]);
  });

  it('names the categories the post was in when it is deleted', async () => {
    await admin('PUT', '/api/v1/plog/gone', post(['Operations']));
    origin.db.exec('DELETE FROM purge_jobs');
    assert.equal((await admin('DELETE', '/api/v1/plog/gone')).status, 204);
    assert.deepEqual(jobKeys(), [['post:gone', ...listings, 'category:Operations']]);
    assert.equal((await admin('DELETE', '/api/v1/plog/gone')).status, 404);
    assert.equal(jobKeys().length, 1, 'deleting nothing purges nothing');
  });

  it('names the post, the listings that count comments and its categories when a comment is approved or deleted', async () => {
    await admin('PUT', '/api/v1/plog/talked', post(['Web']));
    const submitted = await fetch(`${origin.base}/api/v1/plog/talked/comments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ann', comment: 'Hi' }),
    });
    const { id } = (await submitted.json()) as { id: number };
    origin.db.exec('DELETE FROM purge_jobs');
    assert.equal((await admin('POST', `/api/v1/comments/${id}/approve`)).status, 200);
    assert.equal((await admin('DELETE', `/api/v1/comments/${id}`)).status, 204);
    const comments = ['post:talked', 'listing:home', 'listing:archive', 'category:Web'];
    assert.deepEqual(jobKeys(), [comments, comments]);
  });
});
