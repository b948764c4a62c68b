import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decodedBody, rawRequest, rawText } from '../src/test-support/raw-http.js';
import {
  buildNextSite,
  createNextSiteContent,
  dataRoute,
  NEXT_SITE_DIR,
  NEXT_SITE_PATHS as PATHS,
  nextSiteEnv,
  type NextSiteContent,
} from './support/next-site.js';
import { spawnTracked, type TrackedProcess } from './support/process-group.js';

const SERVER = fileURLToPath(new URL('../examples/page-cache/next-custom-server/server.ts', import.meta.url));
const PURGE_SECRET = 'next-custom-server-secret';
const START_TIMEOUT_MS = 60_000;

/** Starts the example as a user would (`node --import tsx server.ts`) on a port it picks; resolves with its URL. */
function spawnExample(contentDir: string, env: Record<string, string>): TrackedProcess {
  const settings = { NEXT_DIR: NEXT_SITE_DIR, PORT: '0', HOST: '127.0.0.1', PURGE_SECRET, ...env };
  return spawnTracked(['--import', 'tsx', '--conditions=sitestack-source', SERVER], NEXT_SITE_DIR, { ...nextSiteEnv(contentDir), ...settings });
}

async function startExample(contentDir: string, env: Record<string, string> = {}): Promise<{ server: TrackedProcess; url: string }> {
  await buildNextSite();
  const server = spawnExample(contentDir, env);
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const url = /listening on (http:\/\/\S+)/.exec(server.output())?.[1];
    if (url !== undefined) return { server, url };
    if (server.child.exitCode !== null || Date.now() > deadline) {
      await server.kill();
      throw new Error(`the Next.js custom server example did not start:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('Next.js custom server example (page cache before next())', () => {
  let content: NextSiteContent;
  let server: TrackedProcess;
  let url: string;
  let buildId: string;
  const get = (target: string, headers: Record<string, string> = {}) => rawText(url, target, { headers });
  const purge = (body: string, authorization = `Bearer ${PURGE_SECRET}`) =>
    fetch(`${url}/__purge__`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body });
  const purged = async (request: { pathnames?: string[]; keys?: string[] }) => {
    const response = await purge(JSON.stringify(request));
    assert.equal(response.status, 200);
    return ((await response.json()) as { purged: string[] }).purged;
  };

  before(async () => {
    content = createNextSiteContent();
    ({ buildId } = await buildNextSite());
    ({ server, url } = await startExample(content.dir));
  });
  after(async () => {
    await server?.stop();
    content?.remove();
  });

  it('answers a page from memory after its first render', async () => {
    const first = await get(PATHS.isr);
    const second = await get(PATHS.isr);
    assert.equal(first.headers['x-middleware-cache'], 'miss');
    assert.equal(second.headers['x-middleware-cache'], 'hit');
    assert.equal(second.body, first.body);
    assert.equal(second.headers['surrogate-key'], 'post-1 posts');
    assert.equal(second.headers['cache-control'], 's-maxage=60, stale-while-revalidate=31535940');
  });

  it('answers a hit in br with its ETag, and 304 when the client holds that ETag', async () => {
    const hit = await rawRequest(url, PATHS.isr, { headers: { 'accept-encoding': 'br' } });
    assert.equal(hit.headers['content-encoding'], 'br');
    assert.match(decodedBody(hit).toString('utf8'), /First post/);
    const etag = hit.headers.etag ?? '';
    const conditional = await rawRequest(url, PATHS.isr, { headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
    assert.equal(conditional.status, 304);
    assert.equal(conditional.bytes.length, 0);
  });

  it('sends a client that accepts no coding plain HTML when a gzip client filled the cache', async () => {
    const filled = await get(PATHS.appIsr, { 'accept-encoding': 'gzip' });
    assert.equal(filled.headers['x-middleware-cache'], 'miss');
    const plain = await get(PATHS.appIsr);
    assert.equal(plain.headers['x-middleware-cache'], 'hit');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.match(plain.body, /<h1 id="post-title">First post<\/h1>/);
  });

  it('never stores the page that sets a cookie, nor a private SSR page', async () => {
    for (const path of [PATHS.cookie, PATHS.ssr, PATHS.appSsr]) {
      const first = await get(path);
      const second = await get(path);
      assert.equal(first.status, 200, path);
      assert.deepEqual([first.headers['x-middleware-cache'], second.headers['x-middleware-cache']], ['miss', 'miss'], path);
    }
    const [one, two] = [await get(PATHS.cookie), await get(PATHS.cookie)];
    assert.notEqual(one.headers['set-cookie']?.[0], two.headers['set-cookie']?.[0], 'each visitor gets a cookie of their own');
  });

  it('passes API routes and static assets to Next untouched', async () => {
    const chunk = readdirSync(join(NEXT_SITE_DIR, '.next', 'static', 'chunks')).find((name) => name.endsWith('.js'));
    for (const path of [PATHS.api, `/_next/static/chunks/${chunk}`]) {
      const answer = await get(path);
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers['x-middleware-cache'], undefined, path);
    }
  });

  it('purges a page with its data route when purged by path, and serves Next’s content again after', async () => {
    const data = dataRoute(buildId, '/posts/2');
    await get('/posts/2');
    await get(data);
    assert.equal((await get(data)).headers['x-middleware-cache'], 'hit');
    assert.deepEqual(await purged({ pathnames: ['/posts/2'] }), ['/posts/2', data]);
    assert.equal((await get('/posts/2')).headers['x-middleware-cache'], 'miss');
    assert.equal((await get(data)).headers['x-middleware-cache'], 'miss');
  });

  it('shows an edited post once Next revalidated it and the cache purged it', async () => {
    await get('/posts/3');
    content.setPost({ id: '3', title: 'Third post, edited', body: 'Edited by the test.' });
    const revalidated = await fetch(`${url}${PATHS.revalidate}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paths: ['/posts/3'] }) });
    assert.equal(revalidated.status, 200);
    const before = await get('/posts/3');
    assert.equal(before.headers['x-middleware-cache'], 'hit');
    assert.doesNotMatch(before.body, /edited/, 'the cache keeps the page until purged');
    await purged({ pathnames: ['/posts/3'] });
    const after = await get('/posts/3');
    assert.equal(after.headers['x-middleware-cache'], 'miss');
    assert.match(after.body, /Third post, edited/);
  });

  it('purges every page that named a surrogate key when purged by that key', async () => {
    for (const path of [PATHS.home, PATHS.isr, PATHS.cacheableSsr]) await get(path);
    const keys = await purged({ keys: ['posts'] });
    for (const path of [PATHS.home, PATHS.isr, PATHS.cacheableSsr]) {
      assert.ok(keys.includes(path), `${path} in ${keys.join(' ')}`);
      assert.equal((await get(path)).headers['x-middleware-cache'], 'miss', path);
    }
    assert.equal((await get(PATHS.static)).headers['x-middleware-cache'], 'miss', 'a page that did not name it stays');
    assert.equal((await get(PATHS.static)).headers['x-middleware-cache'], 'hit');
    assert.deepEqual(await purged({ keys: ['posts'] }), [PATHS.home, PATHS.isr, PATHS.cacheableSsr]);
  });

  it('refuses purges without the secret, with a bad body or another method, and takes unicode pathnames', async () => {
    assert.equal((await purge('{"pathnames":["/"]}', '')).status, 401);
    assert.equal((await purge('{"pathnames":["/"]}', 'Bearer wrong')).status, 403);
    assert.equal((await purge('{"pathnames":')).status, 400);
    assert.equal((await purge('{"pathnames":["no-slash"]}')).status, 400);
    assert.equal((await purge(JSON.stringify({ pathnames: ['/x'.repeat(600_000)] }))).status, 413);
    assert.equal((await fetch(`${url}/__purge__`)).status, 405);
    assert.deepEqual(await purged({ pathnames: ['/posts/café', '/blog/日本語'] }), []);
  });

  it('never answers 500 when a request target is hostile', async () => {
    for (const target of ['/posts/%00', '/posts/%ff%fe', '//evil.example/posts/1', '/posts/1?%zz', '/../../etc/passwd', `/posts/${'a'.repeat(8000)}`, '/blog/%F0%9F%8E%89']) {
      const answer = await get(target);
      assert.ok(answer.status < 500, `${answer.status} for ${target.slice(0, 60)}`);
    }
  });
});

describe('Next.js custom server example with PURGE_MODE=soft', () => {
  let content: NextSiteContent;
  let server: TrackedProcess;
  let url: string;

  before(async () => {
    content = createNextSiteContent();
    ({ server, url } = await startExample(content.dir, { PURGE_MODE: 'soft' }));
  });
  after(async () => {
    await server?.stop();
    content?.remove();
  });

  it('serves the purged page stale while Next renders the new one in the background', async () => {
    await rawText(url, '/posts/1');
    content.setPost({ id: '1', title: 'First post, softly replaced', body: 'Edited by the test.' });
    const revalidated = await fetch(`${url}${PATHS.revalidate}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paths: ['/posts/1'] }) });
    assert.equal(revalidated.status, 200);
    const response = await fetch(`${url}/__purge__`, { method: 'POST', headers: { authorization: `Bearer ${PURGE_SECRET}` }, body: '{"pathnames":["/posts/1"]}' });
    assert.equal(response.status, 200);
    const stale = await rawText(url, '/posts/1');
    assert.equal(stale.headers['x-middleware-cache'], 'stale');
    assert.doesNotMatch(stale.body, /softly replaced/);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const answer = await rawText(url, '/posts/1');
      if (answer.headers['x-middleware-cache'] === 'hit' && answer.body.includes('First post, softly replaced')) break;
      assert.ok(Date.now() < deadline, `still ${answer.headers['x-middleware-cache']} after 20 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});

describe('Next.js custom server example configuration', () => {
  it('exits with status 2 and names the variable when PORT or PURGE_MODE is malformed', async () => {
    const cases = [['PORT', '80a'], ['PORT', '70000'], ['PURGE_MODE', 'sôft']] as const;
    await Promise.all(
      cases.map(async ([name, value]) => {
        const example = spawnExample(NEXT_SITE_DIR, { [name]: value });
        await once(example.child, 'exit');
        assert.equal(example.child.exitCode, 2, example.output());
        assert.match(example.output(), new RegExp(`expected ${name} to be .*, got '${value}'`));
      }),
    );
  });
});
