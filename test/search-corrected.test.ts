import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import type { Page } from 'playwright-core';
import { silentLogger } from '../src/log.js';
import { installErrorMapper } from '../src/http/index.js';
import { searchRoutes } from '../src/search/api/routes.js';
import type { SearchEngine, SearchHit, SearchQuery, SearchResult, Suggestion } from '../src/search/engines/types.js';
import { searchPageRoutes } from '../src/search/page/routes.js';
import { chromiumForSuite, chromiumSkip } from './support/chromium.js';

const skip = chromiumSkip('corrected search page browser tests');

const HITS: SearchHit[] = [
  { id: 'flexbox', url: '/en-US/docs/flexbox', title: 'Flexbox', summary: 'One axis.', locale: 'en-US', slug: 'docs/flexbox', popularity: 0.3, score: 5 },
  { id: 'flexbox-grid', url: '/en-US/docs/flexbox-grid', title: 'Flexbox and grid', summary: 'Both.', locale: 'en-US', slug: 'docs/flexbox-grid', popularity: 0.1, score: 3 },
];

/** Misspelt words (whole words, lower case) and what the stub engine searches instead. */
const MISSPELLINGS: Record<string, string> = {
  flexbx: 'flexbox',
  '<script>flexbx': '<img/src=x/onerror=window.pwned=1>',
};

/**
 * An engine that corrects the words of MISSPELLINGS unless asked `corrections: false`, answering `corrected` when it
 * did; a hit matches when its title holds every searched word. It suggests "flexbox" for "flexbx".
 */
function correctingEngine(): SearchEngine & { searches: SearchQuery[] } {
  const searches: SearchQuery[] = [];
  const unused = async (): Promise<never> => {
    throw new Error('not used by the search page');
  };
  return {
    searches,
    async search(query): Promise<SearchResult> {
      searches.push(query);
      const typed = query.text.split(/\s+/).filter((word) => word !== '');
      const words = query.corrections === false ? typed : typed.map((word) => MISSPELLINGS[word.toLowerCase()] ?? word);
      const documents = HITS.filter((hit) => words.every((word) => hit.title.toLowerCase().split(' ').includes(word.toLowerCase())));
      const result: SearchResult = { documents, total: { value: documents.length, relation: 'eq' } };
      if (words.some((word, i) => word !== typed[i])) result.corrected = words.join(' ');
      return result;
    },
    async suggest(query): Promise<Suggestion[]> {
      return query.text === 'flexbx' ? [{ text: 'flexbox', total: 2, relation: 'eq' }] : [];
    },
    async health() {
      return 'green';
    },
    async count() {
      return 0;
    },
    async autocomplete() {
      return [];
    },
    async close() {},
    createIndex: unused,
    bulk: unused,
    deleteDocuments: unused,
    refresh: unused,
    updateAliases: unused,
    listIndices: unused,
    deleteIndex: unused,
    forceMerge: unused,
  };
}

const resultTitles = (page: Page) => page.locator('#search-results .result-title').allTextContents();
const line = (page: Page) => page.locator('#search-suggestions').textContent();
const q = (page: Page) => page.evaluate(() => new URLSearchParams(location.search).get('q'));

async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.getElementById('search-app')?.hasAttribute('aria-busy') && document.getElementById('search-status')?.textContent !== '');
}

describe('corrected searches on the search page in Chromium', { skip }, () => {
  const engine = correctingEngine();
  const app = Fastify({ logger: false });
  let url = '';
  const chromium = chromiumForSuite();
  before(async () => {
    const logger = silentLogger();
    installErrorMapper(app, logger);
    await app.register(searchRoutes({ engine, logger, rateLimit: { max: 100_000, windowMs: 60_000 } }));
    await app.register(searchPageRoutes());
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await app.close();
  });

  async function openPage(path: string): Promise<Page> {
    const page = await chromium.context.newPage();
    page.on('dialog', (dialog) => assert.fail(`unexpected dialog: ${dialog.message()}`));
    await page.goto(`${url}${path}`);
    await settled(page);
    return page;
  }

  it('shows "Showing results for … — search instead for …" and follows "search instead" to the exact search', async () => {
    const page = await openPage('/en-US/search?q=flexbx&sort=popularity');
    assert.equal(await line(page), 'Showing results for flexbox — search instead for flexbx');
    assert.deepEqual(await resultTitles(page), ['Flexbox', 'Flexbox and grid']);
    assert.match((await page.locator('#search-status').textContent()) ?? '', /^2 results for “flexbox”/);
    assert.equal(await page.inputValue('#search-input'), 'flexbx', 'the box keeps what was typed');
    assert.equal(engine.searches.at(-1)?.corrections, true);
    const corrected = page.locator('#search-suggestions a', { hasText: 'flexbox' });
    const asTyped = page.locator('#search-suggestions a', { hasText: 'flexbx' });
    assert.equal(await corrected.getAttribute('href'), '/en-US/search?q=flexbox&sort=popularity');
    assert.equal(await asTyped.getAttribute('href'), '/en-US/search?q=flexbx&sort=popularity&exact=1');

    await asTyped.click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('exact') === '1');
    await settled(page);
    assert.equal(await q(page), 'flexbx');
    assert.deepEqual(await resultTitles(page), []);
    assert.equal(await line(page), 'Did you mean flexbox (2)?', 'no correction line; the query as typed gets its suggestions');
    assert.equal(engine.searches.at(-1)?.corrections, false, 'the engine is asked without corrections');
    assert.equal(engine.searches.at(-1)?.text, 'flexbx');
    assert.equal(await page.inputValue('#search-sort'), 'popularity', 'the sort is kept');

    await page.goBack();
    await page.waitForFunction(() => !new URLSearchParams(location.search).has('exact'));
    await settled(page);
    assert.equal(await line(page), 'Showing results for flexbox — search instead for flexbx', 'back shows the corrected answer again');

    await page.locator('#search-suggestions a', { hasText: 'flexbox' }).click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('q') === 'flexbox');
    await settled(page);
    assert.equal(await line(page), '', 'the search of the corrected text is not itself corrected');
    assert.deepEqual(await resultTitles(page), ['Flexbox', 'Flexbox and grid']);
    assert.equal(engine.searches.at(-1)?.corrections, true);
    await page.close();
  });

  it('gives links that work as plain URLs: "search instead" loaded directly is the exact search', async () => {
    const page = await openPage('/en-US/search?q=flexbx');
    const href = await page.locator('#search-suggestions a', { hasText: 'flexbx' }).getAttribute('href');
    assert.equal(href, '/en-US/search?q=flexbx&exact=1');
    await page.goto(`${url}${href}`);
    await settled(page);
    assert.doesNotMatch((await line(page)) ?? '', /Showing results for/);
    assert.equal(engine.searches.at(-1)?.corrections, false);
    await page.close();
  });

  it('shows a corrected text and a query holding markup as text and runs nothing', async () => {
    const page = await openPage(`/en-US/search?q=${encodeURIComponent('<script>flexbx')}`);
    assert.equal(await line(page), 'Showing results for <img/src=x/onerror=window.pwned=1> — search instead for <script>flexbx');
    assert.equal(await page.locator('#search-suggestions script, #search-suggestions img').count(), 0);
    assert.deepEqual(await page.locator('#search-suggestions a').allTextContents(), ['<img/src=x/onerror=window.pwned=1>', '<script>flexbx']);
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    await page.close();
  });

  it('shows no correction line when the engine matched the words as typed', async () => {
    const page = await openPage('/en-US/search?q=flexbox');
    assert.deepEqual(await resultTitles(page), ['Flexbox', 'Flexbox and grid']);
    assert.equal(await line(page), '');
    assert.match((await page.locator('#search-status').textContent()) ?? '', /^2 results for “flexbox”/);
    await page.close();
  });
});
