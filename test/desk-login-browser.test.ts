import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { silentLogger } from '../src/log.js';
import { AccountStore, createOriginApp, openOriginDatabase, type OriginDatabase } from '../src/origin/index.js';
import { TEST_SCRYPT } from '../src/origin/desk/test-support/desk-client.js';
import { axeViolations } from './support/axe.js';
import { chromiumForSuite, chromiumSkip } from './support/chromium.js';

const skip = chromiumSkip("the editor's desk login in Chromium");
const PASSWORD = 'a long enough pass phrase';

describe("the editor's desk login in Chromium", { skip }, () => {
  const chromium = chromiumForSuite();
  // The origin with the desk, and another origin whose page posts a form to the desk, as a hostile site would.
  let running: { db: OriginDatabase; app: FastifyInstance; foreign: Server } | undefined;
  let base = '';
  let foreignBase = '';

  before(async () => {
    const db = openOriginDatabase(':memory:', { seed: false });
    await new AccountStore(db, TEST_SCRYPT).addUser('alice', PASSWORD);
    const app = await createOriginApp({ db, logger: silentLogger(), desk: { scrypt: TEST_SCRYPT } });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    const foreign = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(`<form id="f" method="post" action="${base}/admin/logout"><input name="_csrf" value="guess"></form><script>document.getElementById('f').submit()</script>`);
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    foreignBase = `http://localhost:${(foreign.address() as AddressInfo).port}`;
    running = { db, app, foreign };
  });
  after(async () => {
    if (running === undefined) return;
    const { app, db, foreign } = running;
    await app.close();
    db.close();
    await new Promise((resolve) => foreign.close(resolve));
  });

  it('logs in with the keyboard at 390 px, axe-clean, and refuses a form from another origin', async () => {
    const page = await chromium.context.newPage();
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${base}/admin/`);
      assert.equal(new URL(page.url()).pathname, '/admin/login');
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'nothing scrolls sideways');

      // A wrong password first: the error is an alert, the fields point to it, and focus is on the password.
      await page.keyboard.type('alice');
      await page.keyboard.press('Tab');
      await page.keyboard.type('not the password');
      await page.keyboard.press('Enter');
      await page.waitForSelector('[role=alert]');
      assert.match((await page.textContent('[role=alert]')) ?? '', /do not match/);
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'password');
      assert.equal(await page.getAttribute('#username', 'aria-describedby'), 'login-error');
      assert.equal(await page.inputValue('#username'), 'alice');
      assert.deepEqual(await axeViolations(page), []);

      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${base}/admin/`);
      assert.match((await page.textContent('main')) ?? '', /Logged in as alice/);
      assert.deepEqual(await axeViolations(page), []);
      const cookie = (await chromium.context.cookies(`${base}/admin/`)).find((candidate) => candidate.name === 'sitestack_desk');
      assert.equal(cookie?.httpOnly, true);
      assert.equal(cookie?.sameSite, 'Strict');
      assert.equal(cookie?.path, '/admin');

      // A page of another origin posts to the desk: refused, and the session stays.
      const hostile = await chromium.context.newPage();
      const refused = hostile.waitForResponse((response) => response.url() === `${base}/admin/logout`);
      await hostile.goto(foreignBase);
      assert.equal((await refused).status(), 403);
      await hostile.close();
      await page.reload();
      assert.match((await page.textContent('main')) ?? '', /Logged in as alice/);

      // Log out with the keyboard: the skip link, then the Log out button.
      const logOut = page.getByRole('button', { name: 'Log out', exact: true });
      for (let presses = 0; presses < 6 && !(await logOut.evaluate((button) => button === document.activeElement)); presses++) await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${base}/admin/login?out=1`);
      assert.match((await page.textContent('[role=status]')) ?? '', /logged out/);
      await page.goto(`${base}/admin/`);
      assert.equal(new URL(page.url()).pathname, '/admin/login');
    } finally {
      await page.close();
    }
  });
});
