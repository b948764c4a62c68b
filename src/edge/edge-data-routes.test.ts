import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { purgeCdn } from './purge-client.js';
import { TEST_REFRESH_SECRET, edgeStackPerTest, get, nginxForTests, type Answer, type FakeFront, type RunningEdge } from './test-support/edge-harness.js';

const { nginx, skip } = nginxForTests();

/** A data route of `build`, as a page of the site links it for client navigation. */
const dataRoute = (build: string, page: string) => `/_render/data/${build}/en-US/${page}.json`;

/**
 * With the default one second, nginx keeps a copy until the clock's second after next: at most two seconds. A little
 * more for the request that sees the change.
 */
const BOUND_MS = 2500;

describe('edge data routes against the real nginx', { skip }, () => {
  let front: FakeFront;
  let edge: RunningEdge;
  edgeStackPerTest(nginx!, 'sitestack-edge-data-', (stack) => ({ front, edge } = stack));

  /** Asks `path` until `fresh` accepts the answer, at most three seconds; resolves with the answer and the time it took. */
  async function pollUntil(path: string, fresh: (answer: Answer) => boolean): Promise<{ answer: Answer; elapsedMs: number; stale: Answer[] }> {
    const started = performance.now();
    const stale: Answer[] = [];
    for (;;) {
      const answer = await get(`${edge.url}${path}`);
      const elapsedMs = performance.now() - started;
      if (fresh(answer) || elapsedMs > 3000) return { answer, elapsedMs, stale };
      stale.push(answer);
      await sleep(50);
    }
  }

  it('serves the new content of a data route within two seconds when the front changes it, without any purge', async () => {
    const path = dataRoute('build-1', 'plog/hello');
    assert.equal((await get(`${edge.url}${path}`)).headers['x-cache'], 'MISS');
    assert.equal((await get(`${edge.url}${path}`)).headers['x-cache'], 'HIT');
    front.version = 2;
    const { answer, elapsedMs, stale } = await pollUntil(path, (reply) => JSON.parse(reply.body).version === 2);
    assert.equal(answer.status, 200);
    assert.equal(JSON.parse(answer.body).version, 2, 'the new content shows');
    assert.ok(elapsedMs < BOUND_MS, `fresh after ${Math.round(elapsedMs)} ms`);
    assert.ok(stale.every((reply) => reply.headers['x-cache'] === 'HIT'), 'the old copy came from the cache meanwhile');
    assert.equal(front.callsTo(path), 2, 'one call to fill the cache, one once it expired');
    assert.equal(answer.headers['cache-control'], 'public,max-age=86400', "the front's Cache-Control reaches the browser");
  });

  it("stops serving an old build's data route as 200 within two seconds when the front answers 404 for it, and never stores the 404", async () => {
    const path = dataRoute('old-build', 'plog/hello');
    await get(`${edge.url}${path}`);
    assert.equal((await get(`${edge.url}${path}`)).headers['x-cache'], 'HIT');
    front.gone.set(path, 404);
    const { answer, elapsedMs } = await pollUntil(path, (reply) => reply.status !== 200);
    assert.equal(answer.status, 404);
    assert.ok(elapsedMs < BOUND_MS, `404 after ${Math.round(elapsedMs)} ms`);

    const refreshed = await get(`${edge.url}${path}`, { 'secret-header': TEST_REFRESH_SECRET });
    assert.equal(refreshed.status, 404);
    const calls = front.callsTo(path);
    for (let i = 1; i <= 2; i++) {
      const plain = await get(`${edge.url}${path}`);
      assert.equal(plain.status, 404);
      assert.notEqual(plain.headers['x-cache'], 'HIT', 'neither the plain nor the refreshed 404 was stored');
      assert.equal(front.callsTo(path), calls + i);
    }
  });

  it('keeps an HTML page for the hour while its data route follows the front, until a refresh names the page', async () => {
    const path = dataRoute('build-1', 'plog/hello');
    await get(`${edge.url}/plog/hello`);
    await get(`${edge.url}${path}`);
    front.version = 2;
    await sleep(2100);
    const page = await get(`${edge.url}/plog/hello`);
    assert.equal(page.headers['x-cache'], 'HIT');
    assert.match(page.body, /v1/, 'a page waits for its refresh');
    assert.equal(JSON.parse((await get(`${edge.url}${path}`)).body).version, 2, 'its data route does not');

    await purgeCdn(['/plog/hello'], { baseUrl: edge.url, secret: TEST_REFRESH_SECRET });
    const refreshed = await get(`${edge.url}/plog/hello`);
    assert.equal(refreshed.headers['x-cache'], 'HIT');
    assert.match(refreshed.body, /v2/);
  });

  it('makes one upstream call when many requests miss the same data route at once', async () => {
    const path = dataRoute('build-1', 'slow');
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(`${edge.url}${path}`)));
    assert.ok(answers.every((answer) => answer.status === 200 && JSON.parse(answer.body).version === 1));
    assert.equal(front.callsTo(path), 1);
  });

  it('never serves an expired data route while it is re-rendered, only while the front is down', async () => {
    const path = dataRoute('build-1', 'slow');
    await get(`${edge.url}${path}`);
    front.version = 2;
    await sleep(2100);
    const during = await Promise.all(Array.from({ length: 4 }, () => get(`${edge.url}${path}`)));
    for (const answer of during) {
      assert.equal(JSON.parse(answer.body).version, 2, `x-cache ${String(answer.headers['x-cache'])}`);
      assert.notEqual(answer.headers['x-cache'], 'UPDATING');
      assert.notEqual(answer.headers['x-cache'], 'STALE');
    }

    await sleep(2100);
    await front.stop();
    const down = await get(`${edge.url}${path}`);
    assert.equal(down.status, 200);
    assert.equal(down.headers['x-cache'], 'STALE');
    assert.equal(JSON.parse(down.body).version, 2);
  });
});
