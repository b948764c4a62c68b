import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { get, nginxForTests } from '../src/edge/test-support/edge-harness.js';
import { AccountStore, openOriginDatabase } from '../src/origin/index.js';
import { DeskClient, TEST_SCRYPT } from '../src/origin/desk/test-support/desk-client.js';
import { photoJpeg } from '../src/origin/images/test-support/fixtures.js';
import { HONEYPOT_FIELD } from '../src/renderer/comment-form.js';
import type { RunningFront } from '../src/server/front-command.js';
import { chromiumForSuite, chromiumSkip } from './support/chromium.js';
import { listingsWrong } from './support/listing-surfaces.js';
import { adminAt, eventually, startThreeLayers, type EdgeAndOrigin } from './support/stack.js';
import { staleSurfaces, untilFresh, type Layers, type PostState } from './support/surfaces.js';

const { nginx, skip: noNginx } = nginxForTests();
const skip = noNginx || chromiumSkip("the editor's desk acceptance walk in Chromium");

/** The bound of issues 18 and 35: a change shows on every surface within this time. */
const WITHIN_MS = 3_000;
const PASSWORD = 'a long enough pass phrase';
/** Failed logins a name may have before the next is refused: small, so the walk reaches it. */
const NAME_LIMIT = 3;
const TITLE = 'Quokka burrow survey';
const CATEGORY = 'Marsupials';
const WORD = 'Wallabyish';

const BODY = [
  '## Burrow maps',
  '',
  `${WORD} notes from the field:`,
  '',
  '- first burrow',
  '- second burrow',
  '',
  '| site | quokkas |',
  '| --- | --- |',
  '| north | 12 |',
  '',
  '```ts',
  'const quokkas = 12;',
  '```',
  '',
  'Read [the survey](https://example.com/survey).',
  '',
].join('\n');

/** Everything an editor's slip or a pasted snippet could hold that must never script a reader's browser. */
const HOSTILE = [
  'Hostile paste.',
  '',
  '<script>window.__pwned = "script"; alert("script")</script>',
  '',
  '<img src="/nowhere.png" onerror="window.__pwned = \'onerror\'; alert(\'onerror\')">',
  '',
  '[a javascript link](javascript:window.__pwned=\'link\')',
  '',
  '<a href="javascript:alert(\'raw\')">a raw link</a> <svg onload="alert(\'svg\')"></svg>',
  '',
  '<iframe src="javascript:alert(\'frame\')"></iframe><div style="position:fixed;inset:0;z-index:9">covering</div>',
  '',
  '<form action="https://attacker.example/"><button formaction="javascript:alert(1)">Go</button></form>',
].join('\n');

/** The browser's local wall time of `at`, as a `datetime-local` input holds it (whole minutes: its step is 60). */
function localWallTime(page: Page, at: number): Promise<string> {
  // One expression: a helper function declared in it would be compiled with a name helper the page does not have.
  return page.evaluate((ms) => {
    const date = new Date(ms);
    return [date.getFullYear(), date.getMonth() + 1, date.getDate(), date.getHours(), date.getMinutes()].map((n) => String(n).padStart(2, '0'));
  }, at).then(([year, month, day, hours, minutes]) => `${year}-${month}-${day}T${hours}:${minutes}`);
}

/**
 * Issue 35's acceptance, walked once as an editor and readers would: Chromium on the desk (the origin), readers through
 * the real front and the real nginx edge, search on the embedded engine.
 */
describe("the editor's desk, walked end to end in Chromium through the front and the edge", { skip }, () => {
  const chromium = chromiumForSuite();
  let stack: EdgeAndOrigin;
  let front: RunningFront;
  const layers = (): Layers => ({ frontUrl: front.url, edgeUrl: stack.edge.url, buildId: front.buildId });
  const dataRoute = (slug: string) => `/_render/data/${front.buildId}/en-US/plog/${slug}.json`;
  /**
   * Whether search and autocomplete through the edge name the post. Each check asks a query no one asked before, so a
   * step's answer is the front's as the edge passes it on (the edge keeps such an answer a second, `s-maxage=1`).
   */
  const edgeSearchLists = async (oid: string, word: string, prefix: string): Promise<{ search: boolean; autocomplete: boolean }> => {
    const search = JSON.parse((await get(`${stack.edge.url}/api/v1/search?q=${encodeURIComponent(word)}&size=100`)).body) as { documents: { url: string }[] };
    const autocomplete = JSON.parse((await get(`${stack.edge.url}/api/search/autocomplete?q=${encodeURIComponent(prefix)}`)).body) as { matches: { url: string }[] };
    return { search: search.documents.some((document) => document.url === `/plog/${oid}`), autocomplete: autocomplete.matches.some((match) => match.url === `/plog/${oid}`) };
  };

  before(async () => {
    ({ stack, front } = await startThreeLayers(nginx!, {
      SEARCH_RATE_LIMIT: '100000/minute',
      COMMENT_RATE_LIMIT: '1000/minute',
      DESK_LOGIN_NAME_RATE_LIMIT: `${NAME_LIMIT}/hour`,
      DESK_LOGIN_RATE_LIMIT: '20/hour',
    }));
    const db = openOriginDatabase(join(stack.config.dataDir, 'origin.sqlite'), { seed: false });
    try {
      await new AccountStore(db, TEST_SCRYPT).addUser('alice', PASSWORD);
    } finally {
      db.close();
    }
  });
  after(async () => {
    await front?.close();
    await stack?.close();
  });

  it('passes every step of the acceptance when an editor writes, schedules, renames and moderates, and readers read, comment and search', async () => {
    const desk = stack.origin.url;
    const page = await chromium.context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    try {
      await page.setViewportSize({ width: 1280, height: 900 });

      // 1. Log in; the session cookie is HttpOnly and SameSite=Strict.
      await page.goto(`${desk}/admin/`);
      await page.getByLabel('Username').fill('alice');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(`${desk}/admin/`);
      const session = (await chromium.context.cookies(`${desk}/admin/`)).find((cookie) => cookie.name === 'sitestack_desk');
      assert.ok(session !== undefined, 'a session cookie');
      assert.equal(session.httpOnly, true);
      assert.equal(session.sameSite, 'Strict');

      // 2. A new post in Markdown with an uploaded image and its alt text; the live preview shows it all.
      await page.getByRole('link', { name: 'New post' }).click();
      await page.waitForURL(`${desk}/admin/posts/new`);
      await page.waitForFunction(() => !document.getElementById('image-tools')?.hidden, undefined, { timeout: 5000 });
      await page.getByLabel('Title', { exact: true }).fill(TITLE);
      await page.getByLabel('Slug').fill('quokka-survey');
      await page.getByLabel('Categories').fill(CATEGORY);
      const body = page.getByLabel('Body', { exact: true });
      await body.fill(BODY);
      await body.press('Control+End');
      await page.getByLabel('Add image').setInputFiles({ name: 'burrow.jpg', mimeType: 'image/jpeg', buffer: await photoJpeg(1200, 800) });
      await page.waitForFunction(() => (document.getElementById('body') as HTMLTextAreaElement).value.includes('/_render/image/'), undefined, { timeout: 10_000 });
      await page.keyboard.type('A quokka at its burrow');
      const frame = page.frameLocator('#preview');
      await frame.locator('article .post-body img[alt="A quokka at its burrow"]').waitFor({ timeout: 5000 });
      await frame.locator('article h2#burrow-maps').waitFor({ timeout: 5000 });
      assert.equal(await frame.locator('article h1').textContent(), TITLE);
      assert.equal(await frame.locator('article .post-body li').count(), 2);
      assert.equal(await frame.locator('article .post-body table td').first().textContent(), 'north');
      assert.match((await frame.locator('article .post-body pre code').textContent()) ?? '', /const quokkas = 12;/);
      assert.equal(await frame.locator('article .post-body a[href="https://example.com/survey"]').count(), 1);
      // The Preview button shows the same, rendered by the origin from the form, storing nothing.
      await page.getByRole('button', { name: 'Preview', exact: true }).click();
      await page.waitForLoadState();
      await frame.locator('article .post-body img[alt="A quokka at its burrow"]').waitFor({ timeout: 5000 });
      assert.equal((await adminAt(desk, 'GET', '/api/v1/plog/quokka-survey')).status, 404, 'a preview stores nothing');

      // 3. Save draft: on no surface readers reach, at the front or the edge.
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.waitForURL(`${desk}/admin/posts/quokka-survey?saved=save-draft`);
      assert.equal(await page.getByRole('status').first().textContent(), 'Draft saved.');
      const hidden: PostState = { oid: 'quokka-survey', hides: [TITLE, WORD], goneWords: [WORD.toLowerCase()], goneTitlePrefixes: ['Quokka bu'] };
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(await staleSurfaces(layers(), hidden), [], 'the draft is on no surface');
      assert.deepEqual(await listingsWrong(layers(), 'quokka-survey', CATEGORY, false), [], 'nor in the feed, the sitemap or its category');
      assert.deepEqual(await edgeSearchLists('quokka-survey', WORD.toLowerCase(), 'Quokka bu'), { search: false, autocomplete: false }, 'nor in search at the edge');

      // 4. Schedule it ~20 s ahead. The field holds whole minutes, so the time is the first whole minute 20 s away.
      const at = Math.ceil((Date.now() + 20_000) / 60_000) * 60_000;
      await page.getByLabel('Publish at').fill(await localWallTime(page, at));
      await page.getByRole('button', { name: 'Schedule', exact: true }).click();
      await page.waitForURL(`${desk}/admin/posts/quokka-survey?saved=schedule`);

      // While it waits: 9. a hostile Markdown body, published, is shown safely through the edge.
      await page.goto(`${desk}/admin/posts/new`);
      await page.getByLabel('Title', { exact: true }).fill('Pasted from somewhere');
      await page.getByLabel('Slug').fill('pasted-snippet');
      await page.getByLabel('Body', { exact: true }).fill(HOSTILE);
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await page.waitForURL(`${desk}/admin/posts/pasted-snippet?saved=publish`);
      await eventually('the hostile post at the edge', async () => (await get(`${stack.edge.url}/plog/pasted-snippet`)).status === 200, WITHIN_MS);
      const reader = await chromium.context.newPage();
      reader.on('dialog', (dialog) => {
        dialogs.push(`${dialog.type()}: ${dialog.message()}`);
        void dialog.dismiss();
      });
      try {
        await reader.goto(`${stack.edge.url}/plog/pasted-snippet`);
        await reader.locator('article .post-body').waitFor();
        for (const link of await reader.locator('article .post-body a').all()) await link.click({ timeout: 1000 }).catch(() => undefined);
        await reader.waitForTimeout(300);
        assert.equal(await reader.evaluate(() => (window as unknown as { __pwned?: string }).__pwned), undefined, 'no script ran');
        const html = await reader.locator('article .post-body').innerHTML();
        // markdown-it leaves a javascript: link as its text, which is harmless: only attributes may not hold one.
        assert.doesNotMatch(html, /<script|<iframe|<svg|<form|<button|\son\w+\s*=|(?:href|src|action)\s*=\s*["']?\s*javascript:|position:\s*fixed/i);
        assert.match(html, /Hostile paste\./);
      } finally {
        await reader.close();
      }
      assert.deepEqual(dialogs, [], 'no dialog opened');
      // Unpublished, it is gone again from the front and the edge within the bound.
      const unpublishing = performance.now();
      await page.getByRole('button', { name: 'Unpublish', exact: true }).click();
      await page.waitForURL(`${desk}/admin/posts/pasted-snippet?saved=unpublish`);
      await untilFresh(layers(), { oid: 'pasted-snippet', hides: ['Pasted from somewhere'] }, WITHIN_MS, unpublishing);

      // While it waits: 8. a reader's search with no results, through the edge, then shown to the editor.
      const query = 'kwyjibo qqzxv';
      const searcher = await chromium.context.newPage();
      try {
        await searcher.goto(`${stack.edge.url}/en-US/search`);
        await searcher.getByRole('searchbox', { name: 'Search the site' }).fill(query);
        await searcher.getByRole('searchbox', { name: 'Search the site' }).press('Enter');
        await searcher.waitForFunction(() => !document.getElementById('search-app')?.hasAttribute('aria-busy') && /\S/.test(document.getElementById('search-status')?.textContent ?? ''));
        assert.equal(await searcher.locator('#search-results a.result-title').count(), 0, 'no results');
        await searcher.goto('about:blank');
      } finally {
        await searcher.close();
      }

      // 10. A form posted from another origin is refused, even with the editor's cookies in the browser.
      await page.route('http://attacker.test/**', (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<form method="post" action="${desk}/admin/posts/new"><input name="title" value="Owned"><input name="slug" value="owned"><input name="body" value="x"><input name="action" value="publish"></form><script>document.forms[0].submit()</script>`,
        }),
      );
      const [refused] = await Promise.all([page.waitForResponse((response) => response.url() === `${desk}/admin/posts/new` && response.request().method() === 'POST'), page.goto('http://attacker.test/')]);
      assert.equal(refused.status(), 403);
      assert.equal((await get(`${desk}/api/v1/plog/owned`)).status, 404, 'nothing was saved');

      // 10. Login brute force: past the name's limit a login is refused (429) without its password being checked.
      const guesser = new DeskClient(desk);
      for (let i = 0; i < NAME_LIMIT; i++) assert.equal((await guesser.login('alice', `wrong guess number ${i}`)).status, 401);
      const limited = await guesser.login('alice', PASSWORD);
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) > 0, 'with Retry-After');

      // 4, continued. Invisible until its time, then on every surface within 3 s, its first page view at the front a hit.
      assert.ok(Date.now() < at - 1_500, `the steps run while the post waits ended ${Date.now() - at} ms after its time`);
      assert.deepEqual(await staleSurfaces(layers(), hidden), [], 'the scheduled post is on no surface before its time');
      assert.deepEqual(await listingsWrong(layers(), 'quokka-survey', CATEGORY, false), []);
      while (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, 20));
      const since = performance.now() - (Date.now() - at);
      await eventually('published at the origin', async () => (await get(`${desk}/api/v1/plog/quokka-survey`)).status === 200, WITHIN_MS);
      await eventually('the purges and the warm-up', async () => stack.origin.outbox?.pendingJobs() === 0, WITHIN_MS);
      const first = await get(`${front.url}/plog/quokka-survey`);
      assert.equal(first.status, 200);
      assert.equal(first.headers['x-middleware-cache'], 'hit', 'the first page view at the front is a hit');
      const shown: PostState = { oid: 'quokka-survey', title: TITLE, shows: [WORD, 'A quokka at its burrow'], searchWord: WORD.toLowerCase(), titlePrefix: 'Quokka bu' };
      await untilFresh(layers(), shown, WITHIN_MS, since);
      await eventually('the feed, the sitemap and the category', async () => (await listingsWrong(layers(), 'quokka-survey', CATEGORY, true)).length === 0, Math.max(1, since + WITHIN_MS - performance.now()));
      await eventually('search and autocomplete through the edge', async () => Object.values(await edgeSearchLists('quokka-survey', 'quokka', 'Quokka b')).every(Boolean), Math.max(1, since + WITHIN_MS - performance.now()));
      const visibleAfter = performance.now() - since;
      assert.ok(visibleAfter <= WITHIN_MS, `visible everywhere ${Math.round(visibleAfter)} ms after its time`);
      const picture = (await get(`${stack.edge.url}/plog/quokka-survey`)).body;
      assert.match(picture, /<img src="\/_render\/image\/[0-9a-f]{32}-1200\.jpg" srcset="[^"]+" sizes="[^"]+" width="1200" height="800" alt="A quokka at its burrow" loading="lazy"/);
      const webp = /<source type="image\/webp" srcset="(\/_render\/image\/[0-9a-f]{32}-480\.webp) 480w/.exec(picture)?.[1] ?? '';
      assert.equal((await get(`${stack.edge.url}${webp}`)).headers['content-type'], 'image/webp');
      assert.equal((await get(`${stack.edge.url}${webp}`)).headers['x-cache'], 'HIT', 'the edge keeps the image');

      // 5. Rename it (Slug, Publish), with an edit: the old page and data route answer 301 at the front and the edge.
      await page.goto(`${desk}/admin/posts/quokka-survey`);
      await page.getByLabel('Slug').fill('quokkas');
      await page.getByLabel('Body', { exact: true }).fill(`${await page.getByLabel('Body', { exact: true }).inputValue()}\nEdited at the rename.\n`);
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await page.waitForURL(`${desk}/admin/posts/quokkas?saved=publish`);
      const moved = async (path: string, location: string) => {
        for (const base of [front.url, stack.edge.url]) {
          const answer = await get(`${base}${path}`);
          if (answer.status !== 301 || answer.headers.location !== location) return false;
        }
        return true;
      };
      await eventually('the old page moved', () => moved('/plog/quokka-survey', '/plog/quokkas'), WITHIN_MS);
      await eventually('the old data route moved', () => moved(dataRoute('quokka-survey'), dataRoute('quokkas')), WITHIN_MS);
      await untilFresh(layers(), { oid: 'quokkas', title: TITLE, shows: ['Edited at the rename.'] }, WITHIN_MS);

      // 6. Its revisions; restoring the first (the draft, before the edit) saves it again as the newest.
      await page.getByRole('link', { name: 'Revisions' }).click();
      await page.waitForURL(`${desk}/admin/posts/quokkas/revisions`);
      await page.getByRole('button', { name: 'Restore revision 1' }).click();
      await page.waitForURL(/\/admin\/posts\/quokkas\/revisions\?restored=\d+$/);
      assert.match((await page.getByRole('status').textContent()) ?? '', /^Restored: it is revision \d+ now\.$/);
      await untilFresh(layers(), { oid: 'quokkas', title: TITLE, shows: [WORD], hides: ['Edited at the rename.'] }, WITHIN_MS);

      // 7. Two readers comment through the front; the editor approves both at once; the page shows them.
      for (const [name, comment] of [['Ann', 'Lovely quokkas'], ['Bob', 'Which island?'], ['Spammer', 'Cheap pills']] as const) {
        const sent = await fetch(`${front.url}/plog/quokkas/comments`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ name, comment, [HONEYPOT_FIELD]: '' }).toString(),
        });
        assert.equal(sent.status, 201, await sent.text());
      }
      await page.getByRole('link', { name: 'Comments' }).click();
      await page.waitForURL(`${desk}/admin/comments`);
      for (const name of ['Ann', 'Bob']) await page.getByRole('checkbox', { name: `${name} on ${TITLE}` }).check();
      await page.getByRole('button', { name: 'Approve', exact: true }).click();
      await page.waitForURL(/done=approve/);
      assert.equal(await page.getByRole('status').textContent(), 'Approved 2 comments.');
      await page.getByRole('checkbox', { name: `Spammer on ${TITLE}` }).check();
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.waitForURL(/done=delete/);
      assert.equal(await page.getByRole('status').textContent(), 'Deleted 1 comment.');
      await untilFresh(layers(), { oid: 'quokkas', title: TITLE, shows: ['Lovely quokkas', 'Which island?'], hides: ['Cheap pills'] }, WITHIN_MS);


      // 8, continued: the zero-result query is on the insights page (the front sends its counts every 5 s).
      await page.getByRole('link', { name: 'Insights' }).click();
      await eventually(
        'the zero-result query in the insights',
        async () => {
          await page.goto(`${desk}/admin/insights`);
          return ((await page.getByRole('table', { name: 'Queries without results, last 30 days' }).textContent({ timeout: 1000 }).catch(() => '')) ?? '').includes(query);
        },
        10_000,
      );
    } finally {
      await page.close({ runBeforeUnload: false });
    }
  });
});
