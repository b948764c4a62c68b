import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Config } from '../src/config.js';
import { silentLogger } from '../src/log.js';
import { TEST_REFRESH_SECRET, get, nginxForTests, type RunningEdge } from '../src/edge/test-support/edge-harness.js';
import { startFront, type RunningFront } from '../src/server/front-command.js';
import type { RunningOrigin } from '../src/server/origin-command.js';
import { adminAt, eventually, startEdgeAndOrigin, type EdgeAndOrigin } from './support/stack.js';

const { nginx, skip } = nginxForTests();

const post = (title: string) => ({ title, body: '<p>Body text.</p>', summary: 'S', categories: ['Web'], pub_date: '2026-11-20' });

/** The three layers: the real nginx edge → the real front → the real origin, whose outbox purges the front, then the edge. */
describe('edge → front → origin', { skip }, () => {
  let layers: EdgeAndOrigin;
  let edge: RunningEdge;
  let origin: RunningOrigin;
  let front: RunningFront | undefined;
  const logger = silentLogger();
  let config: Config;

  const admin = (method: string, path: string, body?: unknown) => adminAt(origin.url, method, path, body);

  before(async () => {
    layers = await startEdgeAndOrigin(nginx!);
    ({ edge, origin, config } = layers);
    front = await startFront({ config, logger });
  });

  after(async () => {
    await front?.close();
    await layers?.close();
  });

  it('serves a rendered page from the front once, then from the edge cache', async () => {
    const first = await get(`${edge.url}/plog`);
    assert.equal(first.status, 200);
    assert.equal(first.headers['x-cache'], 'MISS');
    assert.equal(first.headers['x-middleware-cache'], 'miss');
    assert.equal(first.headers['cache-control'], 'public,max-age=86400');
    const second = await get(`${edge.url}/plog`);
    assert.equal(second.headers['x-cache'], 'HIT');
    assert.equal(second.body, first.body);
  });

  /**
   * Waits until the edge answers `path` from its cache with `text` in it. A render that the post's own purge overtook
   * goes out with no-store, so the edge may need a second fetch before it keeps the page.
   */
  const keptByEdge = (what: string, path: string, text: string) =>
    eventually(
      what,
      async () => {
        const page = await get(`${edge.url}${path}`);
        return page.status === 200 && page.headers['x-cache'] === 'HIT' && page.body.includes(text);
      },
      3_000,
    );

  it('shows an edited post through the edge once the outbox has purged the front and then the edge', async () => {
    assert.equal((await admin('PUT', '/api/v1/plog/edge-e2e', post('Before the edge purge'))).status, 201);
    await keptByEdge('new post kept by the edge', '/plog/edge-e2e', 'Before the edge purge');

    assert.equal((await admin('PUT', '/api/v1/plog/edge-e2e', post('After the edge purge'))).status, 200);
    await keptByEdge('edited title through the edge', '/plog/edge-e2e', 'After the edge purge');
    await eventually('edited title on the home page through the edge', async () => (await get(`${edge.url}/`)).body.includes('After the edge purge'), 3_000);
  });

  it('stops serving a deleted post through the edge once the outbox has refreshed it, and shows it again when re-created', async () => {
    assert.equal((await admin('PUT', '/api/v1/plog/edge-deleted', post('Soon deleted'))).status, 201);
    await keptByEdge('new post kept by the edge', '/plog/edge-deleted', 'Soon deleted');

    assert.equal((await admin('DELETE', '/api/v1/plog/edge-deleted')).status, 204);
    await eventually(
      'the deleted post gone from the edge',
      async () => {
        const page = await get(`${edge.url}/plog/edge-deleted`);
        return page.status === 404 && !page.body.includes('Soon deleted');
      },
      3_000,
    );
    await eventually('the edge purge finished', async () => origin.outbox?.pendingJobs() === 0 && origin.outbox.pendingCdnUrls() === 0, 3_000);
    const gone = await get(`${edge.url}/plog/edge-deleted`);
    assert.equal(gone.status, 404);
    assert.equal(gone.headers['x-cache'], 'HIT', 'the refresh stored the 404 in place of the page');
    assert.doesNotMatch((await get(`${edge.url}/`)).body, /Soon deleted/, 'the home page was refreshed too');

    assert.equal((await admin('PUT', '/api/v1/plog/edge-deleted', post('Back again'))).status, 201);
    await keptByEdge('re-created post through the edge', '/plog/edge-deleted', 'Back again');
  });

  it('does not keep the front 404 page nor the JSON 404 of an unknown /api/ route', async () => {
    for (const path of ['/plog/no-such-post', '/api/no-such-route']) {
      assert.equal((await get(`${edge.url}${path}`)).status, 404, path);
      assert.equal((await get(`${edge.url}${path}`)).headers['x-cache'], 'MISS', path);
    }
  });

  it('keeps serving cached pages and answers a refresh with 502 while the front is down', async () => {
    await get(`${edge.url}/plog`);
    await front?.close();
    front = undefined;
    try {
      assert.equal((await get(`${edge.url}/plog`)).headers['x-cache'], 'HIT');
      assert.equal((await get(`${edge.url}/plog`, { 'secret-header': TEST_REFRESH_SECRET })).status, 502);
    } finally {
      front = await startFront({ config, logger });
    }
  });
});
