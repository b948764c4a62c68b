import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { decodedBody, rawRequest, rawText } from '../src/test-support/raw-http.js';
import { launchChromium, chromiumSkip } from './support/chromium.js';
import {
  buildNextSite,
  createNextSiteContent,
  dataRoute,
  NEXT_SITE_DIR,
  NEXT_SITE_PATHS as PATHS,
  startNextSite,
  type NextSiteContent,
  type RunningNextSite,
} from './support/next-site.js';

/** What Next 16 sends on `next start` for each kind of page: the facts `sitestack proxy` is built on. */
const ISR = 's-maxage=60, stale-while-revalidate=31535940';
const DYNAMIC = 'private, no-cache, no-store, max-age=0, must-revalidate';
const APP_ROUTER_VARY = 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch, Accept-Encoding';

function processGroupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('Next.js test site', () => {
  let content: NextSiteContent;
  let site: RunningNextSite;
  const get = (target: string, headers: Record<string, string> = {}) => rawText(site.url, target, { headers });
  const post = (target: string, body: string, type = 'application/json') =>
    fetch(`${site.url}${target}`, { method: 'POST', headers: { 'content-type': type }, body });

  before(async () => {
    content = createNextSiteContent();
    site = await startNextSite({ contentDir: content.dir });
  });
  after(async () => {
    await site?.stop();
    content?.remove();
  });

  describe('Cache-Control and tags as Next sends them', () => {
    const cases: { name: string; path: string; status: number; cacheControl: string | undefined; tags: Record<string, string> }[] = [
      { name: 'a pages-router ISR page', path: PATHS.isr, status: 200, cacheControl: ISR, tags: { 'surrogate-key': 'post-1 posts' } },
      { name: 'the ISR home page', path: PATHS.home, status: 200, cacheControl: ISR, tags: { 'surrogate-key': 'home posts' } },
      { name: 'a static page (none: Next sends no Cache-Control)', path: PATHS.static, status: 200, cacheControl: undefined, tags: { 'surrogate-key': 'about' } },
      { name: 'an SSR page', path: PATHS.ssr, status: 200, cacheControl: DYNAMIC, tags: { 'surrogate-key': 'live posts' } },
      { name: 'an SSR page that sets its own', path: PATHS.cacheableSsr, status: 200, cacheControl: 'public, s-maxage=60, stale-while-revalidate=300', tags: { 'surrogate-key': 'news posts' } },
      { name: 'the cookie page', path: PATHS.cookie, status: 200, cacheControl: 'public, s-maxage=60', tags: { 'surrogate-key': 'welcome' } },
      { name: 'an API route (none)', path: PATHS.api, status: 200, cacheControl: undefined, tags: { 'surrogate-key': 'posts' } },
      { name: 'an app-router ISR page', path: PATHS.appIsr, status: 200, cacheControl: ISR, tags: { 'cache-tag': 'post-1,posts' } },
      { name: 'an app-router dynamic page', path: PATHS.appSsr, status: 200, cacheControl: DYNAMIC, tags: {} },
      { name: 'an app-router route handler (none)', path: PATHS.appRoute, status: 200, cacheControl: undefined, tags: {} },
      { name: 'the sitemap, rendered per request (metadata routes: public, yet stale at once)', path: PATHS.sitemap, status: 200, cacheControl: 'public, max-age=0, must-revalidate', tags: {} },
      { name: 'robots.txt, rendered per request', path: PATHS.robots, status: 200, cacheControl: 'public, max-age=0, must-revalidate', tags: {} },
      { name: 'an ISR post that does not exist (notFound: a 404 Next marks shareable)', path: '/posts/999', status: 404, cacheControl: ISR, tags: { 'surrogate-key': 'post-999 posts' } },
      { name: 'an unknown page', path: '/no-such-page', status: 404, cacheControl: DYNAMIC, tags: {} },
    ];
    for (const { name, path, status, cacheControl, tags } of cases) {
      it(`answers ${status} with ${cacheControl === undefined ? 'no Cache-Control' : `'${cacheControl}'`} when asked for ${name}`, async () => {
        const answer = await get(path);
        assert.equal(answer.status, status, answer.body.slice(0, 500));
        assert.equal(answer.headers['cache-control'], cacheControl);
        for (const [header, value] of Object.entries(tags)) assert.equal(answer.headers[header], value, header);
        if (Object.keys(tags).length === 0) assert.equal(answer.headers['surrogate-key'] ?? answer.headers['cache-tag'], undefined);
      });
    }

    it('sends a data route with the page’s Cache-Control, tags and props when asked for /_next/data/<buildId>/<page>.json', async () => {
      const answer = await get(dataRoute(site.buildId, PATHS.isr));
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(answer.headers['cache-control'], ISR);
      assert.equal(answer.headers['surrogate-key'], 'post-1 posts');
      assert.equal(answer.headers['x-nextjs-matched-path'], '/posts/[id]');
      assert.equal((JSON.parse(answer.body) as { pageProps: { post: { title: string } } }).pageProps.post.title, 'First post');
      const home = await get(dataRoute(site.buildId, '/'));
      assert.equal(home.status, 200);
      assert.equal(home.headers['surrogate-key'], 'home posts');
    });

    it('answers 404 with the dynamic Cache-Control when a data route names another build', async () => {
      const answer = await get(dataRoute('not-the-build', PATHS.isr));
      assert.equal(answer.status, 404);
      assert.equal(answer.headers['cache-control'], DYNAMIC);
    });

    it('marks its static assets immutable for a year when asked for a file under /_next/static/', async () => {
      const chunk = readdirSync(join(NEXT_SITE_DIR, '.next', 'static', 'chunks')).find((name) => name.endsWith('.js'));
      assert.ok(chunk !== undefined);
      const answer = await get(`/_next/static/chunks/${chunk}`);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['cache-control'], 'public, max-age=31536000, immutable');
    });

    it('says x-nextjs-cache HIT and an ETag on prerendered pages and Vary on RSC headers for the app router when asked', async () => {
      const pages = await get(PATHS.isr);
      assert.match(String(pages.headers['x-nextjs-cache']), /^(HIT|STALE)$/);
      assert.match(pages.headers.etag ?? '', /^"[0-9a-z]+"$/);
      assert.equal(pages.headers.vary, 'Accept-Encoding');
      const app = await get(PATHS.appIsr);
      assert.equal(app.headers.vary, APP_ROUTER_VARY);
      assert.equal(app.headers['x-powered-by'], 'Next.js');
    });

    it('redirects an RSC request to its _rsc URL when it comes without one', async () => {
      const answer = await get(PATHS.appIsr, { rsc: '1' });
      assert.equal(answer.status, 307);
      assert.match(answer.headers.location ?? '', /^\/blog\/1\?_rsc/);
    });

    it('sets a new visitor cookie on every request when asked for the cookie page', async () => {
      const first = await get(PATHS.cookie);
      const second = await get(PATHS.cookie);
      const cookie = (answer: typeof first) => answer.headers['set-cookie']?.[0] ?? '';
      assert.match(cookie(first), /^visitor=[0-9a-f-]{36}; Path=\/; HttpOnly; SameSite=Lax$/);
      assert.notEqual(cookie(first), cookie(second));
    });

    it('compresses with gzip itself when the client accepts it', async () => {
      const reply = await rawRequest(site.url, PATHS.isr, { headers: { 'accept-encoding': 'gzip, br' } });
      assert.equal(reply.headers['content-encoding'], 'gzip');
      assert.equal(reply.headers['cache-control'], ISR);
      assert.match(decodedBody(reply).toString('utf8'), /First post/);
    });

    it('answers HEAD with the GET head and no body', async () => {
      const head = await rawRequest(site.url, PATHS.isr, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.headers['cache-control'], ISR);
      assert.equal(head.bytes.length, 0);
    });
  });

  describe('streaming, slow answers and what reaches Next', () => {
    it('sends the shell before the late part when asked for the streaming page', async () => {
      const chunks: string[] = [];
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${site.url}${PATHS.stream}?ms=1000`, { agent: false }, (res) => {
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => chunks.push(chunk));
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
      assert.equal(status, 200);
      const [first = '', ...rest] = chunks;
      assert.ok(first.includes('Waiting for the late part'), 'the first chunk holds the shell');
      assert.ok(!first.includes('id="late"'), 'the first chunk does not wait for the late part');
      assert.ok(rest.join('').includes('<p id="late">Arrived after'), 'a later chunk brings the late part');
    });

    it('answers after the delay asked for, and 400 when the delay is not 0 to 60000 ms', async () => {
      assert.deepEqual(await (await fetch(`${site.url}${PATHS.slow}?ms=20`)).json(), { waitedMs: 20 });
      for (const ms of ['abc', '-1', '60001', '1e3', '\u0000', '１２', '']) assert.equal((await get(`${PATHS.slow}?ms=${encodeURIComponent(ms)}`)).status, 400, ms);
    });

    it('echoes the method, target, forwarded headers and body size that reached it', async () => {
      const response = await fetch(`${site.url}${PATHS.echo}?q=caf%C3%A9`, {
        method: 'PUT',
        headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https', 'content-type': 'application/octet-stream' },
        body: Buffer.alloc(70_000, 1),
      });
      const echoed = (await response.json()) as { method: string; url: string; headers: Record<string, string>; bodyBytes: number };
      assert.equal(echoed.method, 'PUT');
      assert.equal(echoed.url, `${PATHS.echo}?q=caf%C3%A9`);
      assert.equal(echoed.headers['x-forwarded-for'], '203.0.113.7');
      assert.equal(echoed.headers['x-forwarded-proto'], 'https');
      assert.equal(echoed.bodyBytes, 70_000);
      assert.equal((await post(PATHS.echo, 'x'.repeat(1_100_000), 'text/plain')).status, 413);
    });

    it('keeps connections alive for 5 s, which a proxy’s idle upstream connections must stay under', async () => {
      const response = await fetch(`${site.url}${PATHS.isr}`);
      await response.arrayBuffer();
      assert.equal(response.headers.get('connection'), 'keep-alive');
      assert.equal(response.headers.get('keep-alive'), 'timeout=5');
    });
  });

  describe('what a site search reads', () => {
    const locations = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);

    it('lists home, about and every post at the origin it was asked through when asked for its sitemap', async () => {
      const direct = await get(PATHS.sitemap);
      assert.equal(direct.status, 200);
      assert.match(String(direct.headers['content-type']), /^application\/xml/);
      assert.deepEqual(locations(direct.body), ['/', '/about', '/posts/1', '/posts/2', '/posts/3'].map((path) => `${site.url}${path}`));
      const proxied = await get(PATHS.sitemap, { 'x-forwarded-host': 'www.example.test:8443', 'x-forwarded-proto': 'https' });
      assert.equal(locations(proxied.body)[0], 'https://www.example.test:8443/');
    });

    it('names the request’s own host when the forwarded one is not a host name', async () => {
      for (const hostile of ['evil.example/<script>', 'a b', '', 'x'.repeat(300), 'ünïcode.example']) {
        const answer = await get(PATHS.sitemap, { 'x-forwarded-host': hostile, 'x-forwarded-proto': 'javascript' });
        assert.equal(answer.status, 200, hostile);
        assert.equal(locations(answer.body)[0], `${site.url}/`, hostile);
      }
    });

    it('allows all but the API and names the sitemap when asked for robots.txt', async () => {
      const answer = await get(PATHS.robots);
      assert.equal(answer.status, 200);
      assert.match(answer.body, /User-Agent: \*\nAllow: \/\nDisallow: \/api\//);
      assert.match(answer.body, new RegExp(`Sitemap: ${site.url}/sitemap.xml`));
    });

    it('gives each page its language, title and description', async () => {
      const post = await get(PATHS.isr);
      assert.match(post.body, /<html lang="en">/);
      assert.match(post.body, /<title[^>]*>First post<\/title>/);
      assert.match(post.body, /<meta name="description" content="The first post of the Next.js test site."/);
      const blog = await get('/blog/3');
      assert.match(blog.body, /<html lang="en">/);
      assert.match(blog.body, /<title[^>]*>Café naïve 日本語<\/title>/);
    });
  });

  describe('content changes', () => {
    it('keeps serving the prerendered page until revalidated, then the new one when the content changes', async () => {
      content.setPost({ id: '1', title: 'First post, revised', body: 'Changed by the test.' });
      assert.doesNotMatch((await get(PATHS.isr)).body, /revised/, 'Next answers ISR pages from its own cache');
      assert.match((await get(PATHS.cacheableSsr)).body, /First post, revised/, 'SSR reads the content on every request');
      await site.revalidate([PATHS.isr, PATHS.appIsr, PATHS.home]);
      for (const path of [PATHS.isr, PATHS.appIsr, PATHS.home, dataRoute(site.buildId, PATHS.isr)]) {
        assert.match((await get(path)).body, /First post, revised/, path);
      }
    });

    it('renders a post added after the build on its first request', async () => {
      content.setPost({ id: '4', title: 'Fourth post', body: 'Added at run time.' });
      const answer = await get('/posts/4');
      assert.equal(answer.status, 200);
      assert.match(answer.body, /Fourth post/);
      assert.equal(answer.headers['surrogate-key'], 'post-4 posts');
      assert.match((await get(PATHS.sitemap)).body, /\/posts\/4<\/loc>/, 'the sitemap lists it at once');
    });

    it('answers 404 for a removed post once revalidated', async () => {
      content.removePost('2');
      await site.revalidate(['/posts/2']);
      assert.equal((await get('/posts/2')).status, 404);
    });
  });

  describe('bad input to its own routes', () => {
    it('echoes a JSON body, unicode included, when it is posted to the API route', async () => {
      const response = await post(PATHS.api, JSON.stringify({ title: 'Café 日本語 🎉' }));
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { received: { title: 'Café 日本語 🎉' } });
    });

    it('answers 400 when the API route gets malformed JSON and 413 when it gets more than Next’s 1 MB', async () => {
      assert.equal((await post(PATHS.api, '{"title":')).status, 400);
      assert.equal((await post(PATHS.api, JSON.stringify({ big: 'x'.repeat(1_100_000) }))).status, 413);
    });

    it('answers 405 with Allow when the API routes get another method', async () => {
      const response = await fetch(`${site.url}${PATHS.api}`, { method: 'DELETE' });
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'GET, HEAD, POST');
      assert.equal((await fetch(`${site.url}${PATHS.revalidate}`)).status, 405);
    });

    it('answers 400, never 500, when the revalidation route gets bodies that are not a list of paths', async () => {
      const bodies = ['', 'null', '{}', '{"paths":[]}', '{"paths":"/"}', '{"paths":[1]}', '{"paths":["no-slash"]}', `{"paths":["/${'a'.repeat(2000)}"]}`, '{"paths":["/\\u0000"]}', `{"paths":${JSON.stringify(Array(101).fill('/'))}}`];
      for (const body of bodies) assert.equal((await post(PATHS.revalidate, body)).status, 400, body.slice(0, 80));
    });

    it('never answers 500 whatever JSON the revalidation route gets', async () => {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue(), async (value) => {
          const response = await post(PATHS.revalidate, JSON.stringify({ paths: value }));
          await response.arrayBuffer();
          assert.ok(response.status === 200 || response.status === 400, `${response.status} for ${JSON.stringify(value)}`);
        }),
        { numRuns: 40 },
      );
    });

    it('answers 404 with a percent-encoded key when a post path holds unicode, controls or hostile characters', async () => {
      for (const target of ['/posts/caf%C3%A9', '/posts/%00%0d%0a', '/posts/%E2%80%8B', '/blog/%F0%9F%8E%89', '/posts/..%2f..%2fetc']) {
        const answer = await get(target);
        assert.equal(answer.status, 404, target);
        assert.equal(answer.headers['surrogate-key'] ?? answer.headers['cache-tag'], 'posts', target);
      }
    });
  });

  describe('client navigation', { skip: chromiumSkip('Next.js client navigation') }, () => {
    it('fetches the post’s data route instead of its page when a reader follows a link', async () => {
      const browser = await launchChromium();
      try {
        const page = await browser.context.newPage();
        const requested: string[] = [];
        page.on('request', (request) => requested.push(new URL(request.url()).pathname));
        await page.goto(`${site.url}/`);
        await page.evaluate(() => Object.assign(window, { stayedOnPage: true }));
        await page.click('#post-link-3');
        await page.waitForURL(`${site.url}/posts/3`);
        assert.equal(await page.textContent('#post-title'), 'Café naïve 日本語');
        assert.equal(await page.evaluate(() => (window as { stayedOnPage?: boolean }).stayedOnPage), true, 'a client navigation, not a page load');
        assert.ok(requested.includes(dataRoute(site.buildId, '/posts/3')), requested.join('\n'));
        assert.ok(!requested.includes('/posts/3'), 'the page itself is never fetched');
      } finally {
        await browser.close();
      }
    });
  });
});

describe('Next.js test site harness', () => {
  it('reuses the build in another test process when the inputs have not changed', async () => {
    const { buildId } = await buildNextSite();
    const harness = new URL('./support/next-site.ts', import.meta.url).href;
    const script = `const { buildNextSite } = await import(${JSON.stringify(harness)}); process.stdout.write(JSON.stringify(await buildNextSite()));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(JSON.parse(child.stdout), { buildId, built: false, ms: 0 });
  });

  it('leaves no process of its group behind when stopped, stops answering when killed, and starts again on its port', async () => {
    const content = createNextSiteContent();
    try {
      const stopped = await startNextSite({ contentDir: content.dir });
      await stopped.stop();
      assert.equal(processGroupAlive(stopped.pid), false);
      const killed = await startNextSite({ contentDir: content.dir });
      await killed.kill();
      assert.equal(processGroupAlive(killed.pid), false);
      await assert.rejects(fetch(`${killed.url}${PATHS.static}`));
      const again = await startNextSite({ contentDir: content.dir, port: killed.port });
      assert.equal((await fetch(`${killed.url}${PATHS.static}`)).status, 200, 'it comes back where it was');
      await again.stop();
    } finally {
      content.remove();
    }
  });
});
