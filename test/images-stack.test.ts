import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { nginxForTests } from '../src/edge/test-support/edge-harness.js';
import { silentLogger } from '../src/log.js';
import { AccountStore, openOriginDatabase } from '../src/origin/index.js';
import { DeskClient, TEST_SCRYPT } from '../src/origin/desk/test-support/desk-client.js';
import { photoJpeg } from '../src/origin/images/test-support/fixtures.js';
import { startFront, type RunningFront } from '../src/server/front-command.js';
import { rawGet, reached } from './support/raw-get.js';
import { adminAt, eventually, startEdgeAndOrigin, type EdgeAndOrigin } from './support/stack.js';

const { nginx, skip } = nginxForTests();
const PASSWORD = 'images across the stack';

/** Every URL of every `srcset` (and `src`) on a page, once. */
function imageUrls(html: string): string[] {
  const urls = [...html.matchAll(/\b(?:srcset|src)="([^"]+)"/g)].flatMap((match) => match[1]!.split(',').map((candidate) => candidate.trim().split(/\s+/)[0]!));
  return [...new Set(urls.filter((url) => url.startsWith('/_render/image/')))];
}

/** An image uploaded at the desk, put in a Markdown post, read through the real front and the real nginx edge. */
describe('images from the desk to the reader', { skip }, () => {
  let layers: EdgeAndOrigin;
  let front: RunningFront | undefined;
  let src: string;

  before(async () => {
    layers = await startEdgeAndOrigin(nginx!);
    front = await startFront({ config: layers.config, logger: silentLogger() });
    const db = openOriginDatabase(join(layers.config.dataDir, 'origin.sqlite'), { seed: false });
    await new AccountStore(db, TEST_SCRYPT).addUser('editor', PASSWORD);
    db.close();
  });
  after(async () => {
    await front?.close();
    await layers?.close();
  });

  it('uploads an image at the desk and answers its src, size and Markdown', async () => {
    const desk = new DeskClient(layers.origin.url);
    assert.equal((await desk.login('editor', PASSWORD)).status, 303);
    const token = await desk.sessionToken();
    const response = await desk.request('/admin/images', {
      method: 'POST',
      body: (await photoJpeg(2400, 1600, { orientation: 1, gps: true })) as unknown as string,
      headers: { 'content-type': 'image/jpeg', 'x-csrf-token': token, origin: layers.origin.url, 'sec-fetch-site': 'same-origin' },
    });
    assert.equal(response.status, 201);
    const image = (await response.json()) as { src: string; width: number; height: number; markdown: string };
    assert.deepEqual([image.width, image.height], [1600, 1067]);
    src = image.src;
  });

  it('renders the post\'s image with srcset, sizes, width, height, lazy loading and its alt text, through the front and the edge', async () => {
    const post = { title: 'A post with a picture', format: 'markdown', body: `# Look\n\n![A blurred gradient](${src})`, summary: 'S', categories: ['Web'], pub_date: '2026-11-20' };
    assert.equal((await adminAt(layers.origin.url, 'PUT', '/api/v1/plog/with-image', post)).status, 201);
    for (const base of [front!.url, layers.edge.url]) {
      let html = '';
      await eventually('the post with its image', async () => {
        html = (await rawGet(base, '/plog/with-image')).body;
        return html.includes('<picture>');
      }, 3_000);
      assert.match(html, /<picture><source type="image\/webp" srcset="[^"]+-480\.webp 480w, [^"]+-960\.webp 960w, [^"]+-1600\.webp 1600w" sizes="[^"]+" \/>/);
      assert.match(html, /<img src="\/_render\/image\/[0-9a-f]{32}-1600\.jpg" srcset="[^"]+ 480w, [^"]+ 960w, [^"]+ 1600w" sizes="\(max-width: 46rem\) calc\(100vw - 2rem\), 44rem" width="1600" height="1067" alt="A blurred gradient" loading="lazy" decoding="async" \/>/);
      assert.equal(imageUrls(html).length, 6);
    }
  });

  it('serves every file of the srcsets through the front as immutable images', async () => {
    const html = (await rawGet(front!.url, '/plog/with-image')).body;
    for (const url of imageUrls(html)) {
      const response = await fetch(`${front!.url}${url}`);
      assert.equal(response.status, 200, url);
      assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(response.headers.get('content-type'), url.endsWith('.webp') ? 'image/webp' : 'image/jpeg');
      assert.equal(response.headers.get('x-middleware-cache'), null, 'the page cache passes images by');
      const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      assert.equal(metadata.width, Number(/-(\d+)\.\w+$/.exec(url)?.[1]));
      assert.equal(metadata.exif, undefined, 'no EXIF, no GPS');
    }
  });

  it('keeps every file at the edge: the second request is a HIT', async () => {
    const html = (await rawGet(front!.url, '/plog/with-image')).body;
    for (const url of imageUrls(html)) {
      const first = await fetch(`${layers.edge.url}${url}`, { headers: { 'accept-encoding': 'gzip, br' } });
      assert.equal(first.status, 200, url);
      assert.equal(first.headers.get('x-cache'), 'MISS', url);
      const bytes = Buffer.from(await first.arrayBuffer());
      const second = await fetch(`${layers.edge.url}${url}`);
      assert.equal(second.headers.get('x-cache'), 'HIT', `${url}: one copy whatever the coding`);
      assert.equal(second.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.deepEqual(Buffer.from(await second.arrayBuffer()), bytes);
    }
  });

  it('answers 404 for unknown and hostile names at the front and the edge, and stores none of them', async () => {
    const known = /\/_render\/image\/([0-9a-f]{32})/.exec(src)?.[1] ?? '';
    for (const base of [front!.url, layers.edge.url]) {
      for (const target of [
        `/_render/image/${'f'.repeat(32)}-480.jpg`, '/_render/image/..%2F..%2Forigin.sqlite', `/_render/image/${known}-480.svg`,
        '/_render/image/%E2%80%AE', `/_render/image/${known}-480.jpg%00`, `/_render/image/${known}-4800.jpg`,
      ]) {
        const answer = await rawGet(base, target);
        // nginx refuses an escaped NUL itself (400); the front answers every other 404.
        assert.ok([400, 404].includes(answer.status), `${base} ${target}: ${answer.status}`);
        assert.doesNotMatch(answer.body, /SQLite format/);
        if (base === layers.edge.url) assert.notEqual((await rawGet(base, target)).headers['x-cache'], 'HIT', target);
      }
      // Other spellings are sent to their canonical one first, which names no file either.
      for (const target of ['/_render/image/../../origin.sqlite', '/_render/image/%2e%2e%2forigin.sqlite', '/_render/image/', `/_render/image/${known}-480.jpg?x=1`]) {
        const { first, last } = await reached(base, target);
        assert.ok([301, 400, 404].includes(first.status), `${base} ${target}: ${first.status}`);
        assert.ok(last.status !== 200 || last.headers['content-type'] === 'image/jpeg', `${base} ${target}: ${last.status}`);
        assert.doesNotMatch(last.body, /SQLite format/);
      }
    }
  });
});
