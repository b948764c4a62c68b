import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { adminAt } from './support/stack.js';
import { chromiumForSuite, chromiumSkip } from './support/chromium.js';
import { startReaderStack, type ReaderStack } from './support/reader-stack.js';

const skip = chromiumSkip("the reader's pages in Chromium");

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let stack: ReaderStack;
let oid: string;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is now, as readable lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact ?? ''} ${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

async function open(page: Page, path: string, status = 200): Promise<void> {
  const response = await page.goto(`${stack.frontUrl}${path}`);
  assert.equal(response?.status(), status, path);
  await page.waitForFunction(() => document.documentElement.dataset.navigation === 'client');
}

async function searchSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.getElementById('search-app')?.hasAttribute('aria-busy') && document.getElementById('search-status')?.textContent !== '');
}

async function pendingNames(): Promise<string[]> {
  const response = await adminAt(stack.origin.url, 'GET', '/api/v1/comments/pending?limit=500');
  return ((await response.json()) as { items: { name: string }[] }).items.map((item) => item.name);
}

/** Every page type as a reader sees it, with what must be there before it is checked. */
const PAGES = [
  { name: 'home', path: () => '/', status: 200 },
  { name: 'archive', path: () => '/plog', status: 200 },
  { name: 'post', path: () => `/plog/${oid}`, status: 200 },
  { name: 'category', path: () => '/plog/category/Web', status: 200 },
  { name: 'search', path: () => '/en-US/search?q=measuring', status: 200 },
  { name: 'about', path: () => '/about', status: 200 },
  { name: '404', path: () => '/no/such/page', status: 404 },
] as const;

describe("the reader's pages in Chromium", { skip }, () => {
  const chromium = chromiumForSuite();
  before(async () => {
    stack = await startReaderStack({ COMMENT_RATE_LIMIT: '100/minute' });
    // A post with a long code line and a long word, the two things that push a phone's page sideways.
    oid = 'wide-things';
    const put = await adminAt(stack.origin.url, 'PUT', `/api/v1/plog/${oid}`, {
      title: 'Wide things on narrow screens',
      body: `<p>${'Supercalifragilistic'.repeat(6)}</p><pre><code>${'const value = compute(first, second, third); '.repeat(5)}</code></pre>`,
      summary: 'Code blocks and long words.',
      pub_date: '2026-11-01T10:00:00.000Z',
    });
    assert.equal(put.status, 201);
  });
  after(async () => {
    await stack?.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`has no serious or critical axe-core violation on the home, archive, post, category, search and 404 pages when the scheme is ${scheme}`, async () => {
      const page = await chromium.context.newPage();
      await page.emulateMedia({ colorScheme: scheme });
      for (const { name, path, status } of PAGES) {
        await open(page, path(), status);
        if (name === 'search') await searchSettled(page);
        assert.deepEqual(await seriousViolations(page), [], `${name} (${scheme})`);
      }
      await page.locator('#site-search-input').pressSequentially('Measuring');
      await page.waitForSelector('#site-search-listbox:not([hidden])');
      await page.keyboard.press('ArrowDown');
      assert.deepEqual(await seriousViolations(page), [], `open suggestions (${scheme})`);
      await page.close();
    });
  }

  it('scrolls no page sideways at 390 px, reaches code blocks by keyboard and shows where the focus is', async () => {
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    for (const { name, path, status } of PAGES) {
      await open(page, path(), status);
      if (name === 'search') await searchSettled(page);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, `${name} is 390 px wide`);
    }
    await open(page, `/plog/${oid}`);
    const code = page.locator('.post-body pre');
    assert.equal(await code.getAttribute('tabindex'), '0');
    assert.equal(await code.getAttribute('aria-label'), 'Code example');
    await page.locator('.post-meta').click();
    let reached = false;
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.matches('.post-body pre') === true);
    }
    assert.ok(reached, 'Tab reaches the code block');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
    assert.equal(outline, 'solid', 'the focused code block shows a focus ring');
    const scrolled = await page.evaluate(() => {
      const pre = document.activeElement as HTMLElement;
      return pre.scrollWidth > pre.clientWidth;
    });
    assert.ok(scrolled, 'the long line scrolls inside the block');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => (document.activeElement as HTMLElement).scrollLeft > 0);
    await page.close();
  });

  it('posts a comment with JavaScript and shows "awaiting moderation" or the API\'s message in place', async () => {
    const page = await chromium.context.newPage();
    await open(page, `/plog/${oid}`);
    await page.fill('#comment-name', '   ');
    await page.fill('#comment-text', 'No name given');
    await page.click('.comment-form button[type=submit]');
    await page.waitForSelector('#comment-status.form-error p');
    assert.equal(await page.locator('#comment-status').textContent(), 'name must not be empty');
    assert.equal(new URL(page.url()).pathname, `/plog/${oid}`);

    await page.fill('#comment-name', 'Scripted reader');
    await page.fill('#comment-text', 'Sent by fetch.');
    await page.click('.comment-form button[type=submit]');
    await page.waitForSelector('#comment-status.form-ok p');
    assert.match((await page.locator('#comment-status').textContent()) ?? '', /awaiting moderation/);
    assert.equal(await page.inputValue('#comment-text'), '', 'the form is emptied');
    assert.equal(new URL(page.url()).pathname, `/plog/${oid}`);
    assert.ok((await pendingNames()).includes('Scripted reader'));
    await page.close();
  });

  it('posts a comment without JavaScript: a redirect to the thanks page, or the form again with the message', async () => {
    const page = await chromium.context.newPage();
    // No client bundle: the page is exactly the HTML the server sends.
    await page.route('**/_render/static/**', (route) => route.abort());
    await page.goto(`${stack.frontUrl}/plog/${oid}`);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.navigation), undefined);

    await page.fill('#comment-name', 'Plain reader');
    await page.fill('#comment-text', 'x'.repeat(10));
    await page.fill('#comment-text', '');
    await page.locator('#comment-text').evaluate((element) => element.removeAttribute('required'));
    const [refused] = await Promise.all([page.waitForNavigation(), page.click('.comment-form button[type=submit]')]);
    assert.equal(refused?.status(), 400);
    assert.equal(await page.locator('#comment-status').textContent(), 'comment must not be empty');
    assert.equal(await page.inputValue('#comment-name'), 'Plain reader', 'the name typed is kept');

    await page.fill('#comment-text', 'Posted the old way.');
    const [thanks] = await Promise.all([page.waitForNavigation(), page.click('.comment-form button[type=submit]')]);
    assert.equal(new URL(page.url()).pathname, `/plog/${oid}/comments/sent`);
    assert.equal(thanks?.status(), 200);
    assert.match((await page.locator('main').textContent()) ?? '', /awaiting moderation/);
    assert.ok((await pendingNames()).includes('Plain reader'));

    await page.goto(`${stack.frontUrl}/`);
    await page.fill('#site-search-input', 'sqlite');
    await Promise.all([page.waitForURL(/\/en-US\/search\?q=sqlite$/), page.keyboard.press('Enter')]);
    await page.close();
  });
});
