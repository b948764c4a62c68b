import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AccountStore, openOriginDatabase, type OriginDatabase } from '../src/origin/index.js';
import { DeskClient, TEST_SCRYPT } from '../src/origin/desk/test-support/desk-client.js';
import { startReaderStack, type ReaderStack } from './support/reader-stack.js';

const PASSWORD = 'a long enough pass phrase';
const BODY = '## A heading\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n```js\nlet x = 1;\n```\n\n![](/_render/image/0123456789abcdef0123456789abcdef-800.webp)\n';

/** What is inside `<div id="root">`: the page the React app renders, without the document around it. */
function root(html: string): string {
  return /<div id="root">([\s\S]*)<\/div>(?:<script|<\/body>)/.exec(html)?.[1] ?? '';
}

describe("the desk's preview", () => {
  let stack: ReaderStack;
  let db: OriginDatabase;
  let desk: DeskClient;
  const json = (token: string) => ({ 'content-type': 'application/json', 'x-csrf-token': token, 'sec-fetch-site': 'same-origin' });
  const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

  before(async () => {
    stack = await startReaderStack();
    db = openOriginDatabase(join(stack.config.dataDir, 'origin.sqlite'));
    await new AccountStore(db, TEST_SCRYPT).addUser('alice', PASSWORD);
    desk = new DeskClient(stack.origin.url);
    assert.equal((await desk.login('alice', PASSWORD)).status, 303);
  });
  after(async () => {
    db.close();
    await stack.close();
  });

  it("renders a stored post exactly as the front's page does, with no-store", async () => {
    const token = await desk.sessionToken();
    const form = { _csrf: token, title: 'Preview <parity>', slug: 'preview-parity', body: BODY.replace(/!\[.*\n/, ''), format: 'markdown', categories: 'Web', summary: 'A summary', publish_at: '2026-03-01T08:00', zone: 'UTC', action: 'publish' };
    assert.equal((await desk.request('/admin/posts/new', { form, headers: { origin: stack.origin.url } })).status, 303);
    const preview = await desk.request('/admin/posts/preview-parity/preview');
    assert.equal(preview.status, 200);
    assert.equal(preview.headers.get('cache-control'), 'no-store');
    const front = await fetch(`${stack.frontUrl}/plog/preview-parity`);
    assert.equal(front.status, 200);
    const previewHtml = await preview.text();
    const frontHtml = await front.text();
    assert.ok(root(frontHtml).includes('<article><h1>Preview &lt;parity&gt;</h1>'));
    assert.equal(root(previewHtml), root(frontHtml), "the preview's page is the front's page");
    assert.doesNotMatch(previewHtml, /<script/, 'the preview runs no script');
  });

  it('renders what is typed through the renderer, answering the images without alt text, storing nothing anywhere', async () => {
    const before = { posts: count('posts'), purges: count('purge_jobs'), search: count('search_jobs') };
    const token = await desk.sessionToken();
    const response = await desk.request('/admin/preview', {
      body: JSON.stringify({ oid: 'not-stored', title: 'Typed <b>title</b>', body: BODY, format: 'markdown', categories: ['Web', 'not a category!'], pub_date: '2026-05-01T10:00:00Z' }),
      headers: json(token),
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.deepEqual(JSON.parse(decodeURIComponent(response.headers.get('x-images-without-alt') ?? '')), ['/_render/image/0123456789abcdef0123456789abcdef-800.webp']);
    const html = await response.text();
    assert.match(html, /<article><h1>Typed &lt;b&gt;title&lt;\/b&gt;<\/h1>/);
    assert.match(html, /<h2 id="a-heading"[^>]*>A heading<\/h2>/);
    assert.match(html, /<pre tabindex="0" role="region" aria-label="Code example"><code class="language-js">/);
    assert.match(html, /src="\/api\/v1\/images\/0123456789abcdef0123456789abcdef-800\.webp"/, 'images come from the origin');
    assert.match(html, /<a href="\/plog\/category\/Web">Web<\/a>/);
    assert.doesNotMatch(html, /not a category/);
    assert.deepEqual({ posts: count('posts'), purges: count('purge_jobs'), search: count('search_jobs') }, before);
    assert.equal((await fetch(`${stack.frontUrl}/plog/not-stored`)).status, 404);
  });

  it('refuses malformed, oversized and unknown preview input with a 4xx, never a 500', async () => {
    const token = await desk.sessionToken();
    const cases: [string, number][] = [
      ['{', 400],
      ['[]', 400],
      ['{"body": 5}', 400],
      ['{"format": "latex"}', 400],
      ['{"categories": "Web"}', 400],
      ['{"pub_date": "tomorrow"}', 400],
      ['{"script": "<script>"}', 400],
      [JSON.stringify({ body: 'x'.repeat(500_001) }), 400],
    ];
    for (const [body, status] of cases) {
      const response = await desk.request('/admin/preview', { body, headers: json(token) });
      assert.equal(response.status, status, body.slice(0, 40));
      assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    }
    const bytes = Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const invalid = await fetch(`${stack.origin.url}/admin/preview`, { method: 'POST', headers: { cookie: desk.cookieHeader(), ...json(token) }, body: bytes });
    assert.equal(invalid.status, 400);
    const unicode = await desk.request('/admin/preview', { body: JSON.stringify({ title: '缓存策略 🚀', body: '# 缓存策略\n\nØ ü 🚀' }), headers: json(token) });
    assert.equal(unicode.status, 200);
    assert.match(await unicode.text(), /<h1 id="缓存策略"[^>]*>缓存策略<\/h1>/);
  });
});
