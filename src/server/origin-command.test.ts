import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config.js';
import { ConfigError } from '../errors.js';
import { silentLogger } from '../log.js';
import { closeServer, listen } from '../edge/test-support/edge-harness.js';
import { startOrigin, type RunningOrigin } from './origin-command.js';
import { waitFor } from '../test-support/wait-for.js';

const ADMIN_TOKEN = 'origin-command-admin';
const EDGE_REFRESH_SECRET = 'origin-command-edge-refresh';

/**
 * A stand-in edge: counts the refreshes per path and answers each request with the status its test sets. A refresh
 * asks for each coding the edge keeps, `br` first (see purge-client.ts): its `br` request counts it.
 */
async function standInEdge(): Promise<{ url: string; refreshes: Map<string, number>; status: Map<string, number[]>; close(): Promise<void> }> {
  const refreshes = new Map<string, number>();
  const status = new Map<string, number[]>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (req.headers['secret-header'] === EDGE_REFRESH_SECRET && req.headers['accept-encoding'] === 'br') refreshes.set(path, (refreshes.get(path) ?? 0) + 1);
    res.writeHead(status.get(path)?.shift() ?? 200).end();
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, refreshes, status, close: () => closeServer(server) };
}

describe('startOrigin with CDN_BASE_URL', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function origin(): Promise<{ origin: RunningOrigin; edge: Awaited<ReturnType<typeof standInEdge>>; admin(method: string, oid: string): Promise<number> }> {
    const dir = mkdtempSync(join(tmpdir(), 'sitestack-origin-command-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const edge = await standInEdge();
    cleanups.push(() => edge.close());
    const front = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"purged":[]}'));
    const frontPort = await listen(front);
    cleanups.push(() => closeServer(front));
    const config = loadConfig({
      DATA_DIR: dir,
      ORIGIN_ADMIN_TOKEN: ADMIN_TOKEN,
      PURGE_SECRET: 'origin-command-purge',
      PURGE_URLS: `http://127.0.0.1:${frontPort}/__purge__`,
      CDN_BASE_URL: edge.url,
      EDGE_REFRESH_SECRET,
      LOG_LEVEL: 'silent',
    });
    const running = await startOrigin({ config, logger: silentLogger(), port: 0, backoff: { baseMs: 20, maxMs: 60 } });
    cleanups.push(() => running.close());
    const admin = async (method: string, oid: string) => {
      const body = method === 'PUT' ? JSON.stringify({ title: 'T', body: '<p>b</p>', pub_date: '2026-11-20' }) : undefined;
      const response = await fetch(`${running.url}/api/v1/plog/${oid}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body }),
      });
      await response.arrayBuffer();
      return response.status;
    };
    return { origin: running, edge, admin };
  }

  it('refreshes again only the URL the edge failed, not the others of its batch', async () => {
    const { origin: running, edge, admin } = await origin();
    edge.status.set('/plog/flaky', [502, 503]);
    assert.equal(await admin('PUT', 'flaky'), 201);
    await waitFor('the edge purge done', () => (edge.refreshes.get('/plog/flaky') ?? 0) === 3 && running.outbox?.pendingCdnUrls() === 0);
    assert.deepEqual(Object.fromEntries(edge.refreshes), { '/plog/flaky': 3, '/': 1, '/plog': 1, '/feed.xml': 1, '/sitemap.xml': 1 });
  });

  it('counts a 404 from the edge for a deleted post as purged, without retrying it', async () => {
    const { origin: running, edge, admin } = await origin();
    assert.equal(await admin('PUT', 'doomed'), 201);
    await waitFor('the first edge purge done', () => (edge.refreshes.get('/plog/doomed') ?? 0) === 1 && running.outbox?.pendingCdnUrls() === 0);
    edge.status.set('/plog/doomed', [404, 404, 404]);
    assert.equal(await admin('DELETE', 'doomed'), 204);
    await waitFor('the edge purge of the deletion done', () => (edge.refreshes.get('/plog/doomed') ?? 0) === 2 && running.outbox?.pendingCdnUrls() === 0);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(edge.refreshes.get('/plog/doomed'), 2, 'no retry of a page the edge now holds as gone');
  });

  it('refuses to start when CDN_BASE_URL is set without EDGE_REFRESH_SECRET, naming both', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitestack-origin-command-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const config = loadConfig({ DATA_DIR: dir, CDN_BASE_URL: 'http://127.0.0.1:9', LOG_LEVEL: 'silent' });
    await assert.rejects(startOrigin({ config, logger: silentLogger(), port: 0 }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /CDN_BASE_URL is set but EDGE_REFRESH_SECRET is not/);
      return true;
    });
  });
});

describe('startOrigin with TRUSTED_PROXIES', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** The statuses of comments sent from 127.0.0.1 on behalf of two readers, one comment allowed per address. */
  async function twoReaders(trustedProxies: string): Promise<number[]> {
    const dir = mkdtempSync(join(tmpdir(), 'sitestack-origin-proxies-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const config = loadConfig({ DATA_DIR: dir, TRUSTED_PROXIES: trustedProxies, COMMENT_RATE_LIMIT: '1/minute', LOG_LEVEL: 'silent' });
    const running = await startOrigin({ config, logger: silentLogger(), port: 0 });
    cleanups.push(() => running.close());
    const statuses: number[] = [];
    for (const reader of ['198.51.100.1', '198.51.100.2']) {
      const response = await fetch(`${running.url}/api/v1/plog/first-look-sqlite/comments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': reader },
        body: JSON.stringify({ name: 'Reader', comment: 'Hello' }),
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    return statuses;
  }

  it('counts readers behind a loopback proxy separately when TRUSTED_PROXIES is the default', async () => {
    assert.deepEqual(await twoReaders('loopback'), [201, 201]);
  });

  it('counts every reader as the proxy when TRUSTED_PROXIES is none', async () => {
    assert.deepEqual(await twoReaders('none'), [201, 429]);
  });
});
