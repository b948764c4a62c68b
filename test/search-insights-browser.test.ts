import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { silentLogger } from '../src/log.js';
import { createOriginApp, openOriginDatabase, type OriginDatabase } from '../src/origin/index.js';
import { searchInsightsRoutes } from '../src/search/index.js';
import { startSearchServer, type SearchServer } from '../src/search/test-support/search-server.js';
import { chromiumForSuite, chromiumSkip } from './support/chromium.js';
import { eventually } from './support/stack.js';

const skip = chromiumSkip('search insights in Chromium');
const SECRET = 'browser-insights-secret-0123456789';

describe('search insights from the search page in Chromium', { skip }, () => {
  const chromium = chromiumForSuite();
  let db: OriginDatabase;
  let origin: FastifyInstance;
  let search: SearchServer;

  before(async () => {
    db = openOriginDatabase(':memory:', { seed: false });
    origin = await createOriginApp({ db, logger: silentLogger(), searchInsights: { secret: SECRET, popularMinSearches: 1 } });
    const originUrl = await origin.listen({ host: '127.0.0.1', port: 0 });
    const insights = searchInsightsRoutes({ originUrl, secret: SECRET, logger: silentLogger(), flushMs: 100, popularTtlMs: 200 });
    search = await startSearchServer(
      [
        { id: 'flexbox', title: 'Flexbox', body: 'Flexbox aligns items along one axis.' },
        { id: 'grid', title: 'Grid layout', body: 'Grid and flexbox compared side by side.' },
      ],
      { page: true, plugins: [insights] },
    );
  });
  after(async () => {
    await search?.close();
    await origin?.close();
    db?.close();
  });

  const counts = () => db.prepare(`SELECT query, searches, no_results, clicks FROM search_insights ORDER BY query`).all();
  async function searchFor(page: Page, text: string): Promise<void> {
    await page.fill('#search-input', text);
    await page.press('#search-input', 'Enter');
    await page.waitForFunction((expected) => new URLSearchParams(location.search).get('q') === expected, text);
    await page.waitForFunction(() => !document.getElementById('search-app')?.hasAttribute('aria-busy') && document.getElementById('search-status')?.textContent !== '');
  }

  it('counts the last query of a burst once, with the result opened, and a zero-result search when the page is left', async () => {
    const page = await chromium.context.newPage();
    try {
      await page.goto(`${search.url}/en-US/search`);
      // A burst: three searches seconds apart, the last one's result opened.
      await searchFor(page, 'flex');
      await searchFor(page, 'grid');
      await searchFor(page, 'flexbox');
      await page.click('#search-results a.result-title');
      await eventually('the burst reaches the origin', async () => counts().length > 0, 5_000);
      assert.deepEqual(counts(), [{ query: 'flexbox', searches: 1, no_results: 0, clicks: 1 }]);
      assert.equal(db.prepare(`SELECT url FROM search_insight_opens`).pluck().get(), '/en-US/docs/flexbox');

      await page.goto(`${search.url}/en-US/search`);
      await searchFor(page, 'qwertyzz');
      await page.goto('about:blank');
      await eventually('the zero-result search reaches the origin', async () => counts().length > 1, 5_000);
      assert.deepEqual(counts()[1], { query: 'qwertyzz', searches: 1, no_results: 1, clicks: 0 });
      assert.equal((await chromium.context.cookies(search.url)).length, 0, 'no cookie');
    } finally {
      await page.close();
    }
  });

  it('offers popular queries with results as links when the search box is empty', async () => {
    await eventually('the front offers the counted query', async () => {
      const answer = (await (await fetch(`${search.url}/api/v1/search/popular`)).json()) as { queries: string[] };
      return answer.queries.includes('flexbox');
    }, 5_000);
    const page = await chromium.context.newPage();
    try {
      // A route keeps the browser's HTTP cache out: the earlier pages of this context got the list before the count.
      await page.route('**/api/v1/search/popular', (route) => route.continue());
      await page.goto(`${search.url}/en-US/search`);
      const link = page.locator('#search-suggestions a.search-popular');
      await link.first().waitFor();
      assert.deepEqual(await link.allTextContents(), ['flexbox']);
      await link.first().click();
      await page.waitForFunction(() => new URLSearchParams(location.search).get('q') === 'flexbox');
    } finally {
      await page.close();
    }
  });
});
