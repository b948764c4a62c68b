import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SURROGATE_KEY_HEADER } from '@sitestack/page-cache';
import { surrogateKey } from '../surrogate-keys.js';
import { createRenderer } from './handler.js';
import { CACHED_KINDS, cachingOf, type CachedKind } from './pages/caching.js';
import type { ContentChange, FileRoute } from './pages/kinds.js';
import { purgeTargets } from './pages/purge.js';
import { dataUrl, matchPage, type PageRoute } from './routes.js';
import { LIST_ANSWER, POST_ANSWER } from './test-support/origin-answers.js';

/*
 * Every route the site serves, each with its surrogate keys, what purges it and whether the sitemap lists it. The
 * kinds of the page registry take all three from their entry, and the renderer's answers are checked to carry them;
 * the other routes state theirs here, and the answers are checked to carry no key.
 */

const BUILD_ID = 'registrybuild';
const POST_CHANGE: ContentChange = { what: 'post', oid: 'second-post', categories: ['notes'] };
const COMMENT_CHANGE: ContentChange = { what: 'comments', oid: 'second-post', categories: ['notes'] };

/** A route of a registry kind: its path, and which of the two changes above purge it. */
interface RegistryRoute {
  path: string;
  kind: CachedKind;
  purgedByPost: boolean;
  purgedByComments: boolean;
}

const REGISTRY_ROUTES: RegistryRoute[] = [
  { path: '/', kind: 'home', purgedByPost: true, purgedByComments: true },
  { path: '/plog', kind: 'archive', purgedByPost: true, purgedByComments: true },
  { path: '/plog/second-post', kind: 'post', purgedByPost: true, purgedByComments: true },
  { path: '/plog/category/notes', kind: 'category', purgedByPost: true, purgedByComments: true },
  { path: '/en-US/search', kind: 'search', purgedByPost: false, purgedByComments: false },
  { path: '/about', kind: 'about', purgedByPost: false, purgedByComments: false },
  { path: '/feed.xml', kind: 'feed', purgedByPost: true, purgedByComments: false },
  { path: '/sitemap.xml', kind: 'sitemap', purgedByPost: true, purgedByComments: false },
];

/** The routes outside the registry, with the decisions they take instead: none of them shows the origin's content. */
const OTHER_ROUTES = [
  { path: '/robots.txt', renderer: true, keys: 'none, fixed text', purge: 'it changes only with the configuration', sitemap: 'not a page' },
  { path: '/favicon.ico', renderer: true, keys: 'none, fixed bytes', purge: 'built into the renderer', sitemap: 'not a page' },
  { path: `/_render/static/${BUILD_ID}/client.js`, renderer: true, keys: 'none, immutable', purge: 'a new build has a new URL', sitemap: 'a script' },
  { path: '/plog/second-post/comments', renderer: false, keys: 'none, never cached', purge: 'never cached', sitemap: 'a form target' },
  { path: '/api/search/autocomplete', renderer: false, keys: 'none, the API is not behind the page cache', purge: 'not cached', sitemap: 'an API' },
  { path: '/__cache__/stats', renderer: false, keys: 'none, an operations endpoint', purge: 'not cached', sitemap: 'an operations endpoint' },
  { path: '/__purge__', renderer: false, keys: 'none, the purge route itself', purge: 'not cached', sitemap: 'an operations endpoint' },
] as const;

const PAGES = LIST_ANSWER.groups.flatMap((group) => group.posts);

/** The origin's answers for the routes above: the list (whole or one category's) and any post. */
const originFetch: typeof fetch = (input) => {
  const url = new URL(String(input));
  const category = url.searchParams.get('category');
  const answer =
    url.pathname === '/api/v1/plog/'
      ? category === null
        ? LIST_ANSWER
        : { groups: [{ date: '2026.02', posts: PAGES.filter((post) => post.categories.includes(category)) }] }
      : { ...POST_ANSWER, post: { ...POST_ANSWER.post, oid: decodeURIComponent(url.pathname.slice('/api/v1/plog/'.length)) } };
  return Promise.resolve(new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } }));
};

let server: Server;
let base: string;

before(async () => {
  const script = Buffer.from('/* client */');
  const build = { buildId: BUILD_ID, script: 'client.js', files: new Map([['client.js', script]]), encoded: { br: script, gzip: script } };
  server = createServer(createRenderer({ apiBase: 'http://origin.test', build, fetch: originFetch }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

async function keysAt(path: string): Promise<{ status: number; keys: string[]; cacheControl: string | null }> {
  const response = await fetch(`${base}${path}`);
  await response.arrayBuffer();
  return { status: response.status, keys: response.headers.get(SURROGATE_KEY_HEADER)?.split(' ') ?? [], cacheControl: response.headers.get('cache-control') };
}

/** The route of a path as the registry names it: a page's from routing, a file's by its kind. */
function routeOf(entry: RegistryRoute): PageRoute | FileRoute {
  if (entry.kind === 'feed' || entry.kind === 'sitemap') return { kind: entry.kind };
  const route = matchPage(entry.path, ['en-US']);
  assert.ok(route !== undefined, `${entry.path} is a page`);
  return route;
}

const ownKeyOf = (route: PageRoute | FileRoute) => surrogateKey(cachingOf(route.kind).key(route));

describe('the page registry', () => {
  it('holds no kind this test leaves out, so a new kind cannot skip the checks below, when a kind is added', () => {
    assert.deepEqual(new Set(REGISTRY_ROUTES.map((entry) => entry.kind)), new Set(CACHED_KINDS));
  });

  for (const entry of REGISTRY_ROUTES) {
    describe(entry.path, () => {
      it('answers with its own key first, on the page and on its data route, when the renderer serves it', async () => {
        const route = routeOf(entry);
        assert.equal(route.kind, entry.kind);
        const own = ownKeyOf(route);
        const page = await keysAt(entry.path);
        assert.equal(page.status, 200);
        assert.equal(page.keys[0], own);
        if (route.kind === 'feed' || route.kind === 'sitemap') return;
        const data = await keysAt(dataUrl(BUILD_ID, route));
        assert.deepEqual(data.keys, page.keys, 'a data route carries the keys of its page');
      });

      it('is purged by the changes that alter it and by no other when a post or its comments change', () => {
        assert.equal(purgeTargets(POST_CHANGE).pathnames.includes(entry.path), entry.purgedByPost, 'a post change');
        assert.equal(purgeTargets(COMMENT_CHANGE).pathnames.includes(entry.path), entry.purgedByComments, 'a comment change');
        const own = ownKeyOf(routeOf(entry));
        assert.equal(purgeTargets(POST_CHANGE).keys.includes(own), entry.purgedByPost, 'the purge names its key when it names its path');
      });

      it('is in the sitemap exactly when its entry lists it', async () => {
        const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
        const decision = cachingOf(entry.kind).sitemap;
        assert.equal(sitemap.includes(`<loc>${base}${entry.path}</loc>`), decision.listed);
        if (!decision.listed) assert.notEqual(decision.because, '');
      });
    });
  }

  it('lists every post in the sitemap when the origin has several', async () => {
    const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
    for (const post of PAGES) assert.ok(sitemap.includes(`<loc>${base}/plog/${post.oid}</loc>`), post.oid);
  });
});

describe('the routes outside the page registry', () => {
  for (const route of OTHER_ROUTES) {
    it(`${route.path} has no key (${route.keys}), no purge (${route.purge}) and no sitemap entry (${route.sitemap}) when served`, async () => {
      assert.equal(matchPage(route.path, ['en-US']), undefined, 'no page kind claims it');
      assert.ok(!purgeTargets(POST_CHANGE).pathnames.includes(route.path));
      const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
      assert.ok(!sitemap.includes(`${base}${route.path}<`));
      if (!route.renderer) return;
      const answer = await keysAt(route.path);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.keys, []);
    });
  }

  it('answers a 404 that no cache keeps when no route claims the path', async () => {
    const answer = await keysAt('/no-such-page');
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.keys, []);
    assert.equal(answer.cacheControl, 'no-store');
  });
});
