import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { silentLogger } from '../log.js';
import { splitSections } from '../search/indexing/content-build.js';
import { createOriginApp } from './app.js';
import { MIGRATIONS, openOriginDatabase, type OriginDatabase } from './database.js';
import { ContentStore, type PostPage, type PostWithSource } from './store.js';

const TOKEN = 'markdown-api-token';
const OID = 'in-markdown';
let db: OriginDatabase;
let app: FastifyInstance;
let base: string;

async function send(method: string, path: string, body?: unknown, type = 'application/json'): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': type }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

const getPost = async (oid = OID): Promise<PostWithSource> => ((await send('GET', `/api/v1/plog/${oid}`)).json as unknown as PostPage).post;
const put = (body: unknown, oid = OID) => send('PUT', `/api/v1/plog/${oid}`, body);
const patch = (body: unknown) => send('PATCH', `/api/v1/plog/${OID}`, body, 'application/merge-patch+json');
const jobs = () => ({
  purges: db.prepare('SELECT count(*) FROM purge_jobs').pluck().get() as number,
  searches: db.prepare('SELECT oid FROM search_jobs').pluck().all() as string[],
});
/** Everything a write could change, to prove a refused one wrote nothing. */
const snapshot = () => JSON.stringify(['posts', 'purge_jobs', 'search_jobs'].map((table) => db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all()));

const SOURCE = [
  'Intro with a [link](https://example.org) and `code`.',
  '## Getting started',
  '- one\n- two',
  '| a | b |\n|---|--:|\n| 1 | 2 |',
  '```ts\nconst answer: number = 42;\n```',
  '## Getting started',
  '<script>alert(1)</script><img src=x onerror=alert(1)> [bad](javascript:alert(1))',
  '## 缓存策略',
].join('\n\n');
const post = { title: 'Written in Markdown', format: 'markdown', body: SOURCE, summary: 'S', categories: ['Web'], pub_date: '2026-11-02' };

before(async () => {
  db = openOriginDatabase(':memory:');
  app = await createOriginApp({ db, logger: silentLogger(), adminToken: TOKEN });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await app.close();
  db.close();
});
beforeEach(() => {
  db.prepare('DELETE FROM posts WHERE oid = ?').run(OID);
  db.exec('DELETE FROM purge_jobs; DELETE FROM search_jobs');
});

describe('a Markdown post through the editor API', () => {
  it('stores the source as written and answers it with its format and the sanitised HTML it renders to', async () => {
    const created = await put(post);
    assert.equal(created.status, 201);
    const saved = await getPost();
    assert.deepEqual((created.json as unknown as PostPage).post, saved);
    assert.equal(saved.format, 'markdown');
    assert.equal(saved.body, SOURCE);
    assert.match(saved.body_html, /^<p>Intro with a <a href="https:\/\/example.org" rel="noopener noreferrer">link<\/a> and <code>code<\/code>.<\/p>/);
    assert.match(saved.body_html, /<h2 id="getting-started">Getting started<\/h2>[^]*<h2 id="getting-started-2">[^]*<h2 id="缓存策略">/);
    assert.match(saved.body_html, /<td style="text-align:right">2<\/td>/);
    assert.match(saved.body_html, /<code class="language-ts"><span class="hljs-keyword">const<\/span>/);
    assert.doesNotMatch(saved.body_html, /<script|onerror|javascript:[^(]*"/);
  });

  it('answers readers (no token, or a wrong one) the format and the HTML without the source', async () => {
    await put(post);
    for (const authorization of [undefined, 'Bearer wrong', 'Basic x']) {
      const response = await fetch(`${base}/api/v1/plog/${OID}`, authorization === undefined ? {} : { headers: { authorization } });
      assert.equal(response.status, 200);
      const { post: seen } = (await response.json()) as { post: Record<string, unknown> };
      assert.deepEqual(Object.keys(seen).sort(), ['body_html', 'categories', 'format', 'oid', 'pub_date', 'summary', 'title']);
      assert.equal(seen.body_html, (await getPost()).body_html);
    }
  });

  it('hands search the rendered sections and records the purge and search jobs of an edit', async () => {
    await put(post);
    assert.deepEqual(jobs(), { purges: 1, searches: [OID] });
    const sections = splitSections(new ContentStore(db).getPost(OID)?.post.body_html ?? '');
    assert.deepEqual(sections.map((section) => section.id), ['', 'getting-started', 'getting-started-2', '缓存策略']);
  });

  it('saves GET\'s answer sent back unchanged as the same post, and a patch of body or format as a new rendering', async () => {
    await put(post);
    const loaded = await getPost();
    assert.equal((await put({ post: loaded, comments: {} })).status, 200);
    assert.deepEqual(await getPost(), loaded);
    assert.equal((await patch({ body: '# New\n\n*em*' })).status, 200);
    assert.deepEqual(await getPost(), { ...loaded, body: '# New\n\n*em*', body_html: '<h1 id="new">New</h1>\n<p><em>em</em></p>\n' });
    assert.equal((await patch({ post: { format: 'html' } })).status, 200);
    assert.deepEqual(await getPost(), { ...loaded, format: 'html', body: '# New\n\n*em*', body_html: '# New\n\n*em*' });
  });

  it('keeps a client from before formats working: body_html alone is an HTML source, sanitised for readers', async () => {
    assert.equal((await put({ title: 'Old client', body_html: '<p onclick="x()">Hi</p><script>x()</script>', pub_date: '2026-11-02' })).status, 201);
    const saved = await getPost();
    assert.deepEqual([saved.format, saved.body, saved.body_html], ['html', '<p onclick="x()">Hi</p><script>x()</script>', '<p>Hi</p>']);
    assert.equal((await patch({ body_html: '<p>Edited</p>' })).status, 200);
    assert.deepEqual([(await getPost()).body, (await getPost()).body_html], ['<p>Edited</p>', '<p>Edited</p>']);
  });

  it('refuses malformed, hostile and unicode formats and sources with a clear 400, writing nothing', async () => {
    await put(post);
    const before = snapshot();
    const cases: [unknown, RegExp][] = [
      [{ ...post, format: 'Markdown' }, /format must be one of "markdown", "html"/],
      [{ ...post, format: 'ｍａｒｋｄｏｗｎ' }, /format must be one of/],
      [{ ...post, format: 'x'.repeat(100_000) }, /format must be one of/],
      [{ ...post, format: ['markdown'] }, /format must be one of/],
      [{ ...post, format: { toString: 'markdown' } }, /format must be one of/],
      [{ ...post, body: undefined, body_html: '<p>x</p>' }, /body_html is rendered from body in a Markdown post/],
      [{ ...post, body_html: '<p>other</p>' }, /body_html is rendered from body in a Markdown post/],
      [{ ...post, body: 'changed', body_html: '<p>other</p>' }, /not both/],
      [{ ...post, body: '# a\u0000b' }, /body must not contain control characters/],
      [{ ...post, body: 'x'.repeat(500_001) }, /body must be at most 500000 characters/],
      [{ ...post, body: '   ' }, /body must not be empty/],
    ];
    for (const [body, message] of cases) {
      const answer = await put(body);
      assert.equal(answer.status, 400, JSON.stringify(body).slice(0, 100));
      assert.equal(answer.json.code, 'INVALID_INPUT');
      assert.match(answer.json.error as string, message);
    }
    for (const body of [{ body: null }, { body_html: null }, { body_html: '<p>x</p>' }, { format: 7 }]) {
      assert.equal((await patch(body)).status, 400, JSON.stringify(body));
    }
    assert.equal(snapshot(), before);
  });

  it('stores any Markdown source as written and answers it, never with an unhandled error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }), fc.constantFrom('markdown', 'html'), async (body, format) => {
        const answer = await put({ ...post, format, body });
        const expected = body.normalize('NFC').trim();
        assert.ok([200, 201, 400].includes(answer.status), `${answer.status} ${JSON.stringify(answer.json)}`);
        if (answer.status !== 400) assert.equal(((answer.json as unknown as PostPage).post).body, expected);
      }),
      { numRuns: 60 },
    );
  });
});

describe('posts stored before formats', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sitestack-markdown-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('are sanitised from their HTML, kept as their source, when the origin first opens the file, with their jobs', async () => {
    const file = join(dir, 'origin.sqlite');
    const old = new Database(file);
    for (const step of MIGRATIONS.slice(0, 5)) old.exec(step);
    old.pragma('user_version = 5');
    const insert = old.prepare(`INSERT INTO posts (oid, title, summary, body_html, pub_date, categories, updated_at) VALUES (?, 'T', '', ?, '2026-01-01T00:00:00.000Z', '["Web"]', 'x')`);
    insert.run('unsafe', '<p>Hi</p><script>steal()</script>');
    insert.run('safe', '<h2 id="a">A</h2>\n<p>fine</p>');
    old.close();

    const opened = openOriginDatabase(file, { seed: false });
    const origin = await createOriginApp({ db: opened, logger: silentLogger() });
    const store = new ContentStore(opened);
    assert.deepEqual(store.getPost('unsafe')?.post, {
      oid: 'unsafe', title: 'T', format: 'html', body: '<p>Hi</p><script>steal()</script>', body_html: '<p>Hi</p>',
      summary: '', pub_date: '2026-01-01T00:00:00.000Z', categories: ['Web'],
    });
    assert.equal(store.getPost('safe')?.post.body_html, '<h2 id="a">A</h2>\n<p>fine</p>');
    assert.deepEqual(opened.prepare('SELECT oid FROM search_jobs').pluck().all(), ['unsafe']);
    assert.equal(opened.prepare('SELECT count(*) FROM purge_jobs').pluck().get(), 1);
    assert.equal(store.refreshRenderings(), 0, 'a second start renders nothing again');
    await origin.close();
    opened.close();
  });
});
