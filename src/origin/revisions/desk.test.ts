import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { AccountStore } from '../desk/accounts.js';
import { DeskClient, TEST_SCRYPT } from '../desk/test-support/desk-client.js';
import { ContentStore } from '../store.js';
import { originAppForSuite } from '../test-support/origin-app.js';
import type { PostInput } from '../validation.js';

const PASSWORD = 'a long enough pass phrase';

const input = (title: string, body: string): PostInput => ({ title, format: 'markdown', body, summary: '', categories: ['Web'], pub_date: '2026-02-03T00:00:00.000Z' });
const PAGE = '/admin/posts/story/revisions';

const sameSite = (client: DeskClient) => ({ origin: client.base, 'sec-fetch-site': 'same-origin' });

describe('the revisions desk page', () => {
  const origin = originAppForSuite({ adminToken: 'desk-revisions-token', desk: { scrypt: TEST_SCRYPT } });
  let client: DeskClient;

  before(async () => {
    await new AccountStore(origin.db, TEST_SCRYPT).addUser('alice', PASSWORD);
    const store = new ContentStore(origin.db);
    store.putPost('story', input('Story', 'First line\nSecond line\nThird line'));
    store.putPost('story', input('Story <b>bold</b>', 'First line\nSecond line changed\nThird line\n<script>alert(1)</script>'), { by: 'alice' });
    client = new DeskClient(origin.base);
    assert.equal((await client.login('alice', PASSWORD)).status, 303);
  });

  it('lists every save with who made it and a diff of added and removed lines, marked in words and signs, when an editor opens it', async () => {
    const response = await client.request(PAGE);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const html = await response.text();
    assert.match(html, /<h1>Revisions of “Story &lt;b&gt;bold&lt;\/b&gt;”<\/h1>/);
    assert.match(html, /<h2 id="revision-2">Revision 2 \(current\)<\/h2>/);
    assert.match(html, /by alice · /);
    assert.match(html, /by api · /);
    assert.match(html, /<del><span class="visually-hidden">Removed: <\/span><span class="diff-mark" aria-hidden="true">−<\/span>Second line<\/del>/);
    assert.match(html, /<ins><span class="visually-hidden">Added: <\/span><span class="diff-mark" aria-hidden="true">\+<\/span>Second line changed<\/ins>/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.doesNotMatch(html, /<script>/);
    assert.match(html, /<button type="submit">Restore revision 1<\/button>/);
    assert.doesNotMatch(html, /Restore revision 2/, 'the current revision has nothing to restore');
    assert.match(html, /<p role="status" class="form-ok"><\/p>/);
  });

  it('restores a revision as a new one by the editor and says so in a status line, when its Restore form is sent', async () => {
    const page = await (await client.request(PAGE)).text();
    const response = await client.request(`${PAGE.replace('/revisions', '')}/revisions/1/restore`, { form: { _csrf: DeskClient.csrfOf(page) }, headers: sameSite(client) });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), `${PAGE}?restored=3`);
    const after = await (await client.request(`${PAGE}?restored=3`)).text();
    assert.match(after, /<p role="status" class="form-ok">Restored: it is revision 3 now.<\/p>/);
    assert.match(after, /Revision 3 \(current\)/);
    assert.match(after, /by alice · [\d,]+ characters · restored from revision 1/);
    const stored = origin.db.prepare(`SELECT title, source FROM posts WHERE oid = 'story'`).get() as { title: string; source: string };
    assert.deepEqual(stored, { title: 'Story', source: 'First line\nSecond line\nThird line' });
  });

  it('refuses a restore without the token, from another site or without a session, writing nothing', async () => {
    const count = () => origin.db.prepare(`SELECT count(*) FROM post_revisions`).pluck().get();
    const before = count();
    const action = '/admin/posts/story/revisions/1/restore';
    const token = await client.sessionToken();
    assert.equal((await client.request(action, { form: { _csrf: 'wrong' }, headers: sameSite(client) })).status, 403);
    assert.equal((await client.request(action, { form: { _csrf: token }, headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } })).status, 403);
    assert.equal((await new DeskClient(origin.base).request(action, { form: { _csrf: token }, headers: sameSite(client) })).status, 401);
    assert.equal(count(), before);
  });

  it('sends a visitor without a session to the login form, coming back after', async () => {
    const response = await new DeskClient(origin.base).request(PAGE);
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), `/admin/login?next=${encodeURIComponent(PAGE)}`);
  });

  it('answers malformed, hostile and unknown addresses with a desk error page, never a 500', async () => {
    const token = await client.sessionToken();
    const cases: [string, string, number][] = [
      ['GET', '/admin/posts/none/revisions', 404],
      ['GET', '/admin/posts/Bad%20Slug/revisions', 400],
      ['GET', '/admin/posts/%E2%80%AEevil/revisions', 400],
      ['GET', `/admin/posts/${'a'.repeat(150)}/revisions`, 400],
      ['GET', '/admin/posts/story/revisions?before=zero', 400],
      ['GET', '/admin/posts/story/revisions?bogus=%3Cscript%3E', 400],
      ['POST', '/admin/posts/story/revisions/0/restore', 400],
      ['POST', '/admin/posts/story/revisions/99/restore', 404],
      ['POST', '/admin/posts/none/revisions/1/restore', 404],
      ['POST', '/admin/posts/story/revisions/%F0%9F%92%A5/restore', 400],
    ];
    for (const [method, path, status] of cases) {
      const response = await client.request(path, method === 'POST' ? { form: { _csrf: token }, headers: sameSite(client) } : {});
      assert.equal(response.status, status, `${method} ${path}`);
      assert.match(response.headers.get('content-type') ?? '', /text\/html/);
      assert.doesNotMatch(await response.text(), /<script/);
    }
  });

  it('answers a history of large rewritten sources quickly and with a bounded page', async () => {
    const store = new ContentStore(origin.db);
    for (let revision = 0; revision < 4; revision++) {
      store.putPost('huge', input('Huge', Array.from({ length: 20_000 }, (_, i) => `${revision}:${i}:${(i * 7919 + revision) % 10007}`).join('\n')));
    }
    const started = performance.now();
    const response = await client.request('/admin/posts/huge/revisions');
    const html = await response.text();
    assert.equal(response.status, 200);
    assert.ok(performance.now() - started < 3_000, `answered in ${Math.round(performance.now() - started)} ms`);
    assert.ok(html.length < 1_000_000, `${html.length} characters`);
  });

  it('says there is no history yet for a post stored without a save (the demo content)', async () => {
    origin.db
      .prepare(`INSERT INTO posts (oid, title, summary, body_html, pub_date, categories, updated_at) VALUES ('seeded', 'Seeded', '', '<p>Hi</p>', '2026-01-01', '[]', '2026-01-01')`)
      .run();
    const html = await (await client.request('/admin/posts/seeded/revisions')).text();
    assert.match(html, /No saved revisions yet/);
  });

  it('pages through long histories ten at a time', async () => {
    const store = new ContentStore(origin.db);
    for (let i = 0; i < 12; i++) store.putPost('long', input('Long', `Line ${i}`));
    const first = await (await client.request('/admin/posts/long/revisions')).text();
    assert.equal([...first.matchAll(/<h2 id="revision-/g)].length, 10);
    const link = /<a href="(\/admin\/posts\/long\/revisions\?before=3)">Older revisions<\/a>/.exec(first);
    assert.ok(link?.[1] !== undefined, 'a link to the older page');
    const second = await (await client.request(link[1])).text();
    assert.deepEqual([...second.matchAll(/<h2 id="revision-(\d+)"/g)].map((match) => match[1]), ['2', '1']);
    assert.match(second, /Changes from revision 1/);
  });
});
