import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startSearchServer, type SearchServer } from '../src/search/test-support/search-server.js';
import { chromiumForSuite, chromiumSkip } from './support/chromium.js';
import { startReaderStack, type ReaderStack } from './support/reader-stack.js';
import { adminAt, eventually } from './support/stack.js';

const skip = chromiumSkip('Chinese search in Chromium');

async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.getElementById('search-app')?.hasAttribute('aria-busy') && document.getElementById('search-status')?.textContent !== '');
}

describe('the search page in Chromium, in Chinese', { skip }, () => {
  const chromium = chromiumForSuite();
  let server: SearchServer;
  before(async () => {
    server = await startSearchServer(
      [
        { id: 'routing', title: '国际化（i18n）路由', body: '配置国际化路由的方法。', locale: 'zh-CN', popularity: 0.1 },
        { id: 'compat', title: '浏览器兼容性', body: '各浏览器的支持情况。', locale: 'zh-CN', popularity: 0.9 },
        { id: 'english', title: 'Internationalized routing', body: 'Routing by locale.', popularity: 0.9 },
      ],
      { page: true },
    );
  });
  after(async () => {
    await server?.close();
  });

  it('finds the page whose Chinese title holds the typed word and marks exactly that word', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${server.url}/zh-CN/search`);
    await page.fill('#search-input', '国际');
    await page.press('#search-input', 'Enter');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('q') === '国际');
    await settled(page);
    assert.deepEqual(await page.locator('#search-results .result-title').allTextContents(), ['国际化（i18n）路由']);
    assert.deepEqual(await page.locator('#search-results .result-title mark').allTextContents(), ['国际']);
    assert.ok((await page.locator('#search-results mark').allTextContents()).every((marked) => marked === '国际'), 'no other text is marked');
    await page.close();
  });
});

describe("the reader's search box in Chromium, on a Chinese title", { skip }, () => {
  const chromium = chromiumForSuite();
  let stack: ReaderStack;
  const title = '浏览器兼容性指南';
  before(async () => {
    stack = await startReaderStack({ COMMENT_RATE_LIMIT: '100/minute' });
    const post = { title, body: '<p>各浏览器的支持情况。</p>', summary: '兼容性', categories: ['Web'], pub_date: '2026-11-21' };
    assert.equal((await adminAt(stack.origin.url, 'PUT', '/api/v1/plog/browser-compat', post)).status, 201);
    const offered = async () => {
      const response = await fetch(`${stack.frontUrl}/api/search/autocomplete?q=${encodeURIComponent('兼容')}&locale=en-US`);
      return response.ok && (await response.text()).includes(title);
    };
    await eventually('the Chinese post is indexed', offered, 10_000);
  });
  after(async () => {
    await stack?.close();
  });

  it('offers a Chinese title when the reader types a word of it that is not its first', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${stack.frontUrl}/`);
    await page.waitForFunction(() => document.documentElement.dataset.navigation === 'client');
    await page.locator('#site-search-input').pressSequentially('兼容', { delay: 15 });
    await page.waitForSelector('#site-search-listbox:not([hidden])');
    const titles = await page.locator('#site-search-listbox [role="option"]').allTextContents();
    assert.ok(titles.includes(title), titles.join(', '));
    await page.close();
  });
});
