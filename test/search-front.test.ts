import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { SqliteEngine, sqlitePathFromUrl } from '../src/search/engines/sqlite/engine.js';
import { indexedDocument } from '../src/search/test-support/search-server.js';
import { chromiumSkip, launchChromium, type Chromium } from './support/chromium.js';
import { startStack, type Stack } from './support/stack.js';

const skip = chromiumSkip('the search page through the front in Chromium');

/** The front with its search routes over an index built the indexer's way into the stack's DATA_DIR. */
describe('search through the front', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
    const engine = new SqliteEngine({ path: sqlitePathFromUrl(stack.config.searchUrl) });
    const index = `${stack.config.searchPrefix}_20260101000000`;
    await engine.createIndex(index);
    await engine.bulk(index, [
      indexedDocument({ id: 'flexbox', title: 'Flexbox', body: 'Flexbox aligns items along one axis.', popularity: 0.5 }),
      indexedDocument({ id: 'grid', title: 'Grid layout', body: 'Grid and flexbox compared.' }),
      indexedDocument({ id: 'xss', title: '<script>window.pwned = 1</script> element', body: 'The <script> element.' }),
    ]);
    await engine.refresh(index);
    await engine.forceMerge(index);
    await engine.updateAliases([{ add: { index, alias: stack.config.searchPrefix } }]);
    await engine.close();
  });
  after(async () => {
    await stack?.close();
  });

  it('answers /api/v1/search and /api/search/autocomplete under /api/ with their cache headers and error shapes', async () => {
    const search = await fetch(`${stack.frontUrl}/api/v1/search?q=flexbox`);
    assert.equal(search.status, 200);
    assert.equal(search.headers.get('cache-control'), 'public, max-age=10, s-maxage=1');
    assert.equal(search.headers.get('ratelimit-remaining'), null, 'a shared answer tells no client its count');
    const body = (await search.json()) as { documents: { url: string; highlight: { title: string[] } }[] };
    assert.deepEqual(body.documents.map((doc) => doc.url), ['/en-US/docs/flexbox', '/en-US/docs/grid']);
    assert.deepEqual(body.documents[0]?.highlight.title, ['<mark>Flexbox</mark>']);
    const invalid = await fetch(`${stack.frontUrl}/api/v1/search?q=a&q=b`);
    assert.equal(invalid.status, 400);
    assert.deepEqual(await invalid.json(), {
      error: 'invalid query: q may be given once',
      code: 'INVALID_QUERY',
      errors: { q: [{ message: 'q may be given once', code: 'repeated' }] },
    });
    const autocomplete = await fetch(`${stack.frontUrl}/api/search/autocomplete?q=Fle`);
    assert.equal(autocomplete.headers.get('cache-control'), 'public, max-age=3600, s-maxage=1');
    assert.deepEqual(await autocomplete.json(), { q: 'Fle', matches: [{ title: 'Flexbox', url: '/en-US/docs/flexbox', locale: 'en-US' }] });
  });

  it('serves the search page shell for every query string with the same markup', async () => {
    const first = await (await fetch(`${stack.frontUrl}/en-US/search?q=flexbox`)).text();
    const second = await (await fetch(`${stack.frontUrl}/en-US/search?q=${encodeURIComponent('<script>')}`)).text();
    for (const html of [first, second]) {
      for (const id of ['search-app', 'search-form', 'search-input', 'search-sort', 'search-status', 'search-suggestions', 'search-results', 'search-pages']) {
        assert.match(html, new RegExp(`id="${id}"`));
      }
      assert.doesNotMatch(html, /&lt;script&gt;|<script>window/);
    }
  });

  describe('in Chromium', { skip }, () => {
    let context: BrowserContext;
    let browser: Chromium | undefined;
    before(async () => {
      browser = await launchChromium();
      context = browser.context;
    });
    after(async () => {
      await browser?.close();
    });

    it('types a query, shows marked results, follows "did you mean" and goes back on the rendered page', async () => {
      const page = await context.newPage();
      page.on('dialog', (dialog) => assert.fail(`unexpected dialog: ${dialog.message()}`));
      const settled = () =>
        page.waitForFunction(() => !document.getElementById('search-app')?.hasAttribute('aria-busy') && document.getElementById('search-status')?.textContent !== '');
      await page.goto(`${stack.frontUrl}/en-US/search`);
      await page.fill('#search-input', 'flexbx');
      await page.press('#search-input', 'Enter');
      await page.waitForFunction(() => new URLSearchParams(location.search).get('q') === 'flexbx');
      await settled();
      assert.deepEqual(await page.locator('#search-results .result-title').allTextContents(), ['Flexbox', 'Grid layout'], 'the typo is corrected');
      assert.equal(await page.locator('#search-suggestions').textContent(), 'Showing results for flexbox — search instead for flexbx');
      await page.locator('#search-suggestions a.search-as-typed').click();
      await page.waitForFunction(() => new URLSearchParams(location.search).get('exact') === '1');
      await settled();
      await page.locator('#search-suggestions a').click();
      await page.waitForFunction(() => new URLSearchParams(location.search).get('q') === 'flexbox');
      await settled();
      assert.deepEqual(await page.locator('#search-results .result-title').allTextContents(), ['Flexbox', 'Grid layout']);
      assert.deepEqual(await page.locator('#search-results mark').allTextContents(), ['Flexbox', 'Flexbox', 'flexbox'], 'the title and body of Flexbox, the body of Grid layout');
      await page.goBack();
      await page.waitForFunction(() => new URLSearchParams(location.search).get('exact') === '1');
      await settled();
      assert.equal(await page.locator('#search-suggestions a').textContent(), 'flexbox');

      await page.goto(`${stack.frontUrl}/en-US/search?q=${encodeURIComponent('<script> element')}`);
      await settled();
      assert.deepEqual(await page.locator('#search-results .result-title').allTextContents(), ['<script>window.pwned = 1</script> element']);
      assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
      await page.close();
    });
  });
});
