import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { RunningProxy } from '../src/server/proxy-command.js';
import { purge, send, startTestProxy, startUpstream, type TestUpstream } from './support/proxy.js';

let served = 0;

/** What the application behind the proxy answers, by path; every answer names how many requests it has served. */
function application(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  served++;
  const page = `<!doctype html><title>${path}</title><p>render ${served}</p>${'<p>filler</p>'.repeat(200)}`;
  if (path === '/private') res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'private, max-age=60' });
  else if (path === '/no-store') res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
  else if (path === '/cookie') res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': ['a=1; Path=/', 'b=2; Path=/'] });
  else if (path.startsWith('/tagged/')) res.writeHead(200, { 'content-type': 'text/html', 'surrogate-key': `post-${path.slice(8)} posts` });
  else if (path.startsWith('/cache-tag/')) res.writeHead(200, { 'content-type': 'text/html', 'cache-tag': `item-${path.slice(11)},items` });
  else if (path === '/shared-zero') res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'public, max-age=600, s-maxage=0' });
  else if (path.startsWith('/_next/data/')) res.writeHead(200, { 'content-type': 'application/json' });
  else res.writeHead(200, { 'content-type': 'text/html' });
  res.end(page);
}

function renderOf(body: string): number {
  return Number(/render (\d+)/.exec(body)?.[1]);
}

describe('sitestack proxy before a plain node:http application', () => {
  let upstream: TestUpstream;
  let proxy: RunningProxy;
  let soft: RunningProxy;

  before(async () => {
    upstream = await startUpstream(application);
    proxy = await startTestProxy([upstream.url]);
    soft = await startTestProxy([upstream.url], { PURGE_MODE: 'soft' });
  });
  after(async () => {
    await proxy.close();
    await soft.close();
    await upstream.close();
  });

  it('answers a miss from the application, then hits from the cache with an ETag and a 304 when the page is asked for again', async () => {
    const first = await send(`${proxy.url}/hits`);
    assert.equal(first.status, 200);
    assert.equal(first.headers['x-middleware-cache'], 'miss');
    const second = await send(`${proxy.url}/hits`);
    assert.equal(second.headers['x-middleware-cache'], 'hit');
    assert.equal(renderOf(second.body), renderOf(first.body));
    assert.ok(second.headers.etag);
    const revalidated = await send(`${proxy.url}/hits`, { headers: { 'if-none-match': second.headers.etag } });
    assert.equal(revalidated.status, 304);
  });

  it('keeps br and gzip copies of a stored page when clients ask for them', async () => {
    await send(`${proxy.url}/coded`);
    const br = await send(`${proxy.url}/coded`, { headers: { 'accept-encoding': 'br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers['x-middleware-cache'], 'hit');
    const gzip = await send(`${proxy.url}/coded`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
  });

  it('renders a page again after a purge of its path', async () => {
    const before = await send(`${proxy.url}/purged`);
    assert.equal((await send(`${proxy.url}/purged`)).headers['x-middleware-cache'], 'hit');
    const answer = await purge(proxy, { pathnames: ['/purged'] });
    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.body).purged, ['/purged']);
    const after = await send(`${proxy.url}/purged`);
    assert.equal(after.headers['x-middleware-cache'], 'miss');
    assert.ok(renderOf(after.body) > renderOf(before.body));
  });

  it('renders every page naming a surrogate key again after a purge of that key, and no other', async () => {
    await send(`${proxy.url}/tagged/1`);
    await send(`${proxy.url}/tagged/2`);
    await purge(proxy, { keys: ['post-1'] });
    assert.equal((await send(`${proxy.url}/tagged/1`)).headers['x-middleware-cache'], 'miss');
    assert.equal((await send(`${proxy.url}/tagged/2`)).headers['x-middleware-cache'], 'hit');
    await purge(proxy, { keys: ['posts'] });
    assert.equal((await send(`${proxy.url}/tagged/2`)).headers['x-middleware-cache'], 'miss');
  });

  it('reads Cache-Tag as comma-separated keys, purges by them, and shows readers neither key header', async () => {
    const first = await send(`${proxy.url}/cache-tag/9`);
    assert.equal(first.headers['cache-tag'], undefined);
    assert.equal((await send(`${proxy.url}/tagged/9`)).headers['surrogate-key'], undefined);
    await purge(proxy, { keys: ['item-9'] });
    assert.equal((await send(`${proxy.url}/cache-tag/9`)).headers['x-middleware-cache'], 'miss');
  });

  it('honours s-maxage over max-age: a page a shared cache may not keep is not stored', async () => {
    await send(`${proxy.url}/shared-zero`);
    assert.equal((await send(`${proxy.url}/shared-zero`)).headers['x-middleware-cache'], 'miss');
  });

  it('purges a Next.js data route with its page, whatever the build id, and the home data route with /', async () => {
    await send(`${proxy.url}/_next/data/build-1/posts/1.json`);
    await send(`${proxy.url}/_next/data/build-1/index.json`);
    await send(`${proxy.url}/_next/data/build-1/posts/12.json`);
    await purge(proxy, { pathnames: ['/posts/1', '/'] });
    assert.equal((await send(`${proxy.url}/_next/data/build-1/posts/1.json`)).headers['x-middleware-cache'], 'miss');
    assert.equal((await send(`${proxy.url}/_next/data/build-1/index.json`)).headers['x-middleware-cache'], 'miss');
    assert.equal((await send(`${proxy.url}/_next/data/build-1/posts/12.json`)).headers['x-middleware-cache'], 'hit');
  });

  it('answers a soft-purged page at once from its stale copy while one background render replaces it', async () => {
    const first = await send(`${soft.url}/soft`);
    await purge(soft, { pathnames: ['/soft'] });
    const stale = await send(`${soft.url}/soft`);
    assert.equal(stale.headers['x-middleware-cache'], 'stale');
    assert.equal(renderOf(stale.body), renderOf(first.body));
    let fresh = await send(`${soft.url}/soft`);
    // The background render lands within a few requests; bounded so a broken one fails instead of looping.
    for (let i = 0; i < 200 && fresh.headers['x-middleware-cache'] !== 'hit'; i++) fresh = await send(`${soft.url}/soft`);
    assert.ok(renderOf(fresh.body) > renderOf(first.body));
  });

  for (const path of ['/private', '/no-store', '/cookie']) {
    it(`never stores ${path}, whose answer is one reader's`, async () => {
      const first = await send(`${proxy.url}${path}`);
      const second = await send(`${proxy.url}${path}`);
      assert.equal(second.headers['x-middleware-cache'], 'miss');
      assert.ok(renderOf(second.body) > renderOf(first.body));
      if (path === '/cookie') assert.deepEqual(second.headers['set-cookie'], ['a=1; Path=/', 'b=2; Path=/']);
    });
  }

  it('passes /api/ and /_next/image by the cache, headers untouched', async () => {
    for (const path of ['/api/thing', '/_next/image?url=%2Fa.png&w=64']) {
      const first = await send(`${proxy.url}${path}`);
      assert.equal(first.headers['x-middleware-cache'], undefined, path);
      const second = await send(`${proxy.url}${path}`);
      assert.ok(renderOf(second.body) > renderOf(first.body), path);
    }
  });

  it('keeps immutable /_next/static/ assets, which no page purge removes', async () => {
    await send(`${proxy.url}/_next/static/chunks/main-abc.js`);
    await purge(proxy, { pathnames: ['/', '/_next/static/chunks/main-abc'] });
    assert.equal((await send(`${proxy.url}/_next/static/chunks/main-abc.js`)).headers['x-middleware-cache'], 'hit');
  });

  it('answers /healthz, /readyz with the upstream check, and /metrics with the page cache counters', async () => {
    assert.equal((await send(`${proxy.url}/healthz`)).status, 200);
    const ready = JSON.parse((await send(`${proxy.url}/readyz`)).body);
    assert.equal(ready.status, 'ready');
    assert.equal(ready.checks.upstream.ok, true);
    const metrics = await send(`${proxy.url}/metrics`, { headers: { authorization: 'Bearer proxy-test-secret-0123456789' } });
    assert.equal(metrics.status, 200);
    assert.match(metrics.body, /sitestack_page_cache_hits_total\{server="proxy"\} [1-9]/);
  });
});

describe('sitestack proxy when its upstream goes down', () => {
  it('answers pages it holds stale (stale-if-error, or STALE_IF_ERROR_MS after a soft purge), then 502 for a page never cached', async () => {
    const upstream = await startUpstream((req, res) => {
      const cacheControl = req.url === '/swr' ? 'public, max-age=0, stale-while-revalidate=600, stale-if-error=600' : 'public';
      res.writeHead(200, { 'content-type': 'text/html', 'cache-control': cacheControl });
      res.end(`<p>${req.url} while up</p>`);
    });
    const proxy = await startTestProxy([upstream.url], { PURGE_MODE: 'soft' });
    try {
      await send(`${proxy.url}/swr`);
      await send(`${proxy.url}/soft`);
      await purge(proxy, { pathnames: ['/soft'] });
      await upstream.close();
      for (let i = 0; i < 3; i++) {
        for (const path of ['/swr', '/soft']) {
          const answer = await send(`${proxy.url}${path}`);
          assert.equal(answer.status, 200, `${path} #${i}`);
          assert.equal(answer.body, `<p>${path} while up</p>`);
          assert.equal(answer.headers['x-middleware-cache'], 'stale');
        }
      }
      const never = await send(`${proxy.url}/never-cached`);
      assert.equal(never.status, 502);
    } finally {
      await proxy.close();
    }
  });
});
