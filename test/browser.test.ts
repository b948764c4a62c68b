import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumForSuite, chromiumSkip } from './support/chromium.js';
import { startStack, type Stack } from './support/stack.js';

const skip = chromiumSkip('browser tests');

let stack: Stack;

async function openHome(context: BrowserContext): Promise<{ page: Page; dataRequests: string[] }> {
  const page = await context.newPage();
  const dataRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/_render/data/')) dataRequests.push(request.url());
  });
  await page.goto(`${stack.frontUrl}/`);
  await page.waitForFunction(() => document.documentElement.dataset.navigation === 'client');
  await page.evaluate(() => {
    (window as unknown as { __marker: string }).__marker = 'same document';
  });
  return { page, dataRequests };
}

const firstPostLink = 'main .post-list a[href^="/plog/"]';

describe('client navigation in Chromium', { skip }, () => {
  const chromium = chromiumForSuite();
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.close();
  });

  it('renders a post in place with one data-route request when a home link is clicked', async () => {
    const { page, dataRequests } = await openHome(chromium.context);
    const link = page.locator(firstPostLink).first();
    const href = (await link.getAttribute('href')) ?? '';
    const title = (await link.textContent()) ?? '';
    await link.click();
    await page.waitForFunction((expected) => document.querySelector('main h1')?.textContent === expected, title);
    assert.equal(new URL(page.url()).pathname, href);
    assert.equal(await page.evaluate(() => (window as unknown as { __marker?: string }).__marker), 'same document');
    assert.deepEqual(dataRequests.map((url) => new URL(url).pathname), [`/_render/data/${stack.front.buildId}/en-US${href}.json`]);
    assert.equal(await page.title(), `${title} · sitestack plog`);
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Latest posts');
    assert.equal(await page.evaluate(() => (window as unknown as { __marker?: string }).__marker), 'same document');
    await page.close();
  });

  it('renders a category page in place, its name percent-encoded, when a category link of a listing is clicked', async () => {
    const { page, dataRequests } = await openHome(chromium.context);
    const link = page.locator('main .post-list .categories a[href="/plog/category/Node.js"]').first();
    await link.click();
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Posts in Node.js');
    assert.equal(new URL(page.url()).pathname, '/plog/category/Node.js');
    assert.equal(await page.evaluate(() => (window as unknown as { __marker?: string }).__marker), 'same document');
    assert.deepEqual(dataRequests.map((url) => new URL(url).pathname), [`/_render/data/${stack.front.buildId}/en-US/plog/category/Node.js.json`]);
    assert.equal(await page.title(), 'Posts in Node.js · sitestack plog');
    const listed = await page.locator('main .post-list .post-line').count();
    assert.ok(listed > 0);
    await page.close();
  });

  it('falls back to a full page load when the build id changed under an open page', async () => {
    const { page, dataRequests } = await openHome(chromium.context);
    const oldBuild = stack.front.buildId;
    await stack.stopFront();
    const front = await stack.startFront({ clientBuild: { banner: 'release 2' } });
    assert.notEqual(front.buildId, oldBuild);
    // Another post than the first test's: the browser's own HTTP cache may still hold that one's data route.
    const link = page.locator(firstPostLink).nth(1);
    const href = (await link.getAttribute('href')) ?? '';
    await Promise.all([page.waitForEvent('load'), link.click()]);
    await page.waitForLoadState('networkidle');
    assert.equal(new URL(page.url()).pathname, href);
    assert.equal(await page.evaluate(() => (window as unknown as { __marker?: string }).__marker), undefined);
    assert.deepEqual(dataRequests.map((url) => new URL(url).pathname), [`/_render/data/${oldBuild}/en-US${href}.json`]);
    const bootstrap = await page.evaluate(() => JSON.parse(document.getElementById('__SITESTACK_DATA__')?.textContent ?? '{}') as { buildId: string });
    assert.equal(bootstrap.buildId, front.buildId);
    await page.close();
  });
});
