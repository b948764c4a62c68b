import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { silentLogger } from '../../log.js';
import { createOriginApp } from '../app.js';
import { openOriginDatabase, type OriginDatabase } from '../database.js';
import { AccountStore } from '../desk/index.js';
import { DeskClient, TEST_SCRYPT } from '../desk/test-support/desk-client.js';
import { animatedGif, photoJpeg, pngBomb, SCRIPTED_SVG, solidPng, solidWebp } from './test-support/fixtures.js';

const TOKEN = 'images-admin-token';
const PASSWORD = 'a long enough pass phrase';
const MAX_BYTES = 2 * 1024 * 1024;
const MAX_PIXELS = 30_000_000;

interface Uploaded {
  src: string;
  width: number;
  height: number;
  markdown: string;
  hash: string;
  widths: number[];
  formats: string[];
}

describe('image uploads', () => {
  let db: OriginDatabase;
  let base: string;
  let dir: string;
  let close: () => Promise<void>;
  let desk: DeskClient;
  let csrf: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitestack-images-'));
    db = openOriginDatabase(':memory:', { seed: false });
    const app = await createOriginApp({
      db,
      logger: silentLogger(),
      adminToken: TOKEN,
      desk: { scrypt: TEST_SCRYPT },
      images: { dir: join(dir, 'images'), maxBytes: MAX_BYTES, maxPixels: MAX_PIXELS, concurrency: 1, maxWaiting: 2 },
    });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    close = async () => {
      await app.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    };
    await new AccountStore(db, TEST_SCRYPT).addUser('alice', PASSWORD);
    desk = new DeskClient(base);
    assert.equal((await desk.login('alice', PASSWORD)).status, 303);
    csrf = await desk.sessionToken();
  });
  after(() => close());

  const api = (body: Buffer | string, type = 'application/octet-stream') =>
    fetch(`${base}/api/v1/images`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': type }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  const deskUpload = (body: Buffer, headers: Record<string, string> = {}) =>
    desk.request('/admin/images', { method: 'POST', body: body as unknown as string, headers: { 'content-type': 'image/jpeg', 'x-csrf-token': csrf, origin: base, ...headers } });
  const file = (name: string) => fetch(`${base}/api/v1/images/${name}`);
  const refusal = async (response: Response, status: number, code: string) => {
    const body = (await response.json()) as { code: string; error: string };
    assert.equal(response.status, status, body.error);
    assert.equal(body.code, code);
    return body.error;
  };

  it('stores a JPEG at three widths in WebP and JPEG and answers its src, size and Markdown when uploaded from the desk', async () => {
    const response = await deskUpload(await photoJpeg(2000, 1500));
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const image = (await response.json()) as Uploaded;
    assert.match(image.src, /^\/_render\/image\/[0-9a-f]{32}-1600\.jpg$/);
    assert.deepEqual([image.width, image.height, image.widths, image.formats], [1600, 1200, [480, 960, 1600], ['webp', 'jpg']]);
    assert.equal(image.markdown, `![](${image.src})`);
    const names = readdirSync(join(dir, 'images')).filter((name) => name.startsWith(image.hash)).sort();
    assert.deepEqual(names, ['-1600.jpg', '-1600.webp', '-480.jpg', '-480.webp', '-960.jpg', '-960.webp'].map((end) => `${image.hash}${end}`));
    for (const name of names) {
      const served = await file(name);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), name.endsWith('.webp') ? 'image/webp' : 'image/jpeg');
      assert.equal(served.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
      const bytes = Buffer.from(await served.arrayBuffer());
      assert.equal(served.headers.get('content-length'), String(bytes.length));
      const { width } = await sharp(bytes).metadata();
      assert.equal(width, Number(/-(\d+)\./.exec(name)?.[1]));
    }
  });

  it('answers the same image again without processing it when it was uploaded before', async () => {
    const bytes = await photoJpeg(640, 480);
    const first = (await (await api(bytes)).json()) as Uploaded;
    const again = await api(bytes);
    assert.equal(again.status, 200);
    assert.deepEqual(await again.json(), first);
    assert.deepEqual(first.widths, [480, 640]);
  });

  it('turns a photo upright by its EXIF orientation and strips EXIF and GPS when it has them', async () => {
    const bytes = await photoJpeg(800, 400, { orientation: 6, gps: true });
    const source = await sharp(bytes).metadata();
    assert.equal(source.orientation, 6);
    assert.ok(source.exif !== undefined && source.exif.includes(Buffer.from('TestCam')));
    const image = (await (await api(bytes)).json()) as Uploaded;
    assert.deepEqual([image.width, image.height], [400, 800]);
    for (const format of ['jpg', 'webp']) {
      const served = Buffer.from(await (await file(`${image.hash}-400.${format}`)).arrayBuffer());
      const metadata = await sharp(served).metadata();
      assert.deepEqual([metadata.width, metadata.height, metadata.orientation ?? 1], [400, 800, 1]);
      assert.equal(metadata.exif, undefined);
      assert.equal(metadata.xmp, undefined);
      assert.ok(!served.includes(Buffer.from('TestCam')));
    }
  });

  it('keeps PNG, WebP and animated GIF in their own format, and GIF moving, when given them', async () => {
    const png = (await (await api(await solidPng(300, 200, true), 'image/png')).json()) as Uploaded;
    assert.deepEqual([png.formats, png.widths, png.width, png.height], [['webp', 'png'], [300], 300, 200]);
    const webp = (await (await api(await solidWebp(500, 250), 'image/webp')).json()) as Uploaded;
    assert.deepEqual([webp.formats, webp.widths, webp.src.endsWith('-500.webp')], [['webp'], [480, 500], true]);
    const gif = (await (await api(await animatedGif(600, 300, 3), 'image/gif')).json()) as Uploaded;
    assert.deepEqual([gif.formats, gif.widths, gif.width, gif.height], [['webp', 'gif'], [480, 600], 600, 300]);
    for (const format of ['gif', 'webp']) {
      const served = Buffer.from(await (await file(`${gif.hash}-480.${format}`)).arrayBuffer());
      const metadata = await sharp(served, { animated: true }).metadata();
      assert.deepEqual([metadata.pages, metadata.width, metadata.pageHeight], [3, 480, 240], format);
    }
  });

  it('tells the type by the bytes and refuses SVG, HTML, text and empty bodies whatever their name or Content-Type says', async () => {
    await refusal(await api(SCRIPTED_SVG, 'image/svg+xml'), 415, 'IMAGE_TYPE_REFUSED');
    await refusal(await api(SCRIPTED_SVG, 'image/png'), 415, 'IMAGE_TYPE_REFUSED');
    await refusal(await api('<html><script>alert(1)</script></html>', 'image/jpeg'), 415, 'IMAGE_TYPE_REFUSED');
    await refusal(await api(Buffer.alloc(0), 'image/jpeg'), 415, 'IMAGE_TYPE_REFUSED');
    await refusal(await api('{"image":"x"}', 'application/json'), 415, 'IMAGE_TYPE_REFUSED');
    await refusal(await api('a=1', 'application/x-www-form-urlencoded'), 415, 'IMAGE_TYPE_REFUSED');
    await refusal(await api('😀 漢字 \u202e', 'text/plain; charset=utf-8'), 415, 'IMAGE_TYPE_REFUSED');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await photoJpeg(32, 32))], { type: 'image/jpeg' }), 'photo.jpg');
    const multipart = await fetch(`${base}/api/v1/images`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: form });
    assert.match(await refusal(multipart, 415, 'IMAGE_TYPE_REFUSED'), /first bytes/);
  });

  it('takes the bytes whatever the Content-Type says, even none or a hostile one', async () => {
    const bytes = new Uint8Array(await photoJpeg(48, 32));
    for (const type of [undefined, 'image/svg+xml', 'text/html', 'image/jpeg; name="../../x.svg"; q=\u00ff']) {
      const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}`, ...(type === undefined ? {} : { 'content-type': type }) };
      const response = await fetch(`${base}/api/v1/images`, { method: 'POST', headers, body: bytes });
      assert.ok(response.status === 201 || response.status === 200, `${type}: ${response.status}`);
    }
  });

  it('refuses a file that starts like an image but is not one, or is cut short', async () => {
    const jpeg = await photoJpeg(400, 300);
    assert.match(await refusal(await api(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('not a jpeg at all')])), 400, 'IMAGE_UNREADABLE'), /jpeg image cannot be read/);
    await refusal(await api(jpeg.subarray(0, 600)), 400, 'IMAGE_UNREADABLE');
    const png = await solidPng(40, 40);
    await refusal(await api(Buffer.concat([png.subarray(0, 8), Buffer.from('garbage'.repeat(20))])), 400, 'IMAGE_UNREADABLE');
  });

  it('refuses a decompression bomb by its header before decoding it', async () => {
    const bomb = await pngBomb(30_000, 30_000);
    assert.ok(bomb.length < 2_000, `${bomb.length} bytes`);
    const started = performance.now();
    assert.match(await refusal(await api(bomb, 'image/png'), 413, 'IMAGE_TOO_MANY_PIXELS'), /30000×30000 pixels, more than the 30000000 allowed/);
    assert.ok(performance.now() - started < 2_000);
    // Every frame of an animation counts.
    await refusal(await api(await animatedGif(2_000, 2_000, 8), 'image/gif'), 413, 'IMAGE_TOO_MANY_PIXELS');
  });

  it('refuses a body over IMAGE_MAX_BYTES with 413 naming the limit', async () => {
    const big = Buffer.concat([await photoJpeg(64, 64), Buffer.alloc(MAX_BYTES)]);
    assert.match(await refusal(await api(big), 413, 'IMAGE_TOO_LARGE'), new RegExp(`${MAX_BYTES} bytes`));
  });

  it('refuses a desk upload without a session, without the token or from another site, before reading the body', async () => {
    const bytes = await photoJpeg(64, 64);
    const stranger = new DeskClient(base);
    assert.equal((await stranger.request('/admin/images', { method: 'POST', body: bytes as unknown as string, headers: { 'content-type': 'image/jpeg' } })).status, 401);
    const wrongToken = await deskUpload(bytes, { 'x-csrf-token': 'wrong' });
    assert.equal(wrongToken.status, 403);
    assert.equal(((await wrongToken.json()) as { code: string }).code, 'DESK_CSRF', 'a script reads JSON errors');
    assert.equal((await deskUpload(bytes, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status, 403);
    const noToken = await fetch(`${base}/api/v1/images`, { method: 'POST', body: new Uint8Array(bytes) });
    assert.equal(noToken.status, 401);
    const wrongBearer = await fetch(`${base}/api/v1/images`, { method: 'POST', headers: { authorization: 'Bearer nope' }, body: new Uint8Array(bytes) });
    assert.equal(wrongBearer.status, 403);
  });

  it('answers 404 for unknown, hostile and near-miss file names, never a file outside the folder', async () => {
    const image = (await (await api(await photoJpeg(500, 500))).json()) as Uploaded;
    for (const name of [
      `${image.hash}-960.jpg`, `${image.hash}-480.png`, `${'f'.repeat(32)}-480.jpg`, '..%2F..%2Fetc%2Fpasswd', '%2e%2e', 'origin.sqlite', `..%2F${image.hash}-480.jpg`,
      `${image.hash}-480.jpg%00`, encodeURIComponent('ÿ'.repeat(10)), `${image.hash.toUpperCase()}-480.jpg`, `.${image.hash}-480.jpg`, 'x'.repeat(190),
    ]) {
      const response = await file(name);
      assert.equal(response.status, 404, name);
    }
    assert.equal((await fetch(`${base}/api/v1/images/../../../etc/passwd`)).status, 404);
    assert.equal((await file(`${image.hash}-480.jpg`)).status, 200);
  });

  it('serves the files under /_render/image/ too, for the desk\'s preview on the origin', async () => {
    const image = (await (await api(await photoJpeg(400, 300))).json()) as Uploaded;
    const direct = await fetch(`${base}${image.src}`);
    assert.equal(direct.status, 200);
    assert.equal(direct.headers.get('content-type'), 'image/jpeg');
    assert.equal((await fetch(`${base}/_render/image/${'f'.repeat(32)}-400.jpg`)).status, 404);
    assert.equal((await fetch(`${base}/_render/image/..%2Forigin.sqlite`)).status, 404);
  });

  it('answers 304 to a request naming the file\'s ETag', async () => {
    const image = (await (await api(await photoJpeg(300, 300))).json()) as Uploaded;
    const name = `${image.hash}-300.webp`;
    const first = await file(name);
    const etag = first.headers.get('etag') ?? '';
    assert.equal(etag, `"${name}"`);
    const again = await fetch(`${base}/api/v1/images/${name}`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  it('refuses uploads past its queue with 503 while others are processed', async () => {
    const photos = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => photoJpeg(1200 + i, 900)));
    const statuses = (await Promise.all(photos.map((photo) => api(photo)))).map((response) => response.status).sort();
    assert.ok(statuses.includes(201), statuses.join());
    assert.ok(statuses.includes(503), statuses.join());
    assert.ok(statuses.every((status) => status === 201 || status === 503), statuses.join());
  });
});
