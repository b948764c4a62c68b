import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { silentLogger } from '../log.js';
import { ContentStore, createOriginApp, openOriginDatabase, type OriginDatabase } from '../origin/index.js';
import { buildClient, loadClientBuild, type ClientBuild } from './build.js';
import { createRenderer, type RendererHandler } from './handler.js';

let dir: string;
let build: ClientBuild;
let db: OriginDatabase;
let origin: FastifyInstance;
let originUrl: string;
const servers: Server[] = [];

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function rendererAt(apiBase: string, extra: Partial<Parameters<typeof createRenderer>[0]> = {}): Promise<{ url: string; renderer: RendererHandler }> {
  const renderer = createRenderer({ apiBase, build, ...extra });
  return { url: await serve(renderer), renderer };
}

function bootstrapOf(html: string): { buildId: string; page: Record<string, unknown> } {
  const match = /<script id="__SITESTACK_DATA__" type="application\/json">(.*?)<\/script>/s.exec(html);
  assert.ok(match?.[1] !== undefined, 'page has bootstrap data');
  return JSON.parse(match[1]) as { buildId: string; page: Record<string, unknown> };
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitestack-renderer-'));
  await buildClient({ outDir: dir });
  build = loadClientBuild(dir);
  db = openOriginDatabase(':memory:');
  origin = await createOriginApp({ db, logger: silentLogger() });
  originUrl = await origin.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  for (const server of servers) server.close();
  await origin.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('buildClient', () => {
  it('gives the same build id for the same sources and another one when the bundle changes', async () => {
    const again = await buildClient({ outDir: dir });
    assert.equal(again.buildId, build.buildId);
    const other = mkdtempSync(join(tmpdir(), 'sitestack-renderer-other-'));
    try {
      const changed = await buildClient({ outDir: other, banner: 'release 2' });
      assert.notEqual(changed.buildId, build.buildId);
      assert.equal(loadClientBuild(other).buildId, changed.buildId);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('explains how to build when the build folder is empty', () => {
    assert.throws(() => loadClientBuild(join(dir, 'missing')), /no client build in/);
  });

  it('writes the bundle in brotli and gzip beside it, and writes a missing copy again when the folder lacks it', async () => {
    const script = build.files.get('client.js')!;
    assert.deepEqual(brotliDecompressSync(build.encoded.br), script);
    assert.deepEqual(gunzipSync(build.encoded.gzip), script);
    assert.ok(build.encoded.br.length < build.encoded.gzip.length && build.encoded.gzip.length < script.length / 2);
    const other = mkdtempSync(join(tmpdir(), 'sitestack-renderer-copies-'));
    try {
      await buildClient({ outDir: other });
      unlinkSync(join(other, build.buildId, 'client.js.br'));
      assert.throws(() => loadClientBuild(other), /lacks .*client\.js\.br: run buildClient/);
      await buildClient({ outDir: other });
      assert.deepEqual(loadClientBuild(other).encoded.br, build.encoded.br);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('renderer pages', () => {
  it('renders the home page with the latest posts from the origin groups, cacheable for a day', async () => {
    const { url } = await rendererAt(originUrl);
    const response = await fetch(`${url}/`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'public,max-age=86400');
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    const html = await response.text();
    const newest = db.prepare('SELECT title FROM posts ORDER BY pub_date DESC LIMIT 1').pluck().get() as string;
    assert.ok(html.includes(newest));
    const bootstrap = bootstrapOf(html);
    assert.equal(bootstrap.buildId, build.buildId);
    assert.equal((bootstrap.page.latest as unknown[]).length, 10);
    assert.ok(html.includes(`<script type="module" src="/_render/static/${build.buildId}/client.js">`));
  });

  it('renders the archive with every month group', async () => {
    const { url } = await rendererAt(originUrl);
    const html = await (await fetch(`${url}/plog`)).text();
    const months = db.prepare(`SELECT count(DISTINCT substr(pub_date, 1, 7)) FROM posts`).pluck().get() as number;
    assert.equal((html.match(/<section class="month">/g) ?? []).length, months);
  });

  it('renders a post with its trusted body HTML and its comments escaped', async () => {
    db.prepare(`INSERT INTO comments (oid, name, comment, approved, add_date) VALUES ('first-look-sqlite', ?, ?, 1, '2026-06-01T00:00:00.000Z')`).run(
      '<img src=x onerror=alert(1)>',
      '</script><script>alert(2)</script>',
    );
    const { url } = await rendererAt(originUrl);
    const html = await (await fetch(`${url}/plog/first-look-sqlite`)).text();
    assert.match(html, /<h2 id="why-it-matters">Why it matters<\/h2>/);
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'));
    assert.equal(html.includes('<script>alert(2)'), false);
    assert.equal(html.includes('<img src=x'), false);
    const page = bootstrapOf(html).page as { comments: { items: { comment: string }[] } };
    assert.ok(page.comments.items.some((item) => item.comment === '</script><script>alert(2)</script>'));
  });

  it('renders the search page shell for a known locale', async () => {
    const { url } = await rendererAt(originUrl);
    const response = await fetch(`${url}/en-US/search?q=cache`);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /<section id="search-app" data-locale="en-US">/);
    assert.match(html, /<ol id="search-results"><\/ol>/);
  });

  it('answers the 404 page, never cacheable, for unknown pages and posts', async () => {
    const { url } = await rendererAt(originUrl);
    for (const path of ['/plog/no-such-post', '/nothing/here', '/plog/UPPER', '/de-DE/search', '/%E2%80%AE', '/plog/%00']) {
      const response = await fetch(`${url}${path}`);
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.match(await response.text(), /Page not found/);
    }
  });

  it('redirects a trailing slash to the canonical page path', async () => {
    const { url } = await rendererAt(originUrl);
    const response = await fetch(`${url}/plog/`, { redirect: 'manual' });
    assert.equal(response.status, 301);
    assert.equal(response.headers.get('location'), '/plog');
  });

  it('answers 405 to methods other than GET and HEAD, and HEAD without a body', async () => {
    const { url } = await rendererAt(originUrl);
    const post = await fetch(`${url}/`, { method: 'POST', body: 'x' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
    const head = await fetch(`${url}/plog`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.ok(Number(head.headers.get('content-length')) > 1000);
    assert.equal(await head.text(), '');
  });
});

describe('renderer data and static routes', () => {
  it('answers the same props as the page on the data route of the current build', async () => {
    const { url } = await rendererAt(originUrl);
    const page = bootstrapOf(await (await fetch(`${url}/plog/first-look-sqlite`)).text()).page;
    const response = await fetch(`${url}/_render/data/${build.buildId}/en-US/plog/first-look-sqlite.json`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'public,max-age=86400');
    assert.deepEqual(await response.json(), page);
    const home = await (await fetch(`${url}/_render/data/${build.buildId}/en-US/index.json`)).json();
    assert.equal((home as { kind: string }).kind, 'home');
  });

  it('answers 404 for another build id, an unknown page or post, never cacheable', async () => {
    const { url } = await rendererAt(originUrl);
    for (const path of [
      '/_render/data/0123456789abcdef/en-US/index.json',
      `/_render/data/${build.buildId}/en-US/nope.json`,
      `/_render/data/${build.buildId}/en-US/plog/no-such-post.json`,
      `/_render/data/${build.buildId}/en-US/plog/%2e%2e.json`,
    ]) {
      const response = await fetch(`${url}${path}`);
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(typeof ((await response.json()) as { error: string }).error, 'string');
    }
  });

  it('serves the bundle immutable under its build id and nothing else', async () => {
    const { url } = await rendererAt(originUrl);
    const response = await fetch(`${url}/_render/static/${build.buildId}/client.js`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(response.headers.get('vary'), 'Accept-Encoding');
    assert.equal(Buffer.from(await response.arrayBuffer()).equals(build.files.get('client.js') ?? Buffer.alloc(0)), true);
    for (const coding of ['br', 'gzip'] as const) {
      const encoded = await new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
        get(`${url}/_render/static/${build.buildId}/client.js`, { headers: { 'accept-encoding': coding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
      assert.equal(encoded.encoding, coding);
      assert.deepEqual(encoded.bytes, build.encoded[coding]);
    }
    for (const path of [`/_render/static/other/client.js`, `/_render/static/${build.buildId}/../manifest.json`, `/_render/static/${build.buildId}/x.js`]) {
      assert.equal((await fetch(`${url}${path}`)).status, 404, path);
    }
  });
});

describe('renderer when the origin fails', () => {
  it('answers 502 with an error page, never cacheable, and names status and URL in the error', async () => {
    const failing = await serve((_req, res) => res.writeHead(500).end('boom'));
    const errors: unknown[] = [];
    const logger = silentLogger();
    logger.error = ((object: { err: unknown }) => {
      errors.push(object.err);
    }) as typeof logger.error;
    const { url } = await rendererAt(failing, { logger });
    const response = await fetch(`${url}/`);
    assert.equal(response.status, 502);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.match(await response.text(), /Something went wrong/);
    assert.equal((errors[0] as Error).message, `500 ${failing}/api/v1/plog/`);
    const data = await fetch(`${url}/_render/data/${build.buildId}/en-US/plog/x.json`);
    assert.equal(data.status, 502);
    assert.equal(data.headers.get('cache-control'), 'no-store');
  });

  it('passes the error to next when the host gives one', async () => {
    const failing = await serve((_req, res) => res.writeHead(503).end());
    const renderer = createRenderer({ apiBase: failing, build });
    const seen = await new Promise<unknown>((resolve) => {
      const url = serve((req, res) =>
        renderer(req, res, (error) => {
          resolve(error);
          res.writeHead(599).end();
        }),
      );
      void url.then((base) => fetch(`${base}/plog/anything`));
    });
    assert.equal((seen as Error).message, `503 ${failing}/api/v1/plog/anything`);
  });

  it('closes the connection and keeps serving when the host\'s next throws', async () => {
    const failing = await serve((_req, res) => res.writeHead(503).end());
    const renderer = createRenderer({ apiBase: failing, build });
    const url = await serve((req, res) =>
      renderer(req, res, () => {
        throw new Error('host bug');
      }),
    );
    await assert.rejects(fetch(`${url}/plog`));
    await assert.rejects(fetch(`${url}/plog`));
    const { url: sound } = await rendererAt(originUrl);
    assert.equal((await fetch(`${sound}/plog`)).status, 200);
  });

  it('answers 502 when the origin is unreachable', async () => {
    const closed = await serve(() => undefined);
    servers.pop()?.close();
    const { url } = await rendererAt(closed);
    assert.equal((await fetch(`${url}/plog`)).status, 502);
  });
});

describe('a renamed post at the renderer', () => {
  let renderer: string;
  const get = (base: string, path: string, method = 'GET') => fetch(`${base}${path}`, { method, redirect: 'manual' });

  before(async () => {
    const store = new ContentStore(db);
    store.putPost('old-name', { title: 'Renamed', format: 'markdown', body: 'Words.', summary: '', categories: ['Web'], pub_date: '2027-01-01T00:00:00.000Z' });
    store.renamePost('old-name', 'new-name');
    ({ url: renderer } = await rendererAt(originUrl));
  });

  it('answers its old page 301 to the new one, when the origin says it moved', async () => {
    for (const method of ['GET', 'HEAD']) {
      const answer = await get(renderer, '/plog/old-name', method);
      assert.equal(answer.status, 301);
      assert.equal(answer.headers.get('location'), '/plog/new-name');
      assert.equal(answer.headers.get('cache-control'), 'no-store');
    }
    assert.equal((await get(renderer, '/plog/new-name')).status, 200);
  });

  it('answers its old data route 301 to the new data route, which a client following it reads', async () => {
    const answer = await get(renderer, `/_render/data/${build.buildId}/en-US/plog/old-name.json`);
    assert.equal(answer.status, 301);
    assert.equal(answer.headers.get('location'), `/_render/data/${build.buildId}/en-US/plog/new-name.json`);
    const followed = await fetch(`${renderer}/_render/data/${build.buildId}/en-US/plog/old-name.json`);
    assert.equal(followed.status, 200);
    assert.equal(((await followed.json()) as { post: { oid: string } }).post.oid, 'new-name');
  });

  it('lists the new address in the feed and the sitemap, never the old one', async () => {
    for (const path of ['/feed.xml', '/sitemap.xml']) {
      const text = await (await get(renderer, path)).text();
      assert.match(text, /\/plog\/new-name/);
      assert.doesNotMatch(text, /old-name/);
    }
  });

  it('answers 502, not a redirect elsewhere, when an origin answers 301 without a post address', async () => {
    for (const location of [undefined, 'https://evil.example/api/v1/plog/x', '/api/v1/plog/../../admin', '/api/v1/plog/UPPER']) {
      const fake = await serve((_req, res) => {
        res.writeHead(301, location === undefined ? {} : { location });
        res.end();
      });
      const { url: broken } = await rendererAt(fake);
      const answer = await get(broken, '/plog/anything');
      assert.equal(answer.status, 502, String(location));
      assert.equal(answer.headers.get('location'), null);
    }
  });
});
