import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { originAppForSuite } from '../test-support/origin-app.js';
import { DeskClient, loggedInEditor, TEST_SCRYPT } from './test-support/desk-client.js';

const PASSWORD = 'a long enough pass phrase';
/** The opening tag of the control with this id. */
function control(html: string, id: string): string {
  return new RegExp(`<(?:input|textarea|select) id="${id}"[^>]*>`).exec(html)?.[0] ?? '';
}

const FORM = { title: 'First words', slug: 'first-words', body: '# Hello\n\nSome *emphasis*.', format: 'markdown', categories: 'Web, SQLite', summary: '', publish_at: '2026-06-01T09:30', zone: 'Europe/Paris' };

describe('the editor routes', () => {
  const origin = originAppForSuite({ desk: { scrypt: TEST_SCRYPT } });
  let client: Promise<DeskClient> | undefined;
  /** A logged-in editor. */
  const editor = (): Promise<DeskClient> => (client ??= loggedInEditor(origin, 'alice', PASSWORD));
  const same = () => ({ origin: origin.base, 'sec-fetch-site': 'same-origin' });
  const save = async (path: string, form: Record<string, string>) => (await editor()).post(path, form);
  const count = (table: string) => origin.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

  it('sends a browser without a session to the login form, and refuses a save without one', async () => {
    const anonymous = new DeskClient(origin.base);
    for (const path of ['/admin/posts/new', '/admin/posts/first-words', '/admin/posts/first-words/preview']) {
      const response = await anonymous.request(path);
      assert.equal(response.status, 303, path);
      assert.match(response.headers.get('location') ?? '', /^\/admin\/login/);
    }
    assert.equal((await anonymous.request('/admin/posts/new', { form: { ...FORM, action: 'publish' }, headers: same() })).status, 401);
    assert.equal((await anonymous.request('/admin/preview', { body: '{}', headers: { 'content-type': 'application/json', ...same() } })).status, 401);
  });

  it('refuses a save without the session token or from another site, storing nothing', async () => {
    const desk = await editor();
    const token = await desk.sessionToken();
    assert.equal((await desk.request('/admin/posts/new', { form: { ...FORM, action: 'publish' }, headers: same() })).status, 403);
    assert.equal((await desk.request('/admin/posts/new', { form: { ...FORM, action: 'publish', _csrf: token }, headers: { origin: 'https://evil.example' } })).status, 403);
    assert.equal((await desk.request('/admin/preview', { body: '{}', headers: { 'content-type': 'application/json', 'x-csrf-token': 'forged', ...same() } })).status, 403);
    assert.equal(count('posts'), 0);
  });

  it('shows every post on the first page with a New post link, and an editor labelled as the issue names it', async () => {
    const desk = await editor();
    const list = await (await desk.request('/admin/')).text();
    assert.match(list, /<a href="\/admin\/posts\/new">New post<\/a>/);
    assert.match(list, /<nav aria-label="Desk"/);
    for (const name of ['Posts', 'Comments', 'Insights']) assert.match(list, new RegExp(`>${name}</a>`));
    const page = await desk.request('/admin/posts/new');
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    for (const [id, label] of [['title', 'Title'], ['slug', 'Slug'], ['body', 'Body'], ['categories', 'Categories'], ['publish_at', 'Publish at']]) {
      assert.match(html, new RegExp(`<label for="${id}">${label}</label>`), label);
    }
    assert.match(control(html, 'body'), /^<textarea/);
    assert.match(control(html, 'publish_at'), /type="datetime-local"/);
    for (const label of ['Save draft', 'Publish', 'Schedule', 'Preview']) assert.match(html, new RegExp(`value="[a-z-]+"[^>]*>${label}</button>`), label);
    assert.doesNotMatch(html, />Unpublish</);
    assert.match(html, /<iframe id="preview" title="[^"]+" sandbox=""/);
    assert.match(html, /<script type="module" src="\/admin\/static\/editor-[\w-]{16}\.js"><\/script>/);
  });

  it('publishes through the API validation, in the browser zone stored as UTC, and shows the post after a 303', async () => {
    const response = await save('/admin/posts/new', { ...FORM, action: 'publish' });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/admin/posts/first-words?saved=publish');
    const row = origin.db.prepare('SELECT title, format, source, pub_date, categories FROM posts WHERE oid = ?').get('first-words');
    assert.deepEqual(row, { title: 'First words', format: 'markdown', source: FORM.body, pub_date: '2026-06-01T07:30:00.000Z', categories: '["Web","SQLite"]' });
    const page = await (await editor()).request('/admin/posts/first-words?saved=publish');
    const html = await page.text();
    assert.match(html, /role="status">Published\.<\/p>/);
    assert.match(html, /value="2026-06-01T07:30"/, 'shown in UTC until the script moves it to the browser zone');
    assert.match(html, />Unpublish<\/button>/);
    assert.match(html, /href="\/admin\/posts\/first-words\/revisions"/);
    const list = await (await (await editor()).request('/admin/')).text();
    assert.match(list, /<a href="\/admin\/posts\/first-words">First words<\/a><\/th><td>Published<\/td>/);
  });

  it('shows a taken slug and a bad date next to their fields, keeping everything typed', async () => {
    const before = count('posts');
    const taken = await save('/admin/posts/new', { ...FORM, title: 'Another <b>one</b>', body: 'Kept body ✓', action: 'publish' });
    const html = await taken.text();
    assert.equal(taken.status, 409);
    const slug = control(html, 'slug');
    for (const attribute of ['value="first-words"', 'aria-invalid="true"', 'aria-describedby="slug-error slug-hint"']) assert.ok(slug.includes(attribute), `${attribute} in ${slug}`);
    assert.match(html, /<p class="form-error field-error" id="slug-error">Slug &#x27;first-words&#x27; is taken by another post: choose another\.<\/p>/);
    assert.match(html, /value="Another &lt;b&gt;one&lt;\/b&gt;"/);
    assert.match(html, />Kept body ✓<\/textarea>/);

    const late = await save('/admin/posts/new', { ...FORM, slug: 'dated', publish_at: '2026-02-30T10:00', action: 'publish' });
    const lateHtml = await late.text();
    assert.equal(late.status, 400);
    assert.match(control(lateHtml, 'publish_at'), /aria-describedby="publish_at-error publish_at-hint"/);
    assert.match(control(lateHtml, 'publish_at'), /value="2026-02-30T10:00"/);
    assert.match(lateHtml, /id="publish_at-error">Publish at must be a real date and time/);
    assert.equal(count('posts'), before);
  });

  it('refuses hostile input with a clear answer and stores nothing: a slug with .., a 2 MB body, bad bytes, script', async () => {
    const before = count('posts');
    const dots = await save('/admin/posts/new', { ...FORM, slug: '../etc/passwd', action: 'publish' });
    assert.equal(dots.status, 400);
    assert.match(await dots.text(), /id="slug-error">Slug must be 1-100 characters of a-z, 0-9 and single hyphens between them\./);

    const huge = await save('/admin/posts/new', { ...FORM, slug: 'huge', body: 'x'.repeat(2 * 1024 * 1024), action: 'publish' });
    assert.equal(huge.status, 400);
    assert.match(await huge.text(), /id="body-error">Body must be at most 500000 characters\./);

    const desk = await editor();
    const token = await desk.sessionToken();
    const bytes = Buffer.concat([Buffer.from(`_csrf=${token}&action=publish&slug=bytes&body=ok&title=`), Buffer.from([0xff, 0xfe])]);
    const bad = await fetch(`${origin.base}/admin/posts/new`, { method: 'POST', headers: { cookie: desk.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', ...same() }, body: bytes, redirect: 'manual' });
    assert.equal(bad.status, 400);
    assert.match(bad.headers.get('content-type') ?? '', /text\/html/);
    assert.equal(count('posts'), before);

    const script = await save('/admin/posts/new', { ...FORM, slug: 'scripted', title: '<script>alert(1)</script> 日本語 café', body: '<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>', action: 'publish' });
    assert.equal(script.status, 303);
    const page = await (await desk.request('/admin/posts/scripted')).text();
    assert.doesNotMatch(page.replace(/<script type="module" src="[^"]+"><\/script>/, ''), /<script/);
    assert.match(page, /value="&lt;script&gt;alert\(1\)&lt;\/script&gt; 日本語 café"/);
    const stored = origin.db.prepare('SELECT body_html FROM posts WHERE oid = ?').pluck().get('scripted') as string;
    assert.doesNotMatch(stored, /<script|onerror|href="javascript:/);
  });

  it('answers every form a fuzzer sends with a 303 or a 4xx page, never a 500', async () => {
    const desk = await editor();
    const token = await desk.sessionToken();
    const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('', '..', '/', '%00', 'a'.repeat(300)));
    await fc.assert(
      fc.asyncProperty(fc.record({ title: text, slug: text, body: text, format: text, categories: text, publish_at: text, zone: text, action: text }), async (form) => {
        const response = await desk.request('/admin/posts/new', { form: { _csrf: token, ...form }, headers: same() });
        assert.ok(response.status === 303 || (response.status >= 400 && response.status < 500), `${response.status} for ${JSON.stringify(form)}`);
        await response.arrayBuffer();
      }),
      { numRuns: 60 },
    );
  });

  it('answers any JSON the preview is sent, and any address under /admin/posts/, with a page or a 4xx, never a 500', async () => {
    const desk = await editor();
    const token = await desk.sessionToken();
    const headers = { 'content-type': 'application/json', 'x-csrf-token': token, ...same() };
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.record({ title: fc.jsonValue(), body: fc.oneof(fc.string(), fc.jsonValue()), format: fc.jsonValue(), categories: fc.jsonValue(), pub_date: fc.jsonValue() }, { requiredKeys: [] })), async (value) => {
        const response = await desk.request('/admin/preview', { body: JSON.stringify(value) ?? 'null', headers });
        assert.ok(response.status === 200 || (response.status >= 400 && response.status < 500), `${response.status} for ${JSON.stringify(value)?.slice(0, 200)}`);
        await response.arrayBuffer();
      }),
      { numRuns: 80 },
    );
    for (const path of ['/admin/posts/..%2F..%2Fetc', '/admin/posts/%E2%80%AE', '/admin/posts/UPPER', `/admin/posts/${'a'.repeat(300)}`, '/admin/posts/caf%C3%A9/preview', '/admin/posts/%ff']) {
      const response = await desk.request(path);
      assert.ok(response.status >= 400 && response.status < 500, `${path}: ${response.status}`);
    }
  });

  it('offers both ways out on the logout page the nav links to from pages without the token', async () => {
    const desk = await editor();
    const html = await (await desk.request('/admin/logout')).text();
    assert.match(html, /<h1>Log out<\/h1>/);
    assert.match(html, /action="\/admin\/logout"[^]*>Log out<\/button>/);
    assert.match(html, /action="\/admin\/logout\?everywhere=1"[^]*>Log out everywhere<\/button>/);
    const error = await (await desk.request('/admin/posts/no-such-post')).text();
    assert.match(error, /<a href="\/admin\/logout">Log out<\/a>/, "a page without the session's token links to the logout page");
  });

  it('serves the desk script under its hash, immutable, and nothing else under /admin/static/', async () => {
    const html = await (await (await editor()).request('/admin/posts/new')).text();
    const path = /src="(\/admin\/static\/editor-[\w-]+\.js)"/.exec(html)?.[1] ?? '';
    const script = await fetch(`${origin.base}${path}`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(script.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.ok((await script.text()).length > 1000);
    const other = await fetch(`${origin.base}/admin/static/editor-0000000000000000.js`);
    assert.equal(other.status, 404);
    assert.equal(other.headers.get('cache-control'), 'no-store');
  });

  it('allows the desk its own script, fetches and a preview frame, and nothing wider', async () => {
    const policy = (await (await editor()).request('/admin/posts/new')).headers.get('content-security-policy') ?? '';
    assert.match(policy, /script-src 'self'/);
    assert.match(policy, /connect-src 'self'/);
    assert.match(policy, /frame-src 'self'/);
    assert.match(policy, /frame-ancestors 'none'/);
    assert.doesNotMatch(policy, /unsafe-eval|script-src[^;]*unsafe-inline|\*/);
  });
});
