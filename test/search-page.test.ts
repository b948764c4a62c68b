import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startSearchServer, type DocSpec, type SearchServer } from '../src/search/test-support/search-server.js';
import { chromiumForSuite, chromiumSkip } from './support/chromium.js';

const skip = chromiumSkip('search page browser tests');

const DOCS: DocSpec[] = [
  { id: 'sw', title: 'Offline pages', body: 'A service worker caches responses for offline use.' },
  { id: 'flexbox', title: 'Flexbox', body: 'Flexbox aligns items along one axis.', popularity: 0.3 },
  { id: 'grid', title: 'Grid layout', body: 'Grid and flexbox compared side by side.' },
  { id: 'fetch-fr', title: 'Utiliser Fetch', body: 'La méthode fetch renvoie une promesse.', locale: 'fr' },
  { id: 'xss', title: '<script>window.pwned = 1</script> element <img src=x onerror="window.pwned = 2">', body: 'The <script> element runs code.' },
  ...Array.from({ length: 12 }, (_, i): DocSpec => ({ id: `zebra${i}`, title: `Zebra stripes ${i}`, body: 'zebra', popularity: i / 100 })),
];

let server: SearchServer;

async function openPage(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  page.on('dialog', (dialog) => assert.fail(`unexpected dialog: ${dialog.message()}`));
  await page.goto(`${server.url}${path}`);
  return page;
}

const resultTitles = (page: Page) => page.locator('#search-results .result-title').allTextContents();
const status = (page: Page) => page.locator('#search-status').textContent();

async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.getElementById('search-app')?.hasAttribute('aria-busy') && document.getElementById('search-status')?.textContent !== '');
}

async function typeQuery(page: Page, text: string): Promise<void> {
  await page.fill('#search-input', text);
  await page.press('#search-input', 'Enter');
  await page.waitForFunction((expected) => new URLSearchParams(location.search).get('q') === expected, text);
  await settled(page);
}

describe('search page in Chromium', { skip }, () => {
  const chromium = chromiumForSuite();
  before(async () => {
    server = await startSearchServer(DOCS, { page: true });
  });
  after(async () => {
    await server?.close();
  });

  it('shows marked results for a typed query, the results of a corrected typo, follows "search instead" and "did you mean", and restores earlier results on back', async () => {
    const page = await openPage(chromium.context, '/en-US/search');
    await typeQuery(page, 'service worker');
    assert.deepEqual(await resultTitles(page), ['Offline pages']);
    assert.deepEqual(await page.locator('#search-results mark').allTextContents(), ['service worker']);
    assert.match((await status(page)) ?? '', /^1 result for “service worker”/);

    await typeQuery(page, 'flexbx');
    assert.deepEqual(await resultTitles(page), ['Flexbox', 'Grid layout'], 'a typo is answered with the pages of its nearest word');
    assert.equal(await page.locator('#search-suggestions').textContent(), 'Showing results for flexbox — search instead for flexbx');
    assert.deepEqual(await page.locator('#search-results .result-title mark').allTextContents(), ['Flexbox']);
    await page.locator('#search-suggestions a.search-as-typed').click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('exact') === '1');
    await settled(page);
    assert.deepEqual(await resultTitles(page), []);
    const suggestion = page.locator('#search-suggestions a');
    assert.equal(await suggestion.textContent(), 'flexbox');
    await suggestion.click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('q') === 'flexbox');
    await settled(page);
    assert.deepEqual(await resultTitles(page), ['Flexbox', 'Grid layout']);
    assert.deepEqual(await page.locator('#search-results .result-title mark').allTextContents(), ['Flexbox']);

    await page.goBack();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('exact') === '1');
    await settled(page);
    assert.equal(await page.inputValue('#search-input'), 'flexbx');
    assert.equal(await page.locator('#search-suggestions a').textContent(), 'flexbox');

    await page.goBack();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('q') === 'flexbx' && !new URLSearchParams(location.search).has('exact'));
    await settled(page);
    assert.deepEqual(await resultTitles(page), ['Flexbox', 'Grid layout']);

    await page.goBack();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('q') === 'service worker');
    await settled(page);
    assert.deepEqual(await resultTitles(page), ['Offline pages']);
    assert.equal(await page.inputValue('#search-input'), 'service worker');
    await page.close();
  });

  it('shows the results of a results URL loaded directly and after a reload, with the page locale and the sort', async () => {
    const page = await openPage(chromium.context, '/en-US/search?q=zebra&sort=popularity&page=2');
    await settled(page);
    assert.deepEqual(await resultTitles(page), ['Zebra stripes 1', 'Zebra stripes 0']);
    assert.equal(await page.inputValue('#search-sort'), 'popularity');
    assert.equal(await page.locator('#search-pages [aria-current="page"]').textContent(), '2');
    await page.reload();
    await settled(page);
    assert.deepEqual(await resultTitles(page), ['Zebra stripes 1', 'Zebra stripes 0']);
    await page.locator('#search-pages a', { hasText: '1' }).click();
    await page.waitForFunction(() => !new URLSearchParams(location.search).has('page'), undefined, { timeout: 5000 });
    await settled(page);
    assert.equal((await resultTitles(page)).length, 10);

    await page.goto(`${server.url}/fr/search?q=fetch`);
    await settled(page);
    assert.deepEqual(await resultTitles(page), ['Utiliser Fetch'], 'the page locale is added to the API call');
    await page.close();
  });

  it('shows a document and a query holding <script> as text and runs nothing', async () => {
    const page = await openPage(chromium.context, `/en-US/search?q=${encodeURIComponent('<script> element')}`);
    await settled(page);
    assert.deepEqual(await resultTitles(page), ['<script>window.pwned = 1</script> element <img src=x onerror="window.pwned = 2">']);
    assert.equal(await page.locator('#search-results script, #search-results img').count(), 0);
    assert.match((await status(page)) ?? '', /for “<script> element”/);
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    await page.close();
  });

  it('shows the 400 messages of an invalid request', async () => {
    const page = await openPage(chromium.context, '/en-US/search?q=zebra&size=1000&sort=loud');
    await settled(page);
    assert.equal(await page.getAttribute('#search-status', 'class'), 'error');
    const text = (await status(page)) ?? '';
    assert.match(text, /size must be from 1 to 100/);
    assert.match(text, /sort must be one of best, relevance, popularity/);
    await page.close();
  });
});

describe('search page notes in Chromium', { skip }, () => {
  let limited: SearchServer;
  let broken: SearchServer;
  let many: SearchServer;
  const chromium = chromiumForSuite();
  before(async () => {
    limited = await startSearchServer(DOCS, { page: true, rateLimit: { max: 1, windowMs: 60_000 } });
    broken = await startSearchServer(undefined, { page: true });
    many = await startSearchServer(Array.from({ length: 120 }, (_, i): DocSpec => ({ id: `heron${i}`, title: `Heron ${i}`, body: 'heron' })), { page: true });
  });
  after(async () => {
    await limited?.close();
    await broken?.close();
    await many?.close();
  });

  it('shows a rate-limit note with the wait on 429 and a server-error note on 5xx', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${limited.url}/en-US/search?q=zebra`);
    await settled(page);
    assert.equal((await resultTitles(page)).length, 10);
    await page.goto(`${limited.url}/en-US/search?q=stripes`);
    await settled(page);
    assert.match((await status(page)) ?? '', /Too many searches from your address\. Please try again in \d+ seconds\./);
    await page.goto(`${broken.url}/en-US/search?q=zebra`);
    await settled(page);
    assert.match((await status(page)) ?? '', /Search is unavailable right now \(error 503\)/);
    await page.close();
  });

  it('shows a suggestion counted past its cap as "20+"', async () => {
    const page = await chromium.context.newPage();
    // exact=1: the query as typed, which an engine correcting misspelt words would otherwise answer for "heron".
    await page.goto(`${many.url}/en-US/search?q=hreon&exact=1`);
    await settled(page);
    assert.equal(await page.locator('#search-suggestions').textContent(), 'Did you mean heron (20+)?');
    await page.close();
  });
});
