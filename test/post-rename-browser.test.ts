import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { silentLogger } from '../src/log.js';
import { AccountStore, ContentStore, createOriginApp, openOriginDatabase, type OriginDatabase, type PostInput } from '../src/origin/index.js';
import { TEST_SCRYPT } from '../src/origin/desk/test-support/desk-client.js';
import { axeViolations } from './support/axe.js';
import { chromiumForSuite, chromiumSkip } from './support/chromium.js';
import { adminRequest, startStack, type Stack } from './support/stack.js';

const skip = chromiumSkip('addresses and revisions in Chromium');
const PASSWORD = 'a long enough pass phrase';

const post = (title: string, body: string): PostInput => ({ title, format: 'markdown', body, summary: '', categories: ['Web'], pub_date: '2026-04-05T00:00:00.000Z' });

describe('the revisions desk page in Chromium', { skip }, () => {
  const chromium = chromiumForSuite();
  let running: { db: OriginDatabase; app: FastifyInstance } | undefined;
  let base = '';

  before(async () => {
    const db = openOriginDatabase(':memory:', { seed: false });
    await new AccountStore(db, TEST_SCRYPT).addUser('alice', PASSWORD);
    const store = new ContentStore(db);
    const long = `A line too long for any phone: ${'unbroken'.repeat(40)}`;
    store.putPost('story', post('Story', `# Story\n\nFirst words.\n\n${long}`));
    store.putPost('story', post('Story, revised', `# Story\n\nBetter words.\n\n${long}`), { by: 'alice' });
    store.putPost('story', post('Story, final', `# Story\n\nBest words.\n\n${long}\n\nA last line.`), { by: 'alice' });
    const app = await createOriginApp({ db, logger: silentLogger(), desk: { scrypt: TEST_SCRYPT } });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    running = { db, app };
  });
  after(async () => {
    await running?.app.close();
    running?.db.close();
  });

  it('lists the revisions at 390 px axe-clean, opens a diff and restores one with the keyboard', async () => {
    const page = await chromium.context.newPage();
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${base}/admin/posts/story/revisions`);
      await page.fill('#username', 'alice');
      await page.fill('#password', PASSWORD);
      await page.press('#password', 'Enter');
      await page.waitForURL('**/admin/posts/story/revisions');
      assert.equal(await page.textContent('h1'), 'Revisions of “Story, final”');
      assert.deepEqual(await axeViolations(page), []);

      // Every disclosure open: the diffs must wrap inside the page and keep their contrast too.
      await page.evaluate(() => document.querySelectorAll('details').forEach((details) => (details.open = true)));
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'nothing scrolls sideways');
      assert.equal(await page.locator('del', { hasText: 'First words.' }).first().textContent(), 'Removed: −First words.');
      await page.evaluate(() => document.querySelectorAll('details').forEach((details) => (details.open = false)));

      // With the keyboard alone: to revision 1's Restore button and press it.
      const restore = page.getByRole('button', { name: 'Restore revision 1' });
      for (let i = 0; i < 40 && !(await restore.evaluate((button) => button === document.activeElement)); i++) await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL('**/admin/posts/story/revisions?restored=4');
      assert.equal(await page.getByRole('status').textContent(), 'Restored: it is revision 4 now.');
      assert.equal(await page.textContent('h1'), 'Revisions of “Story”');
      assert.deepEqual(await axeViolations(page), []);
    } finally {
      await page.close();
    }
  });
});

describe('client navigation to a renamed post in Chromium', { skip }, () => {
  const chromium = chromiumForSuite();
  let stack: Stack;

  before(async () => {
    stack = await startStack();
    const put = (oid: string, title: string, body: string) => adminRequest(stack, 'PUT', `/api/v1/plog/${oid}`, { title, format: 'markdown', body, pub_date: '2026-11-01' });
    assert.equal((await put('armadillo-old', 'Armadillo notes', 'Armadillos dig.')).status, 201);
    assert.equal((await put('links-page', 'Links', 'Read [the armadillo notes](/plog/armadillo-old).')).status, 201);
    assert.equal((await adminRequest(stack, 'POST', '/api/v1/plog/armadillo-old/rename', { to: 'armadillo' })).status, 200);
  });
  after(async () => {
    await stack?.close();
  });

  it('shows the post at its new address, without a full page load, when a link names its old one', async () => {
    const page = await chromium.context.newPage();
    try {
      await page.goto(`${stack.frontUrl}/plog/links-page`);
      await page.waitForFunction(() => document.documentElement.dataset.navigation === 'client');
      await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
      await page.click('a[href="/plog/armadillo-old"]');
      await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Armadillo notes');
      assert.equal(new URL(page.url()).pathname, '/plog/armadillo');
      assert.equal(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), true, 'rendered in place');
      await page.goto(`${stack.frontUrl}/plog/armadillo-old`);
      assert.equal(new URL(page.url()).pathname, '/plog/armadillo', 'a full load of the old address moves too');
    } finally {
      await page.close();
    }
  });
});
