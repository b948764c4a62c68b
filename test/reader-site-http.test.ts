import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DomUtils, parseDocument } from 'htmlparser2';
import { adminAt } from './support/stack.js';
import { startReaderStack, type ReaderStack } from './support/reader-stack.js';
import { elements, parseXml, textOf } from './support/xml.js';

let stack: ReaderStack;

const ALLOWED = 'www.example.com';

function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${stack.frontUrl}${path}`, { headers, redirect: 'manual' });
}

/** The page's head as a map of `rel=canonical`, `description` and the `og:` properties to their values. */
async function headOf(path: string, headers: Record<string, string> = {}): Promise<Record<string, string>> {
  const response = await get(path, headers);
  const document = parseDocument(await response.text());
  const head: Record<string, string> = {};
  for (const meta of DomUtils.getElementsByTagName('meta', document)) {
    const key = meta.attribs.name ?? meta.attribs.property;
    if (key !== undefined && meta.attribs.content !== undefined) head[key] = meta.attribs.content;
  }
  for (const link of DomUtils.getElementsByTagName('link', document)) {
    if (link.attribs.rel === 'canonical' || link.attribs.rel === 'alternate') head[link.attribs.rel] = link.attribs.href ?? '';
  }
  head.title = DomUtils.textContent(DomUtils.getElementsByTagName('title', document));
  head.footer = DomUtils.textContent(DomUtils.getElementsByTagName('footer', document));
  return head;
}

async function postList(): Promise<string[]> {
  const body = (await (await fetch(`${stack.origin.url}/api/v1/plog/`)).json()) as { groups: { posts: { oid: string }[] }[] };
  return body.groups.flatMap((group) => group.posts.map((post) => post.oid));
}

function comment(oid: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${stack.frontUrl}/plog/${oid}/comments`, { method: 'POST', body: new URLSearchParams(form), headers, redirect: 'manual' });
}

async function pendingComments(): Promise<{ name: string; comment: string }[]> {
  const response = await adminAt(stack.origin.url, 'GET', '/api/v1/comments/pending?limit=500');
  return ((await response.json()) as { items: { name: string; comment: string }[] }).items;
}

before(async () => {
  stack = await startReaderStack({
    ALLOWED_HOSTS: `localhost,127.0.0.1,${ALLOWED}`,
    SITE_NAME: 'Field notes',
    SITE_DESCRIPTION: 'What we learnt serving pages & search.',
    SITE_FOOTER: '© Field notes, written in the open.',
    COMMENT_RATE_LIMIT: '2/minute',
  });
  const put = await adminAt(stack.origin.url, 'PUT', '/api/v1/plog/escaping-matters', {
    title: 'Escaping <b>matters</b> & more',
    body: '<p>Use <code>&lt;script&gt;</code> & friends.</p><pre><code>a &lt; b</code></pre>',
    summary: 'Why "quotes" & <tags> need care.',
    pub_date: '2030-01-02T03:04:05.000Z',
  });
  assert.equal(put.status, 201);
});
after(async () => {
  await stack?.close();
});

describe('the reader\'s site over HTTP', () => {
  it('answers /feed.xml with the 20 latest posts as well-formed Atom with absolute URLs, dates and escaped content', async () => {
    const response = await get('/feed.xml');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/atom\+xml/);
    const feed = parseXml(await response.text());
    assert.equal(textOf(feed, 'title'), 'Field notes');
    const entries = elements(feed, 'entry');
    assert.equal(entries.length, 20);
    const [first] = entries;
    assert.ok(first !== undefined);
    assert.equal(textOf(first, 'title'), 'Escaping <b>matters</b> & more', 'the newest post first, its title as text');
    assert.equal(textOf(first, 'summary'), 'Why "quotes" & <tags> need care.');
    assert.match(textOf(first, 'content'), /^<p>Use <code>&lt;script&gt;<\/code>/, 'the body as escaped HTML');
    for (const entry of entries) {
      const link = elements(entry, 'link')[0]?.attribs.href ?? '';
      assert.match(link, new RegExp(`^${stack.frontUrl}/plog/[a-z0-9-]+$`));
      assert.equal(textOf(entry, 'id'), link);
      assert.ok(!Number.isNaN(Date.parse(textOf(entry, 'updated'))), 'a date');
    }
  });

  it('answers /sitemap.xml with every post, every category, the home page, the archive and the about page, and robots.txt naming it', async () => {
    const sitemap = parseXml(await (await get('/sitemap.xml')).text());
    const locations = elements(sitemap, 'loc').map((loc) => DomUtils.textContent(loc));
    const posts = await postList();
    const listed = (await (await fetch(`${stack.origin.url}/api/v1/plog/`)).json()) as { groups: { posts: { categories: string[] }[] }[] };
    const categories = new Set(listed.groups.flatMap((group) => group.posts.flatMap((post) => post.categories)));
    assert.ok(categories.size > 3);
    assert.deepEqual(
      new Set(locations),
      new Set([
        `${stack.frontUrl}/`,
        `${stack.frontUrl}/plog`,
        `${stack.frontUrl}/about`,
        ...[...categories].map((name) => `${stack.frontUrl}/plog/category/${encodeURIComponent(name)}`),
        ...posts.map((oid) => `${stack.frontUrl}/plog/${oid}`),
      ]),
    );
    assert.equal(locations.length, posts.length + categories.size + 3);
    for (const name of categories) assert.equal((await get(`/plog/category/${encodeURIComponent(name)}`)).status, 200, `the sitemap names only pages that exist: ${name}`);
    const robots = await get('/robots.txt');
    assert.match(robots.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(await robots.text(), new RegExp(`^Sitemap: ${stack.frontUrl}/sitemap.xml$`, 'm'));
    const icon = await get('/favicon.ico');
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get('content-type'), 'image/x-icon');
    assert.deepEqual([...new Uint8Array(await icon.arrayBuffer()).subarray(0, 4)], [0, 0, 1, 0]);
  });

  it('names an allowed X-Forwarded-Host in canonical, Open Graph, feed, sitemap and robots URLs, and the request host for a disallowed one', async () => {
    const allowed = { 'x-forwarded-host': ALLOWED };
    const disallowed = { 'x-forwarded-host': 'evil.example' };
    for (const [headers, base] of [
      [allowed, `http://${ALLOWED}`],
      [disallowed, stack.frontUrl],
      [allowed, `http://${ALLOWED}`],
    ] as const) {
      const head = await headOf('/plog/escaping-matters', headers);
      assert.equal(head.canonical, `${base}/plog/escaping-matters`);
      assert.equal(head['og:url'], `${base}/plog/escaping-matters`);
      assert.equal(head.alternate, `${base}/feed.xml`);
      const feed = parseXml(await (await get('/feed.xml', headers)).text());
      assert.equal(elements(feed, 'link').find((link) => link.attribs.rel === 'self')?.attribs.href, `${base}/feed.xml`);
      assert.match(textOf(parseXml(await (await get('/sitemap.xml', headers)).text()), 'loc'), new RegExp(`^${base}/`));
      assert.match(await (await get('/robots.txt', headers)).text(), new RegExp(`Sitemap: ${base}/sitemap.xml`));
    }
    assert.doesNotMatch(await (await get('/plog/escaping-matters')).text(), /evil\.example/);
  });

  it('gives every page type a description, a canonical link, Open Graph tags and the configured identity', async () => {
    const [oid] = await postList();
    for (const [path, canonical] of [
      ['/', '/'],
      ['/plog', '/plog'],
      [`/plog/${oid}`, `/plog/${oid}`],
      ['/en-US/search', '/en-US/search'],
    ] as const) {
      const head = await headOf(path);
      assert.equal(head.canonical, `${stack.frontUrl}${canonical}`, path);
      assert.ok((head.description ?? '') !== '', `${path}: a description`);
      assert.equal(head['og:description'], head.description);
      assert.equal(head['og:title'], head.title);
      assert.match(head.title ?? '', /Field notes$/);
      assert.equal(head.footer, '© Field notes, written in the open.');
    }
    assert.equal((await headOf('/')).description, 'What we learnt serving pages & search.');
    assert.equal((await headOf('/plog/escaping-matters')).description, 'Why "quotes" & <tags> need care.');
    const missing = await headOf('/no/such/page');
    assert.equal(missing.canonical, undefined, 'a 404 names no canonical address');
  });
});

describe('comments through the front over HTTP', () => {
  const oid = 'escaping-matters';

  it('stores a form post as pending, redirects with 303 to an uncached thanks page, and leaves the post page cached as it was', async () => {
    const page = await get(`/plog/${oid}`);
    const before = await page.text();
    const response = await comment(oid, { name: 'Ann', comment: 'First!', website: '' }, { 'x-forwarded-for': '198.51.100.1' });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), `/plog/${oid}/comments/sent`);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const thanks = await get(`/plog/${oid}/comments/sent`);
    assert.equal(thanks.status, 200);
    assert.equal(thanks.headers.get('cache-control'), 'no-store');
    assert.equal(thanks.headers.get('x-middleware-cache'), null, 'not through the page cache');
    assert.match(await thanks.text(), /awaiting moderation/);
    assert.ok((await pendingComments()).some((item) => item.name === 'Ann' && item.comment === 'First!'));
    const again = await get(`/plog/${oid}`);
    assert.equal(again.headers.get('x-middleware-cache'), 'hit');
    assert.equal(await again.text(), before);
  });

  it('answers the form again with the origin\'s message when the comment is invalid, and JSON to a script', async () => {
    const html = await comment(oid, { name: '   ', comment: 'Nameless' }, { 'x-forwarded-for': '198.51.100.2' });
    assert.equal(html.status, 400);
    assert.equal(html.headers.get('cache-control'), 'no-store');
    const text = await html.text();
    assert.match(text, /name must not be empty/);
    assert.match(text, /Nameless<\/textarea>/, 'what the reader typed is kept');
    const json = await comment(oid, { name: 'Bo', comment: '' }, { accept: 'application/json', 'x-forwarded-for': '198.51.100.3' });
    assert.equal(json.status, 400);
    assert.deepEqual(await json.json(), { error: 'comment must not be empty', code: 'INVALID_INPUT' });
    const sent = await comment(oid, { name: 'Bo', comment: 'Hi' }, { accept: 'application/json', 'x-forwarded-for': '198.51.100.3' });
    assert.equal(sent.status, 201);
    assert.deepEqual(await sent.json(), { message: 'awaiting moderation' });
  });

  it('answers a filled honeypot as if the comment were pending but stores nothing', async () => {
    const response = await comment(oid, { name: 'Bot', comment: 'Buy now', website: 'http://spam.example' }, { 'x-forwarded-for': '198.51.100.4' });
    assert.equal(response.status, 303);
    assert.ok(!(await pendingComments()).some((item) => item.name === 'Bot'));
  });

  it('counts the rate limit per reader behind a trusted proxy', async () => {
    const statuses = async (address: string, count: number) => {
      const codes: number[] = [];
      for (let i = 0; i < count; i++) codes.push((await comment(oid, { name: `Reader ${address}`, comment: `Note ${i}` }, { 'x-forwarded-for': address })).status);
      return codes;
    };
    assert.deepEqual(await statuses('203.0.113.10', 3), [303, 303, 429], 'two a minute for one reader');
    assert.deepEqual(await statuses('203.0.113.11', 2), [303, 303], 'another reader behind the same proxy has their own count');
    const limited = await comment(oid, { name: 'A', comment: 'B' }, { 'x-forwarded-for': '203.0.113.10', accept: 'application/json' });
    assert.equal(limited.status, 429);
    assert.match(((await limited.json()) as { error: string }).error, /too many comments/);
  });

  it('refuses other methods and an unknown post', async () => {
    assert.equal((await get(`/plog/${oid}/comments`)).status, 405);
    const unknown = await comment('no-such-post', { name: 'A', comment: 'B' }, { 'x-forwarded-for': '198.51.100.5' });
    assert.equal(unknown.status, 404);
  });
});
