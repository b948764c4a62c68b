import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { silentLogger } from '../src/log.js';
import { AccountStore, ContentStore, createOriginApp, openOriginDatabase, type OriginDatabase } from '../src/origin/index.js';
import { TEST_SCRYPT } from '../src/origin/desk/test-support/desk-client.js';
import { axeViolations } from './support/axe.js';
import { chromiumForSuite, chromiumSkip } from './support/chromium.js';

const skip = chromiumSkip('the moderation and insights desk pages in Chromium');
const PASSWORD = 'a long enough pass phrase';

describe('the moderation and insights desk pages in Chromium', { skip }, () => {
  const chromium = chromiumForSuite();
  let running: { db: OriginDatabase; app: FastifyInstance } | undefined;
  let base = '';
  const ids: number[] = [];

  before(async () => {
    const db = openOriginDatabase(':memory:', { seed: false });
    await new AccountStore(db, TEST_SCRYPT).addUser('alice', PASSWORD);
    const store = new ContentStore(db);
    store.putPost('hello', { title: 'Hello, world', body: '<p>Hi</p>', summary: '', pub_date: '2026-01-01T00:00:00.000Z', categories: [] });
    for (const [name, comment] of [['Ann', 'Lovely post'], ['Bob', 'I agree with <em>Ann</em>'], ['Spam bot', 'Buy now at https://spam.example']]) {
      ids.push(store.addComment('hello', { name: name!, comment: comment! })!);
    }
    const app = await createOriginApp({ db, logger: silentLogger(), desk: { scrypt: TEST_SCRYPT } });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    running = { db, app };
  });
  after(async () => {
    await running?.app.close();
    running?.db.close();
  });

  it('approves two comments at once with the keyboard at 390 px, axe-clean, when an editor ticks them', async () => {
    const page = await chromium.context.newPage();
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${base}/admin/comments`);
      await page.getByLabel('Username').fill('alice');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${base}/admin/comments`);
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'nothing scrolls sideways');
      assert.match((await page.textContent('main')) ?? '', /I agree with <em>Ann<\/em>/);

      // Tick the first two with the keyboard (Tab to each box, Space), then press Approve.
      for (const name of ['Ann on Hello, world', 'Bob on Hello, world']) {
        const box = page.getByRole('checkbox', { name });
        await box.focus();
        await page.keyboard.press('Space');
        assert.equal(await box.isChecked(), true);
      }
      await page.getByRole('button', { name: 'Approve', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/done=approve/);
      assert.equal(await page.textContent('[role=status]'), 'Approved 2 comments.');
      const approved = running?.db.prepare(`SELECT id FROM comments WHERE approved = 1 ORDER BY id`).pluck().all();
      assert.deepEqual(approved, ids.slice(0, 2));
      assert.equal(await page.getByRole('checkbox', { name: 'Spam bot on Hello, world' }).count(), 1);
      assert.deepEqual(await axeViolations(page), []);

      await page.getByRole('link', { name: 'Moderation rules' }).click();
      await page.getByLabel('Matches').selectOption('link');
      await page.getByLabel('Pattern').fill('spam.example');
      await page.getByLabel('Then').selectOption('hold');
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.waitForURL(/done=added/);
      assert.equal(await page.textContent('[role=status]'), 'Rule added.');
      assert.match((await page.textContent('main')) ?? '', /Hold link to spam\.example/);
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'nothing scrolls sideways');
    } finally {
      await page.close();
    }
  });

  it('shows a zero-result query on the insights page, axe-clean at 390 px, and switches to the last 7 days with the keyboard', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const add = running?.db.prepare(`INSERT INTO search_insights (day, query, searches, no_results, clicks, results) VALUES (?, ?, ?, ?, ?, ?)`);
    add?.run(day, 'kubernetes operators with a rather long query text', 4, 4, 0, 0);
    add?.run(day, 'caching', 9, 0, 5, 12);
    running?.db.prepare(`INSERT INTO search_insight_opens (day, query, url, opens) VALUES (?, 'caching', '/plog/a-very-long-post-address-about-caching', 5)`).run(day);
    const page = await chromium.context.newPage();
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${base}/admin/insights`);
      const empty = page.getByRole('table', { name: 'Queries without results, last 30 days' });
      assert.match((await empty.textContent()) ?? '', /kubernetes operators/);
      assert.match((await page.getByRole('table', { name: 'Most searched queries, last 30 days' }).textContent()) ?? '', /caching9/);
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'nothing scrolls sideways');
      await page.getByRole('link', { name: 'Last 7 days' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/days=7/);
      assert.equal(await page.getByRole('link', { name: 'Last 7 days' }).getAttribute('aria-current'), 'page');
    } finally {
      await page.close();
    }
  });
});
