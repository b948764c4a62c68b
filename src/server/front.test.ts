import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { silentLogger } from '../log.js';
import { createApiApp, REQUEST_BOUNDS } from '../http/index.js';
import { capturedLogger } from '../test-support/captured-logger.js';
import { createOriginApp, openOriginDatabase, type OriginDatabase } from '../origin/index.js';
import { createPageCache, createStatsHandler } from '@sitestack/page-cache';
import { buildClient, createCommentRoute, createRenderer } from '../renderer/index.js';
import { createFrontServer } from './front.js';

let dir: string;
let db: OriginDatabase;
let origin: FastifyInstance;
let api: FastifyInstance;
let server: Server;
let base: string;
let originBase: string;
const frontLog = capturedLogger('debug');
const originLog = capturedLogger('debug');

const echo: FastifyPluginAsync = async (app) => {
  app.get('/api/v1/echo', async (request) => ({ url: request.url }));
};

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitestack-front-'));
  await buildClient({ outDir: dir });
  db = openOriginDatabase(':memory:');
  origin = await createOriginApp({ db, logger: originLog.logger });
  const apiBase = await origin.listen({ host: '127.0.0.1', port: 0 });
  originBase = apiBase;
  const pageCache = createPageCache({ purgeSecret: 'front-secret', logger: silentLogger() });
  api = await createApiApp({ logger: silentLogger(), plugins: [echo] });
  const renderer = createRenderer({ apiBase, buildDir: dir });
  server = createFrontServer({
    api,
    pageCache,
    stats: createStatsHandler(pageCache, { secret: 'front-secret' }),
    renderer,
    comments: createCommentRoute({ apiBase, renderer }),
    logger: frontLog.logger,
    operations: (_req, res, path) => res.writeHead(200, { 'cache-control': 'no-store' }).end(`operations ${path}`),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  server.close();
  await api.close();
  await origin.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('front routing', () => {
  it('sends /api/* to the API app and never through the page cache', async () => {
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${base}/api/v1/echo?x=1`);
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { url: '/api/v1/echo?x=1' });
      assert.equal(response.headers.get('x-middleware-cache'), null);
    }
    const unknown = await fetch(`${base}/api`);
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { code: string }).code, 'NOT_FOUND');
  });

  it('answers /healthz, /readyz and /metrics before the page cache and the API when they are asked twice', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics', '/healthz', '/readyz', '/metrics']) {
      const response = await fetch(`${base}${path}?probe=1`);
      assert.equal(await response.text(), `operations ${path}`);
      assert.equal(response.headers.get('x-middleware-cache'), null);
    }
  });

  it('sends paths that only start like /api to the page cache and renderer', async () => {
    const response = await fetch(`${base}/apiary`);
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('x-middleware-cache'), 'miss');
    assert.match(await response.text(), /Page not found/);
  });

  it('answers the cache stats behind the purge secret, and purges through the page cache', async () => {
    await fetch(`${base}/plog`);
    assert.equal((await fetch(`${base}/plog`)).headers.get('x-middleware-cache'), 'hit');
    assert.equal((await fetch(`${base}/__cache__/stats`, { headers: { authorization: 'Bearer wrong' } })).status, 403);
    const stats = (await (await fetch(`${base}/__cache__/stats`, { headers: { authorization: 'Bearer front-secret' } })).json()) as { entries: number; hits: number };
    assert.ok(stats.entries >= 1 && stats.hits >= 1);
    const purge = await fetch(`${base}/__purge__`, {
      method: 'POST',
      headers: { authorization: 'Bearer front-secret', 'content-type': 'application/json' },
      body: JSON.stringify({ pathnames: ['/plog'] }),
    });
    assert.deepEqual(await purge.json(), { purged: ['/plog'] });
    assert.equal((await fetch(`${base}/plog`)).headers.get('x-middleware-cache'), 'miss');
  });
});

/** The status of a GET with these headers, on its own connection. */
function statusOf(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('request bounds', () => {
  it('answers 414 past the URL bound and 431 past the header bound at the front and the origin, logging nothing', async () => {
    for (const server of [base, originBase]) {
      const within = `/plog/x?q=${'a'.repeat(REQUEST_BOUNDS.maxUrlBytes - '/plog/x?q='.length)}`;
      assert.notEqual(await statusOf(`${server}${within}`), 414, `${server}: a URL of exactly the bound`);
      for (let i = 0; i < 20; i++) assert.equal(await statusOf(`${server}${within}a`), 414, server);
      assert.equal(await statusOf(`${server}/plog/x`, { 'x-big': 'b'.repeat(REQUEST_BOUNDS.maxHeaderBytes) }), 431, server);
    }
    const tooLong = await fetch(`${base}/plog?q=${'a'.repeat(REQUEST_BOUNDS.maxUrlBytes)}`);
    assert.equal(tooLong.headers.get('cache-control'), 'no-store');
    assert.equal(((await (await fetch(`${originBase}/api/v1/plog/?q=${'a'.repeat(REQUEST_BOUNDS.maxUrlBytes)}`)).json()) as { code: string }).code, 'URI_TOO_LONG');
    assert.deepEqual([...frontLog.lines, ...originLog.lines].map((line) => line.msg), []);
  });

  it('answers 400 saying to percent-encode when the request target holds raw UTF-8', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1', () => socket.end(Buffer.from('GET /api/v1/search?q=国际 HTTP/1.1\r\nHost: x\r\n\r\n')));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(answer, /content-type: text\/plain; charset=utf-8/);
    assert.match(answer, /percent-encode spaces and characters outside ASCII/);
  });
});

