import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DOCS } from '../src/search/test-support/api-requests.js';
import { startSearchServer, type SearchServer } from '../src/search/test-support/search-server.js';
import { axeViolations } from './support/axe.js';
import { chromiumForSuite, chromiumSkip } from './support/chromium.js';

const skip = chromiumSkip('the search box on another site in Chromium');

/**
 * A plain static site on a port of its own, which allows scripts and requests only from the search server and no
 * inline script or style at all: the box must work under it.
 */
async function startStaticSite(searchUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const page = (body: string) =>
    `<!doctype html><html lang="en-US"><head><meta charset="utf-8"><title>Static site</title></head><body><main><h1>A static site</h1>${body}</main><script src="${searchUrl}/api/search/box.js"></script></body></html>`;
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const body = path === '/' || path === '/results' ? page('<sitestack-search></sitestack-search>')
      : path === '/box' ? page('<sitestack-search action="/results" label="Search the docs"></sitestack-search>')
        : `<!doctype html><html lang="en"><title>${path}</title><p>${path}</p></html>`;
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src ${searchUrl}; connect-src ${searchUrl}; style-src 'none'; img-src 'none'`,
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the search box on another site, in Chromium', { skip }, () => {
  const chromium = chromiumForSuite();
  let search: SearchServer;
  let site: { url: string; close(): Promise<void> };
  const problems: string[] = [];

  before(async () => {
    search = await startSearchServer(DOCS);
    site = await startStaticSite(search.url);
  });
  after(async () => {
    await site?.close();
    await search?.close();
  });

  async function open(path: string): Promise<Page> {
    const page = await chromium.context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    page.on('console', (message) => {
      if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) problems.push(`console: ${message.text()}`);
    });
    await page.addInitScript(() => {
      // eslint-disable-next-line no-console -- the page's console is how a violation reaches the test
      document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`));
    });
    await page.goto(`${site.url}${path}`);
    await page.waitForFunction(() => customElements.get('sitestack-search') !== undefined);
    return page;
  }

  it('suggests titles as the reader types, moved through with the arrow keys, closed with Escape, opened with Enter', async () => {
    const page = await open('/');
    const box = page.getByRole('combobox', { name: 'Search' });
    await box.pressSequentially('zebra');
    const options = page.getByRole('option');
    await options.first().waitFor();
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    assert.equal(await options.count(), 10);
    await box.press('ArrowDown');
    await box.press('ArrowDown');
    await box.press('ArrowUp');
    assert.equal(await box.getAttribute('aria-activedescendant'), 'option-0');
    assert.equal(await options.first().getAttribute('aria-selected'), 'true');
    assert.deepEqual(await axeViolations(page), [], 'the open list passes axe');
    const first = await options.first().textContent();
    await box.press('Escape');
    assert.equal(await box.getAttribute('aria-expanded'), 'false');
    assert.equal(await box.getAttribute('aria-activedescendant'), null);
    await box.press('ArrowDown');
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    await Promise.all([page.waitForURL(/\/en-US\/docs\/zoo\/zebra\d+$/), box.press('Enter')]);
    assert.equal(new URL(page.url()).origin, site.url, 'a result is a page of the site itself');
    assert.match(first ?? '', /^Zebra stripes \d+$/);
    await page.close();
  });

  it('lists results with their highlights and a status line, corrected when the query has a typo', async () => {
    const page = await open('/');
    const box = page.getByRole('combobox', { name: 'Search' });
    await box.fill('flexbox');
    await box.press('Enter');
    const status = page.getByRole('status');
    await page.waitForFunction(() => /results? for/.test(document.querySelector('sitestack-search')?.shadowRoot?.querySelector('[role=status]')?.textContent ?? ''));
    assert.equal(await status.textContent(), '2 results for “flexbox”.');
    const links = page.locator('sitestack-search li.result a');
    assert.deepEqual(await links.allTextContents(), ['Flexbox', 'Grid layout']);
    assert.equal(await links.first().getAttribute('href'), `${site.url}/en-US/docs/web/css/flexbox`);
    assert.ok((await page.locator('sitestack-search li.result mark').count()) >= 2);
    await box.fill('flexbx');
    await box.press('Enter');
    await page.waitForFunction(() => /“flexbox”/.test(document.querySelector('sitestack-search')?.shadowRoot?.querySelector('[role=status]')?.textContent ?? '') && !/Searching/.test(document.querySelector('sitestack-search')?.shadowRoot?.querySelector('[role=status]')?.textContent ?? ''));
    assert.equal(await status.textContent(), '2 results for “flexbox”.');
    assert.deepEqual(await axeViolations(page), []);
    await page.close();
  });

  it('sends a search to the results page named by action, which shows its results', async () => {
    const page = await open('/box');
    const box = page.getByRole('combobox', { name: 'Search the docs' });
    await box.fill('canvas');
    await Promise.all([page.waitForURL(`${site.url}/results?q=canvas`), box.press('Enter')]);
    await page.waitForFunction(() => customElements.get('sitestack-search') !== undefined);
    await page.locator('sitestack-search li.result').first().waitFor();
    assert.deepEqual(await page.locator('sitestack-search li.result a').allTextContents(), ['Canvas', 'Drawing shapes']);
    assert.equal(await page.getByRole('combobox', { name: 'Search' }).inputValue(), 'canvas');
    await page.close();
  });

  it('shows hostile or broken answers as text, never as markup or a script link', async () => {
    const page = await open('/');
    const cors = { 'access-control-allow-origin': '*', 'content-type': 'application/json' };
    await page.route(`${search.url}/api/search/autocomplete**`, (route) =>
      route.fulfill({ headers: cors, body: JSON.stringify({ q: 'x', matches: [{ title: '<img src=x onerror=alert(1)>', url: '/ok' }, { title: 'Script', url: 'javascript:alert(2)' }, null, { title: 7 }] }) }),
    );
    await page.route(`${search.url}/api/v1/search**`, (route) => route.fulfill({ status: 502, headers: { 'access-control-allow-origin': '*' }, body: '<html>bad gateway</html>' }));
    const box = page.getByRole('combobox', { name: 'Search' });
    await box.pressSequentially('x');
    await page.getByRole('option').first().waitFor();
    assert.deepEqual(await page.getByRole('option').allTextContents(), ['<img src=x onerror=alert(1)>']);
    assert.equal(await page.locator('sitestack-search img').count(), 0);
    await box.press('Escape');
    await box.press('Enter');
    await page.waitForFunction(() => /unavailable/.test(document.querySelector('sitestack-search')?.shadowRoot?.querySelector('[role=status]')?.textContent ?? ''));
    assert.equal(await page.locator('sitestack-search li.result').count(), 0);
    await page.close();
  });

  it('ran without a page error, a dialog or a Content-Security-Policy violation', () => {
    assert.deepEqual(problems, []);
  });
});
