import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkNginxConfig, writeEdgeConfig } from './nginx-process.js';
import { CdnPurgeError, purgeCdn } from './purge-client.js';
import { TEST_REFRESH_SECRET, edgeStackPerTest, get, nginxForTests, startEdge, tempDir, type EdgeStack, type FakeFront, type RunningEdge } from './test-support/edge-harness.js';
import { waitFor } from '../test-support/wait-for.js';

const { nginx, skip } = nginxForTests();

describe('edge cache against the real nginx', { skip }, () => {
  let front: FakeFront;
  let edge: RunningEdge;
  let dir: EdgeStack['dir'];
  edgeStackPerTest(nginx!, 'sitestack edge données ', (stack) => ({ front, edge, dir } = stack));

  /** Runs `test` on a second edge that keeps a 404 one second, once the front has deleted `path` and the edge refreshed it. */
  async function withDeletedPage(path: string, test: (shortEdge: RunningEdge) => Promise<void>): Promise<void> {
    const shortEdge = await startEdge(nginx!, join(dir.path, 'short-edge'), front.port, { goneValidSeconds: 1 });
    try {
      await get(`${shortEdge.url}${path}`);
      front.gone.set(path, 404);
      await purgeCdn([path], { baseUrl: shortEdge.url, secret: TEST_REFRESH_SECRET });
      await test(shortEdge);
    } finally {
      await shortEdge.stop();
    }
  }

  it('answers MISS then HIT with one upstream call when a page is asked twice', async () => {
    const first = await get(`${edge.url}/plog/hello`);
    const second = await get(`${edge.url}/plog/hello`);
    assert.equal(first.status, 200);
    assert.equal(first.headers['x-cache'], 'MISS');
    assert.equal(second.headers['x-cache'], 'HIT');
    assert.equal(second.body, first.body);
    assert.equal(second.headers['cache-control'], 'public,max-age=86400', 'the upstream Cache-Control reaches the browser');
    assert.equal(front.callsTo('/plog/hello'), 1);
  });

  it('keeps query-string variants apart when the query differs', async () => {
    await get(`${edge.url}/plog?a=1`);
    const other = await get(`${edge.url}/plog?b=2`);
    assert.equal(other.headers['x-cache'], 'MISS');
    assert.equal(front.callsTo('/plog?a=1'), 1);
    assert.equal(front.callsTo('/plog?b=2'), 1);
  });

  it('serves a cached page as a HIT without calling the upstream when the upstream is down', async () => {
    const cached = await get(`${edge.url}/plog/hello`);
    await front.stop();
    const whileDown = await get(`${edge.url}/plog/hello`);
    assert.equal(whileDown.status, 200);
    assert.equal(whileDown.headers['x-cache'], 'HIT');
    assert.equal(whileDown.body, cached.body);
    assert.equal(front.callsTo('/plog/hello'), 1);
    const notCached = await get(`${edge.url}/plog/other`);
    assert.equal(notCached.status, 502);
  });

  it('sends a request with secret-header to the upstream whatever the cache holds', async () => {
    await get(`${edge.url}/plog/hello`);
    await get(`${edge.url}/plog/hello`);
    front.version = 2;
    const bypass = await get(`${edge.url}/plog/hello`, { 'secret-header': TEST_REFRESH_SECRET });
    assert.equal(bypass.status, 200);
    assert.equal(bypass.headers['x-cache'], 'BYPASS');
    assert.match(bypass.body, /v2/);
    assert.equal(front.callsTo('/plog/hello'), 2);
  });

  it('answers 502 to a request with secret-header when the upstream is down, even for a cached page', async () => {
    await get(`${edge.url}/plog/hello`);
    await front.stop();
    const bypass = await get(`${edge.url}/plog/hello`, { 'secret-header': TEST_REFRESH_SECRET });
    assert.equal(bypass.status, 502);
    assert.equal(bypass.headers['x-cache'], 'BYPASS');
    const plain = await get(`${edge.url}/plog/hello`);
    assert.equal(plain.headers['x-cache'], 'HIT', 'the failed refresh leaves the cached page in place');
  });

  it('shows new content to the next plain request when purgeCdn has refreshed the page', async () => {
    await get(`${edge.url}/plog/hello`);
    await get(`${edge.url}/`);
    front.version = 2;
    assert.match((await get(`${edge.url}/plog/hello`)).body, /v1/, 'still the cached page before the purge');

    const refreshed = await purgeCdn(['/plog/hello', '/'], { baseUrl: edge.url, secret: TEST_REFRESH_SECRET });
    assert.deepEqual(refreshed, [`${edge.url}/plog/hello`, `${edge.url}/`]);

    for (const path of ['/plog/hello', '/']) {
      const after = await get(`${edge.url}${path}`);
      assert.equal(after.headers['x-cache'], 'HIT', path);
      assert.match(after.body, /v2/, path);
      assert.equal(front.callsTo(path), 4, `${path}: the first miss and one refresh per coding`);
    }
  });

  it('stops serving a deleted page once a refresh gets its 404, and serves it again once re-created and refreshed', async () => {
    await get(`${edge.url}/plog/deleted`);
    assert.equal((await get(`${edge.url}/plog/deleted`)).headers['x-cache'], 'HIT');
    front.gone.set('/plog/deleted', 404);
    assert.equal((await get(`${edge.url}/plog/deleted`)).status, 200, 'still the cached page before the purge');

    assert.deepEqual(await purgeCdn(['/plog/deleted'], { baseUrl: edge.url, secret: TEST_REFRESH_SECRET }), [`${edge.url}/plog/deleted`]);
    for (let i = 0; i < 2; i++) {
      const after = await get(`${edge.url}/plog/deleted`);
      assert.equal(after.status, 404);
      assert.equal(after.headers['x-cache'], 'HIT', 'the refreshed 404 replaced the page in the cache');
      assert.match(after.body, /gone \(404\)/);
    }
    assert.equal(front.callsTo('/plog/deleted'), 4, 'the first miss and one refresh per coding');

    front.gone.delete('/plog/deleted');
    front.version = 2;
    await purgeCdn(['/plog/deleted'], { baseUrl: edge.url, secret: TEST_REFRESH_SECRET });
    const recreated = await get(`${edge.url}/plog/deleted`);
    assert.equal(recreated.status, 200);
    assert.equal(recreated.headers['x-cache'], 'HIT');
    assert.match(recreated.body, /\/plog\/deleted v2/);
    assert.equal(front.callsTo('/plog/deleted'), 7);
  });

  it('replaces a cached page with a 410 when the refresh gets one', async () => {
    await get(`${edge.url}/plog/withdrawn`);
    front.gone.set('/plog/withdrawn', 410);
    await purgeCdn(['/plog/withdrawn'], { baseUrl: edge.url, secret: TEST_REFRESH_SECRET });
    const after = await get(`${edge.url}/plog/withdrawn`);
    assert.equal(after.status, 410);
    assert.equal(after.headers['x-cache'], 'HIT');
  });

  it('never stores a 404 or 410 for a request without secret-header, nor for secret-header: 0', async () => {
    front.gone.set('/plog/never-there', 404);
    front.gone.set('/plog/withdrawn', 410);
    for (const path of ['/plog/never-there', '/plog/withdrawn']) {
      for (const headers of [{}, { 'secret-header': '0' }, {}] as Record<string, string>[]) {
        const answer = await get(`${edge.url}${path}`, headers);
        assert.equal(answer.headers['x-cache'], 'MISS', `${path} ${JSON.stringify(headers)}`);
      }
      assert.equal(front.callsTo(path), 3, path);
    }
  });

  it('never stores a 404 marked private, not even for a refresh', async () => {
    for (let i = 0; i < 2; i++) await get(`${edge.url}/private-missing`, { 'secret-header': TEST_REFRESH_SECRET });
    assert.equal((await get(`${edge.url}/private-missing`)).headers['x-cache'], 'MISS');
    assert.equal(front.callsTo('/private-missing'), 3);
  });

  it('keeps the cached page when a refresh gets another error status', async () => {
    await get(`${edge.url}/plog/hello`);
    front.failing.add('/plog/hello');
    await assert.rejects(purgeCdn(['/plog/hello'], { baseUrl: edge.url, secret: TEST_REFRESH_SECRET }), {
      code: 'CDN_PURGE_FAILED',
      message: new RegExp(`${edge.url}/plog/hello \\(answered 500\\)`),
    });
    const after = await get(`${edge.url}/plog/hello`);
    assert.equal(after.status, 200);
    assert.equal(after.headers['x-cache'], 'HIT');
  });

  it('lets a refreshed 404 expire after goneValidSeconds, then asks the front in the background on every request without storing its 404', async () => {
    await withDeletedPage('/plog/deleted', async (shortEdge) => {
    assert.equal((await get(`${shortEdge.url}/plog/deleted`)).headers['x-cache'], 'HIT');
    await sleep(2100);
    for (let i = 0; i < 2; i++) {
      const plain = await get(`${shortEdge.url}/plog/deleted`);
      assert.equal(plain.status, 404);
      assert.equal(plain.headers['x-cache'], 'STALE', 'the expired 404 answers while the front is asked in the background');
      await waitFor('the background request', () => front.callsTo('/plog/deleted') === 5 + i);
    }

    front.gone.delete('/plog/deleted');
    front.version = 2;
    assert.equal((await get(`${shortEdge.url}/plog/deleted`)).status, 404, 'the reader who comes first still gets the stale copy');
    await waitFor('the background request', () => front.callsTo('/plog/deleted') === 7);
    const back = await get(`${shortEdge.url}/plog/deleted`);
    assert.equal(back.status, 200, 'a page re-created at the same URL shows up without any refresh');
    assert.match(back.body, /v2/);
    assert.equal(back.headers['x-cache'], 'HIT');
    });
  });

  it('answers a refresh from the front, never with the stale copy, when the page has expired', async () => {
    await withDeletedPage('/plog/back', async (shortEdge) => {
    await sleep(2100);
    front.gone.delete('/plog/back');
    front.version = 2;
    const refresh = await get(`${shortEdge.url}/plog/back`, { 'secret-header': TEST_REFRESH_SECRET });
    assert.equal(refresh.status, 200);
    assert.equal(refresh.headers['x-cache'], 'BYPASS');
    assert.match(refresh.body, /v2/);
    const plain = await get(`${shortEdge.url}/plog/back`);
    assert.equal(plain.headers['x-cache'], 'HIT', 'the refresh stored the new copy');
    assert.match(plain.body, /v2/);
    });
  });

  it('keeps the Surrogate-Key header from readers on a miss, a hit and a refresh', async () => {
    const answers = [await get(`${edge.url}/plog/keyed`), await get(`${edge.url}/plog/keyed`), await get(`${edge.url}/plog/keyed`, { 'secret-header': TEST_REFRESH_SECRET })];
    assert.deepEqual(answers.map((answer) => answer.headers['x-cache']), ['MISS', 'HIT', 'BYPASS']);
    for (const answer of answers) assert.equal(answer.headers['surrogate-key'], undefined);
  });

  it('fails purgeCdn naming the URL when the upstream is down', async () => {
    await front.stop();
    await assert.rejects(purgeCdn(['/plog/hello'], { baseUrl: edge.url, secret: TEST_REFRESH_SECRET }), (error: unknown) => {
      assert.ok(error instanceof CdnPurgeError);
      assert.deepEqual(error.failures, [{ url: `${edge.url}/plog/hello`, requested: '/plog/hello', reason: 'answered 502' }]);
      return true;
    });
  });

  it('passes the requested host, port included, to the upstream as x-forwarded-host', async () => {
    const answer = await get(`${edge.url}/plog/hello`, { host: 'Blog.Example:8443' });
    assert.equal(front.lastHeaders.get('/plog/hello')?.['x-forwarded-host'], 'Blog.Example:8443');
    assert.equal(front.lastHeaders.get('/plog/hello')?.host, `127.0.0.1:${front.port}`, 'Host is the front address');
    assert.match(answer.body, /for Blog\.Example:8443/);
    const plain = await get(`${edge.url}/plog/hello`);
    assert.equal(front.lastHeaders.get('/plog/hello')?.['x-forwarded-host'], `127.0.0.1:${edge.port}`);
    assert.equal(plain.headers['x-cache'], 'MISS', 'another host is another cache entry');
    assert.match(plain.body, new RegExp(`for 127\\.0\\.0\\.1:${edge.port}`));
  });

  it('does not keep a 404 even when it carries a public Cache-Control', async () => {
    for (const path of ['/missing', '/api/missing']) {
      const first = await get(`${edge.url}${path}`);
      const second = await get(`${edge.url}${path}`);
      assert.equal(first.status, 404);
      assert.equal(second.headers['x-cache'], 'MISS', path);
      assert.equal(front.callsTo(path), 2, path);
    }
  });

  it('does not keep an /api/ answer without a public Cache-Control, and keeps one with it', async () => {
    const autocomplete = '/api/autocomplete?q=abcdefghijkl';
    await get(`${edge.url}${autocomplete}`);
    assert.equal((await get(`${edge.url}${autocomplete}`)).headers['x-cache'], 'MISS');
    assert.equal(front.callsTo(autocomplete), 2);

    await get(`${edge.url}/api/private`);
    assert.equal((await get(`${edge.url}/api/private`)).headers['x-cache'], 'MISS');

    await get(`${edge.url}/api/cached`);
    const cached = await get(`${edge.url}/api/cached`);
    assert.equal(cached.headers['x-cache'], 'HIT');
    assert.equal(front.callsTo('/api/cached'), 1);
  });

  it('does not keep a page marked private or one that sets a cookie', async () => {
    for (const path of ['/private', '/cookie']) {
      await get(`${edge.url}${path}`);
      const second = await get(`${edge.url}${path}`);
      assert.equal(second.headers['x-cache'], 'MISS', path);
      assert.equal(front.callsTo(path), 2, path);
    }
    assert.equal((await get(`${edge.url}/cookie`)).headers['set-cookie']?.[0], 'session=abc');
  });

  it('keeps a page for its hour but an /api/ answer only for its own max-age, then serves it stale while the upstream is down', async () => {
    await get(`${edge.url}/short`);
    await get(`${edge.url}/api/short`);
    assert.equal((await get(`${edge.url}/api/short`)).headers['x-cache'], 'HIT');
    await sleep(2100);
    assert.equal((await get(`${edge.url}/short`)).headers['x-cache'], 'HIT', 'a page ignores max-age=1');
    assert.equal((await get(`${edge.url}/api/short`)).headers['x-cache'], 'EXPIRED', '/api/ follows max-age=1');
    assert.equal(front.callsTo('/api/short'), 2);

    await sleep(2100);
    front.version = 2;
    await front.stop();
    const stale = await get(`${edge.url}/api/short`);
    assert.equal(stale.status, 200);
    assert.equal(stale.headers['x-cache'], 'STALE');
    assert.match(stale.body, /short v1/);
    const bypass = await get(`${edge.url}/api/short`, { 'secret-header': TEST_REFRESH_SECRET });
    assert.equal(bypass.status, 502, 'a bypass is never answered with a stale copy');
  });

  it('keeps an /api/ answer for its s-maxage when its max-age is longer', async () => {
    await get(`${edge.url}/api/shared-short`);
    assert.equal((await get(`${edge.url}/api/shared-short`)).headers['x-cache'], 'HIT');
    front.version = 2;
    await sleep(2100);
    const after = await get(`${edge.url}/api/shared-short`);
    assert.equal(after.headers['x-cache'], 'EXPIRED', 's-maxage=1 bounds the edge, not max-age=3600');
    assert.match(after.body, /"version":2/);
    assert.equal(after.headers['cache-control'], 'public, max-age=3600, s-maxage=1', 'browsers get the header as sent');
  });

  it('neither stores nor serves from the cache a request that carries credentials', async () => {
    await get(`${edge.url}/plog/hello`);
    const authorized = await get(`${edge.url}/account`, { authorization: 'Bearer s3cret' });
    assert.equal(authorized.status, 200);
    assert.equal(authorized.headers['x-cache'], 'BYPASS');
    const anonymous = await get(`${edge.url}/account`);
    assert.equal(anonymous.status, 401, "the caller's answer was not kept for others");
    assert.equal(front.callsTo('/account'), 2);
    assert.equal((await get(`${edge.url}/plog/hello`, { authorization: 'Bearer x' })).headers['x-cache'], 'BYPASS');
  });

  it('passes the client address on in X-Forwarded-For', async () => {
    await get(`${edge.url}/plog/xff`, { 'x-forwarded-for': '203.0.113.9' });
    assert.equal(front.lastHeaders.get('/plog/xff')?.['x-forwarded-for'], '203.0.113.9, 127.0.0.1');
  });

  it('makes one upstream call when many requests miss the same page at once', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(`${edge.url}/slow`)));
    assert.ok(answers.every((answer) => answer.status === 200 && /slow v1/.test(answer.body)));
    assert.equal(front.callsTo('/slow'), 1);
  });

  it('answers malformed and hostile requests with a 4xx and keeps serving', async () => {
    assert.equal((await get(`${edge.url}/${'a'.repeat(9000)}`)).status, 414);
    assert.equal((await get(`${edge.url}/plog/hello`, { host: 'bad host/with space' })).status, 400);
    const unicode = await get(`${edge.url}/plog/caf%C3%A9-%F0%9F%8E%B5?q=%00%27%22`);
    assert.equal(unicode.status, 200);
    assert.equal(front.callsTo('/plog/caf%C3%A9-%F0%9F%8E%B5?q=%00%27%22'), 1);
    assert.equal((await get(`${edge.url}/plog/hello`)).status, 200);
  });
});

describe('checkNginxConfig', { skip }, () => {
  it('accepts the generated config when the data directory has spaces, quotes and unicode in its name', async () => {
    const dir = tempDir('sitestack edge "quoted" données 🎵 ');
    try {
      const edgeDir = join(dir.path, 'edge');
      const configFile = writeEdgeConfig({
        edgeDir,
        listen: { host: '::1', port: 8080 },
        upstreams: [{ host: '127.0.0.1', port: 3000 }, { host: 'localhost', port: 3001 }],
        accessLog: true,
      });
      await checkNginxConfig(nginx!, edgeDir, configFile);
    } finally {
      dir.remove();
    }
  });

  it("rejects a broken config with nginx's own message", async () => {
    const dir = tempDir('sitestack-edge-');
    try {
      const edgeDir = join(dir.path, 'edge');
      const configFile = writeEdgeConfig({ edgeDir, listen: { host: '127.0.0.1', port: 8080 }, upstreams: [{ host: 'localhost', port: 3000 }] });
      appendFileSync(configFile, 'not_a_directive on;\n');
      await assert.rejects(checkNginxConfig(nginx!, edgeDir, configFile), {
        code: 'NGINX_CONFIG_INVALID',
        message: /unknown directive "not_a_directive"/,
      });
    } finally {
      dir.remove();
    }
  });
});
