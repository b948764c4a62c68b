import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { silentLogger } from '../src/log.js';
import { AccountStore, createOriginApp, openOriginDatabase, type OriginDatabase } from '../src/origin/index.js';
import { TEST_SCRYPT } from '../src/origin/desk/test-support/desk-client.js';
import { axeViolations } from './support/axe.js';
import { chromiumForSuite, chromiumSkip } from './support/chromium.js';
import { startReaderStack, type ReaderStack } from './support/reader-stack.js';

const skip = chromiumSkip("the editor's desk in Chromium");
const PASSWORD = 'a long enough pass phrase';

/** axe-clean and nothing scrolling sideways, at 390 px and at 1280 px. */
async function checkWidths(page: Page, what: string): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    assert.deepEqual(await axeViolations(page), [], `${what} at ${width} px`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, `${what} scrolls sideways at ${width} px`);
  }
}

/** The text of the preview frame's post body. */
async function previewText(page: Page): Promise<string> {
  return (await page.frameLocator('#preview').locator('article .post-body').textContent({ timeout: 5000 })) ?? '';
}

const BODY = [
  '## Measuring the cache',
  '',
  '- first point',
  '- second point',
  '',
  '| layer | hit rate |',
  '| --- | --- |',
  '| edge | 93% |',
  '',
  '```ts',
  'const answer = 42;',
  '```',
  '',
  'Read [the docs](https://example.com/docs).',
].join('\n');

describe("the editor's desk in Chromium", { skip }, () => {
  const chromium = chromiumForSuite();
  let stack: ReaderStack;

  before(async () => {
    stack = await startReaderStack();
    const db = openOriginDatabase(join(stack.config.dataDir, 'origin.sqlite'));
    try {
      await new AccountStore(db, TEST_SCRYPT).addUser('alice', PASSWORD);
    } finally {
      db.close();
    }
  });
  after(async () => {
    await stack.close();
  });

  it('writes a Markdown post with a live preview, publishes it, and the front serves it', async () => {
    const page = await chromium.context.newPage();
    const base = stack.origin.url;
    try {
      await page.setViewportSize({ width: 390, height: 900 });
      await page.goto(`${base}/admin/`);
      await page.getByLabel('Username').fill('alice');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(`${base}/admin/`);
      assert.ok((await page.getByRole('row').count()) > 3, 'the demo posts are listed');
      await checkWidths(page, 'the posts list');

      await page.getByRole('link', { name: 'New post' }).click();
      await page.waitForURL(`${base}/admin/posts/new`);
      await page.waitForFunction(() => !document.getElementById('image-tools')?.hidden, undefined, { timeout: 5000 });
      await checkWidths(page, 'the new post editor');
      for (const name of ['Save draft', 'Publish', 'Schedule', 'Preview']) assert.equal(await page.getByRole('button', { name, exact: true }).count(), 1, name);

      await page.getByLabel('Title', { exact: true }).pressSequentially('Café notes from the edge');
      assert.equal(await page.getByLabel('Slug').inputValue(), 'cafe-notes-from-the-edge', 'the slug follows the title');
      await page.getByLabel('Categories').fill('Web');
      await page.getByLabel('Body', { exact: true }).fill(BODY);
      await page.frameLocator('#preview').locator('article h2#measuring-the-cache').waitFor({ timeout: 5000 });
      const frame = page.frameLocator('#preview');
      assert.equal(await frame.locator('article h1').textContent(), 'Café notes from the edge');
      assert.equal(await frame.locator('article .post-body li').count(), 2);
      assert.equal(await frame.locator('article .post-body table td').first().textContent(), 'edge');
      assert.match((await frame.locator('article .post-body pre code').textContent()) ?? '', /const answer = 42;/);
      assert.equal(await frame.locator('article .post-body a').getAttribute('href'), 'https://example.com/docs');
      assert.equal(await page.getAttribute('#preview', 'sandbox'), '');

      // As the editor goes on typing, the preview follows.
      await page.getByLabel('Body', { exact: true }).press('End');
      await page.getByLabel('Body', { exact: true }).pressSequentially(' Typed later.');
      // The frame is sandboxed (an opaque origin): the page cannot read it, the test reads it through the browser.
      await frame.getByText('Typed later.', { exact: false }).waitFor({ timeout: 5000 });
      assert.match(await previewText(page), /Typed later\./);
      await checkWidths(page, 'the editor with its preview');

      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await page.waitForURL(`${base}/admin/posts/cafe-notes-from-the-edge?saved=publish`);
      assert.equal(await page.textContent('#editor-status'), 'Published.');
      for (const name of ['Publish', 'Preview', 'Unpublish']) assert.equal(await page.getByRole('button', { name, exact: true }).count(), 1, name);

      const reader = await fetch(`${stack.frontUrl}/plog/cafe-notes-from-the-edge`);
      assert.equal(reader.status, 200);
      const html = await reader.text();
      assert.match(html, /<h2 id="measuring-the-cache"[^>]*>Measuring the cache<\/h2>/);
      assert.match(html, /<td>93%<\/td>/);
      assert.match(html, /Typed later\./);

      // Ctrl+S saves (for a published post, as Publish does); leaving with unsaved changes asks first.
      await page.getByLabel('Title', { exact: true }).fill('Café notes, edited');
      await page.keyboard.press('Control+s');
      await page.waitForURL(`${base}/admin/posts/cafe-notes-from-the-edge?saved=publish`);
      assert.equal(await page.getByLabel('Title', { exact: true }).inputValue(), 'Café notes, edited');
      await page.getByLabel('Summary').fill('not saved yet');
      let asked = false;
      page.once('dialog', (dialog) => {
        asked = dialog.type() === 'beforeunload';
        void dialog.dismiss();
      });
      await page.getByRole('link', { name: 'Posts', exact: true }).click();
      await page.waitForTimeout(300);
      assert.equal(asked, true, 'the unsaved-changes warning is shown');
      assert.match(page.url(), /\/admin\/posts\/cafe-notes-from-the-edge/);
    } finally {
      await page.close({ runBeforeUnload: false });
    }
  });
});

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

describe("the editor's image upload in Chromium", { skip }, () => {
  const chromium = chromiumForSuite();
  let running: { db: OriginDatabase; app: FastifyInstance; base: string } | undefined;
  const uploads: string[] = [];

  before(async () => {
    const db = openOriginDatabase(':memory:', { seed: false });
    await new AccountStore(db, TEST_SCRYPT).addUser('alice', PASSWORD);
    // A stand-in for desk-images' upload route with its contract (POST /admin/images, the file as the body, the
    // session's token in x-csrf-token; 201 with src, width and height): the editor's part is what is tested here.
    const app = await createOriginApp({
      db,
      logger: silentLogger(),
      desk: {
        scrypt: TEST_SCRYPT,
        routes: async (scope, guard) => {
          await scope.register(async (upload) => {
            upload.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
            upload.post('/admin/images', { onRequest: guard.change }, async (request, reply) => {
              uploads.push(String(request.headers['content-type']));
              const name = `${String(uploads.length).padStart(32, '0')}-480.webp`;
              return reply.status(201).send({ src: `/_render/image/${name}`, width: 1, height: 1 });
            });
          });
        },
      },
    });
    running = { db, app, base: await app.listen({ host: '127.0.0.1', port: 0 }) };
  });
  after(async () => {
    await running?.app.close();
    running?.db.close();
  });

  it('inserts an uploaded image at the cursor with its alt text selected, from the file button and from a drop, and flags it until written', async () => {
    const base = running?.base ?? '';
    const page = await chromium.context.newPage();
    try {
      await page.setViewportSize({ width: 390, height: 900 });
      await page.goto(`${base}/admin/posts/new`);
      await page.getByLabel('Username').fill('alice');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(`${base}/admin/posts/new`);
      const body = page.getByLabel('Body', { exact: true });
      await body.fill('Before.\n');
      await page.getByLabel('Add image').setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: PNG });
      await page.waitForFunction(() => (document.getElementById('body') as HTMLTextAreaElement).value.includes('/_render/image/'));
      assert.equal(await body.inputValue(), `Before.\n![alt text](/_render/image/${'1'.padStart(32, '0')}-480.webp)\n`);
      assert.equal(await page.evaluate(() => { const area = document.getElementById('body') as HTMLTextAreaElement; return area.value.slice(area.selectionStart, area.selectionEnd); }), 'alt text');
      // The live region is emptied, then filled a moment later, so that a message said twice is announced twice.
      await page.locator('#editor-status', { hasText: /red\.png added/ }).waitFor({ timeout: 5000 });
      await page.locator('#alt-warning li').first().waitFor({ timeout: 5000 });
      assert.deepEqual(await page.locator('#alt-warning li').allTextContents(), [`/_render/image/${'1'.padStart(32, '0')}-480.webp`]);
      await page.keyboard.type('A red square');
      await page.locator('#alt-warning').waitFor({ state: 'hidden', timeout: 5000 });
      // The preview shows the image from the origin, where the desk is, with the alt text typed.
      assert.equal(await page.frameLocator('#preview').locator('article .post-body img').getAttribute('alt'), 'A red square');
      assert.match((await page.frameLocator('#preview').locator('article .post-body img').getAttribute('src')) ?? '', /^\/api\/v1\/images\//);

      // Dropped on the body, as a file from the desktop would be.
      await page.evaluate((bytes) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(bytes)], 'dropped.png', { type: 'image/png' }));
        document.getElementById('body')?.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }, [...PNG]);
      await page.waitForFunction(() => (document.getElementById('body') as HTMLTextAreaElement).value.includes(`${'2'.padStart(32, '0')}-480.webp`));
      assert.deepEqual(uploads, ['image/png', 'image/png']);
      await page.locator('#alt-warning li').first().waitFor({ timeout: 5000 });
      assert.equal(await page.locator('#alt-warning li').count(), 1, 'the dropped image waits for its alt text');
    } finally {
      await page.close({ runBeforeUnload: false });
    }
  });
});
