import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { get, nginxForTests, type RunningEdge } from '../src/edge/test-support/edge-harness.js';
import { silentLogger } from '../src/log.js';
import { startFront, type RunningFront } from '../src/server/front-command.js';
import type { RunningOrigin } from '../src/server/origin-command.js';
import { adminAt, eventually, startEdgeAndOrigin, type EdgeAndOrigin } from './support/stack.js';

const { nginx, skip } = nginxForTests();

/** The freshness bound of issue 18, which soft purge keeps at the edge. */
const FRESH_WITHIN_MS = 3_000;

const post = (title: string) => ({ title, body: `<p>${title} body.</p>`, summary: '', categories: ['Soft'], pub_date: '2026-11-25' });

/**
 * The three layers with `PURGE_MODE=soft`: the front answers a purged page from its stale copy while it renders it
 * again, so the edge's refresh first gets that copy, keeps nothing of it, and is retried until the new page is stored.
 */
describe('edge → front → origin with soft purge', { skip }, () => {
  let layers: EdgeAndOrigin;
  let edge: RunningEdge;
  let origin: RunningOrigin;
  let front: RunningFront;

  const admin = (method: string, path: string, body?: unknown) => adminAt(origin.url, method, path, body);
  const settled = () =>
    eventually('the outbox idle', async () => origin.outbox?.pendingJobs() === 0 && origin.outbox.pendingCdnUrls() === 0, FRESH_WITHIN_MS);

  before(async () => {
    layers = await startEdgeAndOrigin(nginx!, { PURGE_MODE: 'soft' });
    ({ edge, origin } = layers);
    front = await startFront({ config: layers.config, logger: silentLogger() });
  });

  after(async () => {
    await front?.close();
    await layers?.close();
  });

  it("shows an edit at the edge within the freshness bound, the refresh retried until the front's new page is stored", async () => {
    assert.equal((await admin('PUT', '/api/v1/plog/soft-edge', post('Before the soft purge'))).status, 201);
    await settled();
    for (const path of ['/plog/soft-edge', '/']) {
      await get(`${edge.url}${path}`);
      const cached = await get(`${edge.url}${path}`);
      assert.equal(cached.headers['x-cache'], 'HIT', path);
      assert.match(cached.body, /Before the soft purge/, path);
    }
    const staleBefore = front.pageCache.stats().stale;

    assert.equal((await admin('PUT', '/api/v1/plog/soft-edge', post('After the soft purge'))).status, 200);
    // Every copy the edge keeps, one per coding: fetch decodes br and gzip.
    for (const path of ['/plog/soft-edge', '/']) {
      for (const coding of ['br', 'gzip', 'identity']) {
        await eventually(
          `${path} edited at the edge, ${coding}`,
          async () => {
            const page = await fetch(`${edge.url}${path}`, { headers: { 'accept-encoding': coding } });
            const body = await page.text();
            return page.headers.get('x-cache') === 'HIT' && body.includes('After the soft purge') && !body.includes('Before the soft purge');
          },
          FRESH_WITHIN_MS,
        );
      }
    }
    // Readers got the edge's copy all along: only the refreshes reached the front, and the first of each got its stale copy.
    assert.ok(front.pageCache.stats().stale > staleBefore, 'a refresh got the stale copy');
    await settled();
    const page = await get(`${edge.url}/plog/soft-edge`);
    assert.equal(page.headers['x-middleware-cache'], 'hit', 'the edge holds the rendered page, not the stale answer');
  });
});
