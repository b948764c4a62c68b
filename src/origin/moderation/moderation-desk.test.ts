import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AccountStore } from '../desk/index.js';
import { DeskClient, TEST_SCRYPT } from '../desk/test-support/desk-client.js';
import { originAppForSuite } from '../test-support/origin-app.js';

const TOKEN = 'moderation-desk-token';
const PASSWORD = 'a long enough pass phrase';

describe('the moderation desk pages', () => {
  const origin = originAppForSuite({ adminToken: TOKEN, commentRateLimit: { max: 10_000, windowMs: 60_000 }, desk: { scrypt: TEST_SCRYPT, publicUrl: 'https://news.example/' } });
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${origin.base}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  let client: DeskClient | undefined;
  const desk = async () => {
    if (client !== undefined) return client;
    await new AccountStore(origin.db, TEST_SCRYPT).addUser('editor', PASSWORD);
    client = new DeskClient(origin.base);
    assert.equal((await client.login('editor', PASSWORD)).status, 303);
    const body = { title: 'A <b>bold</b> post', body: '<p>x</p>', summary: '', pub_date: '2026-01-01T00:00:00.000Z', categories: [] };
    assert.equal((await api('PUT', '/api/v1/plog/first', body)).status, 201);
    return client;
  };
  const comment = async (text: string, name = 'Reader') => {
    const response = await fetch(`${origin.base}/api/v1/plog/first/comments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, comment: text }) });
    return ((await response.json()) as { id: number }).id;
  };
  const send = async (path: string, form: Record<string, string>) => {
    const browser = await desk();
    const token = await browser.sessionToken();
    return browser.request(path, { form: { _csrf: token, ...form }, headers: { origin: origin.base, 'sec-fetch-site': 'same-origin' } });
  };
  const approved = (id: number) => origin.db.prepare(`SELECT approved FROM comments WHERE id = ?`).pluck().get(id);

  it('sends a browser without a session to the login form when it asks for the queue', async () => {
    const response = await new DeskClient(origin.base).request('/admin/comments');
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/admin/login?next=%2Fadmin%2Fcomments');
  });

  it('lists pending comments escaped, with their post and a labelled checkbox each, when an editor opens the queue', async () => {
    const browser = await desk();
    const id = await comment('<script>alert(1)</script> hello', 'Mallory <img src=x>');
    const response = await browser.request('/admin/comments');
    const html = await response.text();
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.ok(!html.includes('<script>alert'), 'comment text is escaped');
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt; hello'));
    assert.ok(html.includes('Mallory &lt;img src=x&gt;'));
    assert.ok(html.includes('href="https://news.example/plog/first"'));
    assert.match(html, new RegExp(`<input type="checkbox" id="comment-${id}" aria-describedby="comment-${id}-text" name="comment-${id}"/>`));
    assert.match(html, new RegExp(`<label for="comment-${id}"><strong>Mallory`));
    assert.match(html, /<label for="select-all">Select all 1 comment on this page<\/label>/);
    assert.match(html, /<button type="submit" value="approve" name="action">Approve<\/button>/);
    assert.match(html, /<button type="submit" value="delete" class="secondary" name="action">Delete<\/button>/);
  });

  it('approves the ticked comments at once and says so when an editor presses Approve', async () => {
    const a = await comment('first of two');
    const b = await comment('second of two');
    const c = await comment('left alone');
    const response = await send('/admin/comments', { action: 'approve', [`comment-${a}`]: 'on', [`comment-${b}`]: 'on' });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/admin/comments?done=approve&n=2&missing=0');
    assert.deepEqual([approved(a), approved(b), approved(c)], [1, 1, 0]);
    const page = await (await (await desk()).request(response.headers.get('location')!)).text();
    assert.match(page, /<p class="form-ok" role="status">Approved 2 comments.<\/p>/);
  });

  it('deletes every comment of the page when Select all is ticked and Delete pressed', async () => {
    const browser = await desk();
    await comment('another');
    const html = await (await browser.request('/admin/comments')).text();
    const shown = /name="shown" value="([\d,]+)"/.exec(html)?.[1] ?? '';
    assert.ok(shown.split(',').length >= 2);
    const response = await send('/admin/comments', { action: 'delete', all: 'on', shown });
    assert.equal(response.headers.get('location'), `/admin/comments?done=delete&n=${shown.split(',').length}&missing=0`);
    assert.equal(origin.db.prepare(`SELECT count(*) FROM comments WHERE approved = 0`).pluck().get(), 0);
    assert.match(await (await browser.request('/admin/comments')).text(), /No comments are waiting/);
  });

  it('shows the problem on the queue page and changes nothing when the form is empty or hostile', async () => {
    const id = await comment('still here');
    const cases: Record<string, string>[] = [
      { action: 'approve' },
      { action: 'publish', [`comment-${id}`]: 'on' },
      { action: 'approve', 'comment-abc': 'on' },
      { action: 'approve', 'comment-0': 'on' },
      { action: 'approve', 'comment-99999999999999999999': 'on' },
      { action: 'approve', all: 'on', shown: `${id},1;DROP TABLE comments` },
      { action: 'approve', all: 'on', shown: Array.from({ length: 600 }, (_, i) => i + 1).join(',') },
      { action: 'approve', 'comment-٣': 'on' },
    ];
    for (const form of cases) {
      const response = await send('/admin/comments', form);
      assert.equal(response.status, 400, JSON.stringify(form).slice(0, 80));
      assert.match(await response.text(), /role="alert" id="moderation-error"/);
    }
    assert.equal(approved(id), 0);
    const bad = await (await desk()).request('/admin/comments?cursor=zzz');
    assert.equal(bad.status, 400);
  });

  it('refuses a queue change without the session token or from another site', async () => {
    const browser = await desk();
    const id = await comment('guarded');
    const noToken = await browser.request('/admin/comments', { form: { action: 'approve', [`comment-${id}`]: 'on' }, headers: { origin: origin.base } });
    assert.equal(noToken.status, 403);
    const token = await browser.sessionToken();
    const crossSite = await browser.request('/admin/comments', { form: { _csrf: token, action: 'approve', [`comment-${id}`]: 'on' }, headers: { origin: 'https://evil.example' } });
    assert.equal(crossSite.status, 403);
    assert.equal(approved(id), 0);
  });

  it('adds a rule, shows a refused one with its problem, and removes one when an editor uses the rules page', async () => {
    const browser = await desk();
    const added = await send('/admin/comments/rules', { kind: 'word', pattern: 'ＦＲＥＥ money', action: 'hold', note: 'spam <b>' });
    assert.equal(added.status, 303);
    let html = await (await browser.request('/admin/comments/rules?done=added')).text();
    assert.match(html, /Rule added\./);
    assert.ok(html.includes('word “free money”') && html.includes('spam &lt;b&gt;'));
    const refused = await send('/admin/comments/rules', { kind: 'address', pattern: '<svg onload=alert(1)>', action: 'drop', note: '' });
    assert.equal(refused.status, 400);
    html = await refused.text();
    assert.match(html, /role="alert"/);
    assert.ok(html.includes('value="&lt;svg onload=alert(1)&gt;"') && !html.includes('<svg'));
    assert.equal((await send('/admin/comments/rules', { kind: 'word', pattern: 'free money', action: 'drop' })).status, 409);
    // The rule flags a new comment in the queue.
    await comment('FREE MONEY for all');
    html = await (await browser.request('/admin/comments?flagged=1')).text();
    assert.match(html, /Flagged: word “free money”/);
    const id = origin.db.prepare(`SELECT id FROM moderation_rules`).pluck().get() as number;
    assert.equal((await send(`/admin/comments/rules/${id}/delete`, {})).headers.get('location'), '/admin/comments/rules?done=removed');
    assert.equal((await send(`/admin/comments/rules/${id}/delete`, {})).status, 404);
    assert.equal((await send('/admin/comments/rules/abc/delete', {})).status, 400);
  });
});
