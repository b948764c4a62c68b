import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { createPageCache, type PageCache } from '@sitestack/page-cache';
import { CdnPurgeError, purgeCdn } from './purge-client.js';
import { TEST_REFRESH_SECRET, closeServer, get, listen, nginxForTests, startEdge, tempDir, type RunningEdge } from './test-support/edge-harness.js';

const { nginx, skip } = nginxForTests();

/**
 * A front as the edge sees it with `PURGE_MODE=soft`: the real page cache in soft mode before a renderer whose pages
 * show the content version, and whose renders can be held (as a slow origin would) until released.
 */
interface SoftFront {
  url: string;
  port: number;
  cache: PageCache;
  version: number;
  hold(): void;
  release(): void;
  stop(): Promise<void>;
}

async function startSoftFront(): Promise<SoftFront> {
  let held: { promise: Promise<void>; open(): void } | undefined;
  const render = async (req: IncomingMessage, res: ServerResponse) => {
    await held?.promise;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public,max-age=86400', 'surrogate-key': 'post:1' });
    res.end(`<p>${req.url} v${front.version}</p>`);
  };
  const cache = createPageCache({ purgeMode: 'soft', revalidate: render, purgeSecret: 'soft-secret' });
  const server = createServer((req, res) => cache.handle(req, res, () => render(req, res)));
  const port = await listen(server);
  const front: SoftFront = {
    url: `http://127.0.0.1:${port}`,
    port,
    cache,
    version: 1,
    hold() {
      let open = () => undefined as void;
      const promise = new Promise<void>((resolve) => (open = resolve));
      held = { promise, open };
    },
    release() {
      held?.open();
      held = undefined;
    },
    stop: () => closeServer(server),
  };
  return front;
}

describe('edge in front of a front that purges softly, against the real nginx', { skip }, () => {
  let front: SoftFront;
  let edge: RunningEdge;
  let dir: ReturnType<typeof tempDir>;

  beforeEach(async () => {
    dir = tempDir('sitestack-edge-soft-');
    front = await startSoftFront();
    edge = await startEdge(nginx!, join(dir.path, 'edge'), front.port);
  });

  afterEach(async () => {
    front.release();
    await edge.stop();
    await front.stop();
    dir.remove();
  });

  /** Waits until the front's background render is stored: the front itself answers a hit (the edge is not asked). */
  async function untilFrontFresh(path: string): Promise<void> {
    for (let tries = 0; (await get(`${front.url}${path}`)).headers['x-middleware-cache'] !== 'hit'; tries++) {
      if (tries > 200) assert.fail(`${path} never fresh at the front`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it("does not keep the front's stale answer to a reader's miss, and keeps the new page once the front has it", async () => {
    assert.equal((await get(`${front.url}/plog/a`)).body, '<p>/plog/a v1</p>');
    front.version = 2;
    front.hold();
    assert.deepEqual(front.cache.purge({ keys: ['post:1'] }), ['/plog/a']);

    for (let i = 0; i < 2; i++) {
      const stale = await get(`${edge.url}/plog/a`);
      assert.equal(stale.status, 200);
      assert.equal(stale.headers['x-middleware-cache'], 'stale');
      assert.equal(stale.headers['x-cache'], 'MISS', 'the stale answer was not stored');
      assert.equal(stale.body, '<p>/plog/a v1</p>');
    }

    front.release();
    await untilFrontFresh('/plog/a');
    const first = await get(`${edge.url}/plog/a`);
    assert.equal(first.headers['x-cache'], 'MISS');
    assert.equal(first.headers['x-middleware-cache'], 'hit');
    assert.equal(first.body, '<p>/plog/a v2</p>');
    const second = await get(`${edge.url}/plog/a`);
    assert.equal(second.headers['x-cache'], 'HIT', 'the fresh answer is stored');
    assert.equal(second.body, '<p>/plog/a v2</p>');
  });

  it('fails the refresh as stale while the front renders the page again, then refreshes every coding once the render is stored', async () => {
    await get(`${edge.url}/plog/b`);
    assert.equal((await get(`${edge.url}/plog/b`)).headers['x-cache'], 'HIT');
    front.version = 2;
    front.hold();
    front.cache.purge({ keys: ['post:1'] });

    await assert.rejects(purgeCdn(['/plog/b'], { baseUrl: edge.url, secret: TEST_REFRESH_SECRET }), (error: unknown) => {
      assert.ok(error instanceof CdnPurgeError);
      assert.deepEqual(error.failures.map(({ requested, stale }) => ({ requested, stale })), [{ requested: '/plog/b', stale: true }]);
      assert.match(error.failures[0]?.reason ?? '', /stale copy/);
      return true;
    });
    const kept = await get(`${edge.url}/plog/b`);
    assert.equal(kept.headers['x-cache'], 'HIT', 'the copy the edge held is still there');
    assert.equal(kept.body, '<p>/plog/b v1</p>');

    front.release();
    await untilFrontFresh('/plog/b');
    assert.deepEqual(await purgeCdn(['/plog/b'], { baseUrl: edge.url, secret: TEST_REFRESH_SECRET }), [`${edge.url}/plog/b`]);
    for (const coding of ['br', 'gzip', 'identity']) {
      const after = await get(`${edge.url}/plog/b`, { 'accept-encoding': coding });
      assert.equal(after.headers['x-cache'], 'HIT', coding);
      assert.equal(after.body, '<p>/plog/b v2</p>', coding);
    }
  });
});
