import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AutocompleteResponse, SearchResponse } from '../src/search/index.js';
import { sitePage, startStubSite, urlset, type StubSite } from '../src/search/test-support/site-stub.js';
import { contentBuildCommand } from '../src/server/content-build-command.js';
import { runCommand, searchOfBuild, type SearchOfBuild } from './support/search-of-build.js';

/** A small documentation site of its own, with the chrome every page repeats. */
const PAGES: Record<string, { title: string; lang?: string; body: string }> = {
  '/docs/caching': { title: 'Caching pages at the edge', body: '<h2 id="keys">Surrogate keys</h2><p>Purge by key.</p>' },
  '/docs/routing': { title: 'Routing requests', body: '<h2>Rewrites</h2><p>Send a path elsewhere.</p>' },
  '/docs/i18n': { title: '国际化路由', lang: 'zh-CN', body: '<p>国际化（i18n）路由的配置</p>' },
  '/blog/launch': { title: 'Launch notes', body: '<p>We shipped a <b>lighthouse</b> feature.</p><p data-search-ignore>Newsletter signup</p>' },
};

describe('content-build --from-site, then sitestack index, then search', () => {
  let site: StubSite;
  let dir: string;
  let index: SearchOfBuild;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitestack-search-from-site-'));
    site = await startStubSite();
    site.routes.set('/sitemap.xml', { body: urlset(Object.keys(PAGES).map((path) => `${site.url}${path}`)) });
    for (const [path, page] of Object.entries(PAGES)) {
      site.routes.set(path, { body: sitePage({ title: page.title, ...(page.lang ? { lang: page.lang } : {}), body: `<nav>Home Docs Blog</nav><main>${page.body}</main><footer>© footer</footer>` }) });
    }
    assert.equal(await runCommand(dir, contentBuildCommand, ['--from-site', site.url, '--out', join(dir, 'build'), '--rate', '1000']), 0);
    index = await searchOfBuild(dir, join(dir, 'build'));
  });
  after(async () => {
    await index?.close();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const search = (query: string): Promise<SearchResponse> => index.search(query);

  it('finds a page by a word of its title, linking to its path on the site', async () => {
    const answer = await search('q=routing');
    assert.deepEqual(answer.documents.map((doc) => doc.url), ['/docs/routing']);
    assert.equal(answer.documents[0]?.title, 'Routing requests');
  });

  it('finds a page by a word of its title typed with a typo', async () => {
    const answer = await search('q=cachng');
    assert.deepEqual(answer.documents.map((doc) => doc.url), ['/docs/caching']);
    assert.equal(answer.metadata.corrected, 'caching');
  });

  it('finds a page by its content and section titles, never by its chrome or ignored parts', async () => {
    assert.deepEqual((await search('q=lighthouse')).documents.map((doc) => doc.url), ['/blog/launch']);
    assert.deepEqual((await search('q=surrogate+keys')).documents.map((doc) => doc.url), ['/docs/caching']);
    assert.equal((await search('q=footer&exact=1')).metadata.total.value, 0);
    assert.equal((await search('q=newsletter&exact=1')).metadata.total.value, 0);
  });

  it('finds a page in its own language, the CJK text kept whole', async () => {
    const answer = await search(`q=${encodeURIComponent('路由')}&locale=zh-CN`);
    assert.deepEqual(answer.documents.map((doc) => doc.url), ['/docs/i18n']);
  });

  it('completes titles as they are typed', async () => {
    const answer = (await (await fetch(`${index.apiUrl}/api/search/autocomplete?q=lau`)).json()) as AutocompleteResponse;
    assert.deepEqual(answer.matches, [{ title: 'Launch notes', url: '/blog/launch', locale: 'en-US' }]);
  });
});
