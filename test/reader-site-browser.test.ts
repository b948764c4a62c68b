import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumForSuite, chromiumSkip } from './support/chromium.js';
import { startReaderStack, type ReaderStack } from './support/reader-stack.js';

const skip = chromiumSkip("the reader's site in Chromium");

let stack: ReaderStack;

const box = '#site-search-input';
const options = '#site-search-listbox [role="option"]';

async function open(page: Page, path: string): Promise<void> {
  await page.goto(`${stack.frontUrl}${path}`);
  await page.waitForFunction(() => document.documentElement.dataset.navigation === 'client');
}

async function suggestionTitles(page: Page): Promise<string[]> {
  return page.locator(options).allTextContents();
}

async function searchSettled(page: Page): Promise<void> {
  // The search page itself, not the page Back leaves before it is rendered again in place.
  await page.waitForFunction(() => {
    const app = document.getElementById('search-app');
    const status = document.getElementById('search-status')?.textContent ?? '';
    return app !== null && !app.hasAttribute('aria-busy') && status !== '';
  });
}

describe("the reader's site in Chromium", { skip }, () => {
  const chromium = chromiumForSuite();
  before(async () => {
    stack = await startReaderStack({ COMMENT_RATE_LIMIT: '100/minute' });
  });
  after(async () => {
    await stack?.close();
  });

  it('suggests titles as the reader types, moves with ↑ and ↓, closes on Escape and opens the chosen page on Enter', async () => {
    const page = await chromium.context.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/search/autocomplete') asked.push(url.searchParams.get('q') ?? '');
    });
    await open(page, '/plog');
    const input = page.locator(box);
    assert.equal(await input.getAttribute('role'), 'combobox');
    assert.equal(await input.getAttribute('aria-expanded'), 'false');
    assert.equal(await input.getAttribute('aria-controls'), 'site-search-listbox');
    assert.equal(await page.getAttribute('#site-search-listbox', 'role'), 'listbox');

    await input.pressSequentially('Measuring', { delay: 15 });
    await page.waitForSelector('#site-search-listbox:not([hidden])');
    assert.deepEqual(asked, ['Measuring'], 'one request once typing pauses');
    const titles = await suggestionTitles(page);
    assert.ok(titles.length > 1 && titles.every((title) => title.startsWith('Measuring')), titles.join(', '));
    assert.equal(await input.getAttribute('aria-expanded'), 'true');
    assert.equal(await input.getAttribute('aria-activedescendant'), null);

    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await input.getAttribute('aria-activedescendant'), 'site-search-option-1');
    assert.equal(await page.getAttribute('#site-search-option-1', 'aria-selected'), 'true');
    await page.keyboard.press('ArrowUp');
    assert.equal(await input.getAttribute('aria-activedescendant'), 'site-search-option-0');
    await page.keyboard.press('ArrowUp');
    assert.equal(await input.getAttribute('aria-activedescendant'), `site-search-option-${titles.length - 1}`, '↑ from the first wraps to the last');

    await page.keyboard.press('Escape');
    assert.equal(await input.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.isHidden('#site-search-listbox'), true);
    assert.equal(await input.inputValue(), 'Measuring', 'Escape closes the list and keeps the text');

    await page.keyboard.press('ArrowDown');
    assert.equal(await input.getAttribute('aria-expanded'), 'true', '↓ opens the list again');
    await page.keyboard.press('ArrowDown');
    const chosen = await page.getAttribute('#site-search-option-1', 'data-url');
    assert.ok(chosen !== null);
    await Promise.all([page.waitForURL(`${stack.frontUrl}${chosen}`), page.keyboard.press('Enter')]);
    assert.equal(await page.locator('main h1').textContent(), titles[1]);
    await page.close();
  });

  it("offers a title when the reader types a word that is not its first, asking in the page's locale", async () => {
    const page = await chromium.context.newPage();
    const asked: { q: string | null; locale: string | null }[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/search/autocomplete') asked.push({ q: url.searchParams.get('q'), locale: url.searchParams.get('locale') });
    });
    await open(page, '/');
    await page.locator(box).pressSequentially('revers', { delay: 15 });
    await page.waitForSelector('#site-search-listbox:not([hidden])');
    const titles = await suggestionTitles(page);
    assert.ok(titles.includes('Measuring nginx as a reverse proxy'), titles.join(', '));
    assert.ok(titles.every((title) => /\breverse/i.test(title)), titles.join(', '));
    // A loaded machine can space two keystrokes past the debounce, so an earlier prefix may be asked for too.
    assert.deepEqual(asked.at(-1), { q: 'revers', locale: 'en-US' });
    assert.ok(asked.every((request) => request.locale === 'en-US' && 'revers'.startsWith(request.q ?? '-')), JSON.stringify(asked));
    await page.close();
  });

  it('searches the typed text on Enter with no option chosen, and opens an option by mouse and by touch', async () => {
    const page = await chromium.context.newPage();
    await open(page, '/');
    await page.locator(box).pressSequentially('sqlite');
    await page.waitForSelector('#site-search-listbox:not([hidden])');
    await Promise.all([page.waitForURL(/\/en-US\/search\?q=sqlite$/), page.keyboard.press('Enter')]);
    await searchSettled(page);
    assert.ok((await page.locator('#search-results li').count()) > 0);

    await open(page, '/');
    await page.locator(box).pressSequentially('Measuring');
    const option = page.locator(options).nth(2);
    await option.waitFor();
    const byMouse = await option.getAttribute('data-url');
    await Promise.all([page.waitForURL(`${stack.frontUrl}${byMouse}`), option.click()]);

    await open(page, '/');
    await page.locator(box).pressSequentially('Measuring');
    const touched = page.locator(options).nth(3);
    await touched.waitFor();
    const byTouch = await touched.getAttribute('data-url');
    const where = await touched.boundingBox();
    assert.ok(where !== null);
    const cdp = await page.context().newCDPSession(page);
    const point = [{ x: where.x + 20, y: where.y + where.height / 2 }];
    await Promise.all([
      page.waitForURL(`${stack.frontUrl}${byTouch}`),
      (async () => {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point });
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      })(),
    ]);
    await page.close();
  });

  it('never shows the suggestions of an older text when its answer arrives late', async () => {
    const page = await chromium.context.newPage();
    await page.route('**/api/search/autocomplete?*', async (route) => {
      const q = new URL(route.request().url()).searchParams.get('q');
      // The answer for the shorter text is held back until after the longer text's answer has been shown.
      if (q === 'Me') await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue().catch(() => undefined);
    });
    await open(page, '/');
    await page.locator(box).pressSequentially('Me');
    await page.waitForTimeout(300);
    await page.locator(box).pressSequentially('asuring SQ');
    await page.waitForSelector('#site-search-listbox:not([hidden])');
    assert.deepEqual(await suggestionTitles(page), ['Measuring SQLite']);
    await page.waitForTimeout(900);
    assert.deepEqual(await suggestionTitles(page), ['Measuring SQLite'], 'the late answer for "Me" changed nothing');
    await page.close();
  });

  it('restores the search box and results on Back after a result was opened, in place or by a page load', async () => {
    const page = await chromium.context.newPage();
    await open(page, '/en-US/search?q=measuring&sort=relevance');
    await searchSettled(page);
    const results = await page.locator('#search-results .result-title').allTextContents();
    assert.ok(results.length > 0);
    const first = page.locator('#search-results .result-title').first();
    await first.click();
    await page.waitForFunction((title) => document.querySelector('main h1')?.textContent === title, results[0]);
    await page.goBack();
    await searchSettled(page);
    assert.equal(await page.inputValue('#search-input'), 'measuring');
    assert.equal(await page.inputValue('#search-sort'), 'relevance');
    assert.deepEqual(await page.locator('#search-results .result-title').allTextContents(), results);

    const href = (await page.locator('#search-results .result-title').nth(1).getAttribute('href')) ?? '';
    await page.goto(`${stack.frontUrl}${href}`);
    await page.goBack();
    await searchSettled(page);
    assert.equal(await page.inputValue('#search-input'), 'measuring');
    assert.deepEqual(await page.locator('#search-results .result-title').allTextContents(), results);
    await page.goForward();
    assert.equal(new URL(page.url()).pathname, href);
    await page.close();
  });

  it('pages through results with real Previous, Next and number links, numbering them across pages, and says when a page is past the end', async () => {
    const page = await chromium.context.newPage();
    await open(page, '/en-US/search?q=measuring');
    await searchSettled(page);
    assert.equal(await page.locator('#search-results li').count(), 10);
    assert.equal(await page.getAttribute('#search-results', 'start'), '1');
    assert.equal(await page.locator('#search-pages a.page-prev').count(), 0);
    const next = page.locator('#search-pages a.page-next');
    assert.equal(await next.getAttribute('href'), '/en-US/search?q=measuring&page=2');
    await next.click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('page') === '2');
    await searchSettled(page);
    assert.equal(await page.getAttribute('#search-results', 'start'), '11', 'page 2 goes on from 11');
    assert.equal(await page.locator('#search-pages [aria-current="page"]').textContent(), '2');
    assert.equal(await page.getAttribute('#search-pages a.page-prev', 'href'), '/en-US/search?q=measuring', 'page 1 is the plain query');
    const secondPage = await page.locator('#search-results .result-title').allTextContents();
    await page.goBack();
    await searchSettled(page);
    assert.equal(await page.getAttribute('#search-results', 'start'), '1');
    await page.goForward();
    await searchSettled(page);
    assert.deepEqual(await page.locator('#search-results .result-title').allTextContents(), secondPage);

    await open(page, '/en-US/search?q=measuring&page=7');
    await searchSettled(page);
    assert.equal(await page.locator('#search-results li').count(), 0);
    const note = page.locator('.search-past-end');
    assert.match((await note.textContent()) ?? '', /^Page 7 is past the end of the results: there are 2 pages\./);
    await note.locator('a').click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('page') === '2');
    await searchSettled(page);
    assert.deepEqual(await page.locator('#search-results .result-title').allTextContents(), secondPage);
    await page.close();
  });
});
