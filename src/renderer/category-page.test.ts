import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { silentLogger } from '../log.js';
import { ContentStore, createOriginApp, openOriginDatabase, type OriginDatabase } from '../origin/index.js';
import { buildClient, loadClientBuild, type ClientBuild } from './build.js';
import { createRenderer } from './handler.js';

/** The renderer's pages, data routes, feed and sitemap against the real origin, for their keys and the category page. */
let dir: string;
let build: ClientBuild;
let db: OriginDatabase;
let origin: FastifyInstance;
let url: string;
let server: Server;

const post = (title: string, categories: string[], pub_date: string) => ({ title, body: `<p>${title} body</p>`, summary: '', categories, pub_date });

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitestack-category-'));
  await buildClient({ outDir: dir });
  build = loadClientBuild(dir);
  db = openOriginDatabase(':memory:', { seed: false });
  const store = new ContentStore(db);
  store.putPost('old-cafe', post('Old café notes', ['Café au lait', 'Web'], '2026-01-10T00:00:00.000Z'));
  store.putPost('new-cafe', post('New café notes', ['Café au lait', 'C#'], '2026-03-10T00:00:00.000Z'));
  store.putPost('tables', post('Tables', ['数据库'], '2026-02-10T00:00:00.000Z'));
  store.putPost('plain', post('Plain', [], '2026-02-01T00:00:00.000Z'));
  origin = await createOriginApp({ db, logger: silentLogger() });
  const apiBase = await origin.listen({ host: '127.0.0.1', port: 0 });
  server = createServer(createRenderer({ apiBase, build }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.close();
  await origin.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A GET of `path` exactly as written: fetch would resolve `%2E%2E` as `..` before sending it. */
function rawGet(path: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    request(`${url}${path}`, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}

const keysOf = (response: Response) => response.headers.get('surrogate-key')?.split(' ');
const dataUrl = (pagePath: string) => `${url}/_render/data/${build.buildId}/en-US/${pagePath}.json`;

describe('Surrogate-Key on every page type', () => {
  it('names what each page shows, and its data route names the same, when the page is cacheable', async () => {
    const pages: [string, string, string[]][] = [
      ['/', 'index', ['listing:home', 'post:new-cafe', 'post:tables', 'post:plain', 'post:old-cafe']],
      ['/plog', 'plog', ['listing:archive', 'post:new-cafe', 'post:tables', 'post:plain', 'post:old-cafe']],
      ['/plog/new-cafe', 'plog/new-cafe', ['post:new-cafe']],
      ['/plog/category/Caf%C3%A9%20au%20lait', 'plog/category/Caf%C3%A9%20au%20lait', ['category:Caf%C3%A9%20au%20lait', 'post:new-cafe', 'post:old-cafe']],
      ['/en-US/search', 'search', ['page:search']],
    ];
    for (const [path, dataPath, keys] of pages) {
      const page = await fetch(`${url}${path}`);
      assert.equal(page.status, 200, path);
      assert.deepEqual(keysOf(page), keys, path);
      const data = await fetch(dataUrl(dataPath));
      assert.equal(data.status, 200, dataPath);
      assert.deepEqual(keysOf(data), keys, dataPath);
      const head = await fetch(`${url}${path}`, { method: 'HEAD' });
      assert.deepEqual(keysOf(head), keys, `HEAD ${path}`);
    }
  });

  it('names the feed and the sitemap by their listing keys and their posts', async () => {
    assert.deepEqual(keysOf(await fetch(`${url}/feed.xml`)), ['listing:feed', 'post:new-cafe', 'post:tables', 'post:plain', 'post:old-cafe']);
    assert.deepEqual(keysOf(await fetch(`${url}/sitemap.xml`)), ['listing:sitemap', 'post:new-cafe', 'post:tables', 'post:plain', 'post:old-cafe']);
  });

  it('sends no keys when the answer is an error, a 404, a redirect or a file that shows no content', async () => {
    for (const path of ['/plog/no-such-post', '/plog/category/Nothing', '/nowhere', '/plog/', '/plog/category/caf%c3%a9%20au%20lait', `/_render/data/${build.buildId}/en-US/plog/category/Nothing.json`]) {
      const response = await fetch(`${url}${path}`, { redirect: 'manual' });
      assert.notEqual(response.status, 200, path);
      assert.equal(response.headers.get('surrogate-key'), null, path);
    }
    for (const path of ['/robots.txt', '/favicon.ico']) {
      const response = await fetch(`${url}${path}`);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('surrogate-key'), null, path);
    }
  });
});

describe('the category page', () => {
  it("lists the category's posts newest first under its name, linked from each post's categories", async () => {
    const response = await fetch(`${url}/plog/category/Caf%C3%A9%20au%20lait`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'public,max-age=86400');
    const html = await response.text();
    assert.match(html, /<title>Posts in Café au lait · sitestack plog<\/title>/);
    assert.match(html, /<h1>Posts in <!-- -->Café au lait<\/h1>/);
    assert.match(html, /<link rel="canonical" href="http:\/\/127.0.0.1:\d+\/plog\/category\/Caf%C3%A9%20au%20lait">/);
    assert.match(html, /<meta property="og:type" content="website">/);
    const main = html.slice(html.indexOf('<main'));
    assert.ok(main.indexOf('New café notes') < main.indexOf('Old café notes'), 'newest first');
    assert.doesNotMatch(main, /Tables|Plain/);
    const postPage = await (await fetch(`${url}/plog/new-cafe`)).text();
    assert.match(postPage, /<a href="\/plog\/category\/Caf%C3%A9%20au%20lait">Café au lait<\/a>, <a href="\/plog\/category\/C%23">C#<\/a>/);
    const archive = await (await fetch(`${url}/plog`)).text();
    assert.match(archive, /<a href="\/plog\/category\/%E6%95%B0%E6%8D%AE%E5%BA%93">数据库<\/a>/);
  });

  it('answers the same props on its data route as the page, for client navigation', async () => {
    const html = await (await fetch(`${url}/plog/category/C%23`)).text();
    const bootstrap = JSON.parse(/<script id="__SITESTACK_DATA__" type="application\/json">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}') as { page: unknown };
    const data = await fetch(dataUrl('plog/category/C%23'));
    assert.equal(data.status, 200);
    assert.deepEqual(await data.json(), bootstrap.page);
    assert.deepEqual((bootstrap.page as { kind: string; name: string }).name, 'C#');
  });

  it('sends another spelling of the name to the canonical address when it is not the one links use', async () => {
    const unicode = `/plog/category/${encodeURIComponent('数据库')}`;
    const spellings: Record<string, string[]> = {
      '/plog/category/Caf%C3%A9%20au%20lait': ['/plog/category/Caf%c3%a9%20au%20lait', '/plog/category/Cafe%CC%81%20au%20lait'],
      '/plog/category/Web': ['/plog/category/%57eb'],
      '/plog/category/C%23': ['/plog/category/C%23/'],
      [unicode]: [unicode.toLowerCase()],
    };
    for (const [location, path] of Object.entries(spellings).flatMap(([canonical, paths]) => paths.map((spelling) => [canonical, spelling] as const))) {
      const response = await fetch(`${url}${path}`, { redirect: 'manual' });
      assert.equal(response.status, 301, path);
      assert.equal(response.headers.get('location'), location, path);
      assert.equal(response.headers.get('cache-control'), 'no-store');
    }
    const raw = await fetch(`${url}/plog/category/数据库`);
    assert.equal(raw.status, 200, 'a raw unicode path is the canonical one once the URL is encoded');
  });

  it('answers the 404 page, never cacheable, for an unknown, emptied, malformed, oversized or hostile name', async () => {
    const store = new ContentStore(db);
    store.putPost('lonely', post('Lonely', ['Lonely'], '2026-01-01T00:00:00.000Z'));
    assert.equal((await fetch(`${url}/plog/category/Lonely`)).status, 200);
    store.putPost('lonely', post('Lonely', [], '2026-01-01T00:00:00.000Z'));
    const paths = [
      '/plog/category/Lonely',
      '/plog/category/Nothing',
      '/plog/category/web',
      '/plog/category/%E0%A4%A',
      '/plog/category/%ZZ',
      '/plog/category/%00',
      '/plog/category/a%2Fb',
      '/plog/category/a/b',
      '/plog/category/%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      '/plog/category/%F0%9F%99%82',
      '/plog/category/%ED%A0%80',
      '/plog/category/%20Web',
      `/plog/category/${'a'.repeat(41)}`,
      `/plog/category/${'%C3%A9'.repeat(2_000)}`,
    ];
    for (const path of paths) {
      const response = await rawGet(path);
      assert.equal(response.status, 404, path.slice(0, 60));
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.match(response.body, /Page not found/);
      assert.doesNotMatch(response.body, /<script>alert/);
    }
    for (const pagePath of ['plog/category/Nothing', 'plog/category/%ZZ', 'plog/category/caf%c3%a9%20au%20lait', 'plog/category/a/b']) {
      assert.equal((await fetch(dataUrl(pagePath))).status, 404, pagePath);
    }
  });
});
