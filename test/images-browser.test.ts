import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { photoJpeg } from '../src/origin/images/test-support/fixtures.js';
import { chromiumForSuite, chromiumSkip } from './support/chromium.js';
import { ADMIN_TOKEN, adminRequest, eventually, startStack, type Stack } from './support/stack.js';

const skip = chromiumSkip('uploaded images in Chromium');

/** Bytes and names of the image files a page fetched, as Chromium saw them. */
interface Fetched {
  names: string[];
  bytes: number;
}

/** A post with three uploaded images, read in Chromium through the front at a phone's and a laptop's width. */
describe('uploaded images in Chromium', { skip }, () => {
  let stack: Stack;
  const chromium = chromiumForSuite();

  before(async () => {
    stack = await startStack();
    const srcs: string[] = [];
    for (const quality of [80, 81, 82]) {
      const body = new Uint8Array(await photoJpeg(2400, 1800, { quality }));
      const response = await fetch(`${stack.originUrl}/api/v1/images`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body });
      assert.equal(response.status, 201);
      srcs.push(((await response.json()) as { src: string }).src);
    }
    const text = 'A paragraph long enough to push the next picture below the fold of a phone. '.repeat(12);
    const body = srcs.map((src, i) => `## Picture ${i + 1}\n\n${text}\n\n![Picture number ${i + 1}](${src})`).join('\n\n');
    const post = { title: 'Three pictures', format: 'markdown', body, summary: 'S', categories: ['Web'], pub_date: '2026-11-20' };
    assert.equal((await adminRequest(stack, 'PUT', '/api/v1/plog/three-pictures', post)).status, 201);
  });
  after(() => stack?.close());

  /** Opens the post at `width`×800 and density `dpr`, scrolls to its end and answers the image files it fetched. */
  const read = async (width: number, dpr: number, check?: (page: Page) => Promise<void>): Promise<Fetched> => {
    const context = chromium.context;
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setDeviceMetricsOverride', { width, height: 800, deviceScaleFactor: dpr, mobile: false });
    const fetched: Fetched = { names: [], bytes: 0 };
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (!url.pathname.startsWith('/_render/image/')) return;
      fetched.names.push(url.pathname.replace(/^.*-/, ''));
      fetched.bytes += Number(response.headers()['content-length'] ?? 0);
    });
    try {
      await page.goto(`${stack.frontUrl}/plog/three-pictures`, { waitUntil: 'load' });
      await check?.(page);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await eventually('every picture loaded', () => page.evaluate(() => [...document.images].every((image) => image.complete && image.naturalWidth > 0)), 5_000);
      return fetched;
    } finally {
      await page.close();
    }
  };

  it('fetches the 480 px WebP of each picture on a 390 px phone, and the later ones only when scrolled to', async () => {
    const fetched = await read(390, 1, async (page) => {
      // Before scrolling: the pictures below the fold are not fetched yet, and each holds its box already.
      const boxes = await page.evaluate(() => [...document.images].map((image) => [image.getBoundingClientRect().width, image.getBoundingClientRect().height, image.alt]));
      for (const [boxWidth, boxHeight, alt] of boxes as [number, number, string][]) {
        assert.ok(Math.abs(boxHeight - (boxWidth * 3) / 4) <= 1, `${alt}: ${boxWidth}×${boxHeight} keeps the 4:3 box before it loads`);
        assert.match(alt, /^Picture number \d$/);
      }
      assert.ok((await page.evaluate(() => [...document.images].filter((image) => image.complete && image.naturalWidth > 0).length)) < 3, 'lazy');
    });
    assert.deepEqual(fetched.names.sort(), ['480.webp', '480.webp', '480.webp']);
  });

  it('fetches the 960 px WebP on a 1280 px laptop and the 1600 px one at twice the density', async () => {
    assert.deepEqual((await read(1280, 1)).names, ['960.webp', '960.webp', '960.webp']);
    assert.deepEqual((await read(1280, 2)).names, ['1600.webp', '1600.webp', '1600.webp']);
  });
});
