import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningProxy } from '../src/server/proxy-command.js';
import { createNextSiteContent, dataRoute, NEXT_SITE_PATHS as PATHS, startNextSite, type NextSiteContent, type RunningNextSite } from './support/next-site.js';
import { purge, send, startTestProxy } from './support/proxy.js';
import { eventually } from './support/stack.js';

const cacheOf = (answer: { headers: Record<string, unknown> }) => answer.headers['x-middleware-cache'];

/**
 * Edits a post, has Next regenerate the pages that show it (a purge alone would fetch Next's own ISR copy again) and
 * waits until Next itself answers them edited. Next joins an on-demand revalidation to a regeneration of the same page
 * already under way, which on a loaded machine can be one a reader's request started before the edit: its result is
 * the old page, so the pages still old are revalidated again. What is tested here is the proxy, not Next's timing.
 */
async function editPost(site: RunningNextSite, content: NextSiteContent, id: string, title: string, paths: string[]): Promise<void> {
  const post = content.posts().find((candidate) => candidate.id === id);
  assert.ok(post, `post ${id}`);
  content.setPost({ ...post, title });
  let old = paths;
  await eventually(`Next answers ${paths.join(' ')} edited`, async () => {
    await site.revalidate(old);
    const answers = await Promise.all(old.map(async (path) => ({ path, edited: (await send(`${site.url}${path}`)).body.includes(title) })));
    old = answers.filter((answer) => !answer.edited).map((answer) => answer.path);
    return old.length === 0;
  }, 15_000);
}

describe('sitestack proxy before the Next.js test application', () => {
  let content: NextSiteContent;
  let site: RunningNextSite;
  let proxy: RunningProxy;

  before(async () => {
    content = createNextSiteContent();
    site = await startNextSite({ contentDir: content.dir });
    proxy = await startTestProxy([site.url]);
  });
  after(async () => {
    await proxy?.close();
    await site?.stop();
    content?.remove();
  });

  it('answers ISR, static and asset requests from memory after their first render, with Next’s Cache-Control passed on', async () => {
    for (const path of [PATHS.isr, PATHS.static, PATHS.appIsr, PATHS.home]) {
      const first = await send(`${proxy.url}${path}`);
      assert.equal(first.status, 200, path);
      assert.equal(cacheOf(first), 'miss', path);
      const second = await send(`${proxy.url}${path}`);
      assert.equal(cacheOf(second), 'hit', path);
      assert.equal(second.body, first.body, path);
    }
    const isr = await send(`${proxy.url}${PATHS.isr}`);
    assert.match(String(isr.headers['cache-control']), /s-maxage=60, stale-while-revalidate/);
    const script = /src="(\/_next\/static\/[^"]+\.js)"/.exec(isr.body)?.[1];
    assert.ok(script, 'a script of the page');
    await send(`${proxy.url}${script}`);
    assert.equal(cacheOf(await send(`${proxy.url}${script}`)), 'hit');
  });

  // A route handler that sends no Cache-Control (PATHS.appRoute) is stored like a static page, which sends none either:
  // such routes belong in PROXY_BYPASS or should say `no-store`.
  it('never stores SSR pages, the app-router dynamic page, the cookie page or API routes', async () => {
    for (const path of [PATHS.ssr, PATHS.appSsr, PATHS.cookie, PATHS.api]) {
      await send(`${proxy.url}${path}`);
      const second = await send(`${proxy.url}${path}`);
      assert.equal(second.status, 200, path);
      assert.notEqual(cacheOf(second), 'hit', path);
    }
    assert.ok((await send(`${proxy.url}${PATHS.cookie}`)).headers['set-cookie'], 'the cookie reaches the reader');
  });

  it('serves the edited page on the first request after a purge by path, its data route with it', async () => {
    const data = dataRoute(site.buildId, PATHS.isr);
    await send(`${proxy.url}${PATHS.isr}`);
    await send(`${proxy.url}${data}`);
    assert.equal(cacheOf(await send(`${proxy.url}${data}`)), 'hit');
    await editPost(site, content, '1', 'First post, edited', [PATHS.isr]);
    const purged = JSON.parse((await purge(proxy, { pathnames: [PATHS.isr] })).body).purged as string[];
    assert.ok(purged.includes(data), purged.join(' '));
    const page = await send(`${proxy.url}${PATHS.isr}`);
    assert.match(page.body, /First post, edited/);
    assert.match((await send(`${proxy.url}${data}`)).body, /First post, edited/);
  });

  it('serves edited pages of both routers on the first request after a purge by tag', async () => {
    const pages = ['/posts/2', '/blog/2'];
    for (const path of pages) await send(`${proxy.url}${path}`);
    for (const path of pages) assert.equal(cacheOf(await send(`${proxy.url}${path}`)), 'hit', path);
    await editPost(site, content, '2', 'Second post, edited', pages);
    await purge(proxy, { keys: ['post-2'] });
    for (const path of pages) {
      const answer = await send(`${proxy.url}${path}`);
      assert.equal(cacheOf(answer), 'miss', path);
      assert.match(answer.body, /Second post, edited/, path);
    }
  });

  it('passes the client, the forwarded fields and request bodies to Next', async () => {
    const echoed = JSON.parse((await send(`${proxy.url}${PATHS.echo}`, { method: 'POST', headers: { host: 'shop.example', 'content-type': 'application/json' }, body: '{"a":"ü"}' })).body);
    assert.equal(echoed.method, 'POST');
    assert.equal(echoed.bodyBytes, Buffer.byteLength('{"a":"ü"}'));
    assert.equal(echoed.headers['x-forwarded-host'], 'shop.example');
    assert.match(echoed.headers.via, /sitestack/);
  });
});

describe('sitestack proxy when next start stops mid-run', () => {
  it('answers the pages it holds (stale after a soft purge), then 502 for pages it never held', async () => {
    const content = createNextSiteContent();
    const site = await startNextSite({ contentDir: content.dir });
    const proxy = await startTestProxy([site.url], { PURGE_MODE: 'soft' });
    try {
      const held = await send(`${proxy.url}/posts/3`);
      assert.equal(held.status, 200);
      await send(`${proxy.url}${PATHS.static}`);
      await site.stop();
      await purge(proxy, { pathnames: ['/posts/3'] });
      for (let i = 0; i < 3; i++) {
        const stale = await send(`${proxy.url}/posts/3`);
        assert.equal(stale.status, 200);
        assert.equal(cacheOf(stale), 'stale');
        assert.equal(stale.body, held.body);
      }
      assert.equal(cacheOf(await send(`${proxy.url}${PATHS.static}`)), 'hit');
      for (const path of ['/posts/1', PATHS.ssr, PATHS.api]) assert.equal((await send(`${proxy.url}${path}`)).status, 502, path);
    } finally {
      await proxy.close();
      await site.kill();
      content.remove();
    }
  });
});
