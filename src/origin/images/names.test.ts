import assert from 'node:assert/strict';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { imageFileName, imageOfUrl, parseImageName, sniffImageType, widthsFor } from './names.js';
import { POST_IMAGE_SIZES, responsiveImage } from './responsive.js';

const HASH = '0123456789abcdef0123456789abcdef';
const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 });

describe('parseImageName', () => {
  it('reads a name of ours back into its parts when it is exactly one', () => {
    fc.assert(
      fc.property(hex, fc.integer({ min: 1, max: 16_383 }), fc.constantFrom('jpg' as const, 'png' as const, 'gif' as const, 'webp' as const), (hash, width, format) => {
        const name = imageFileName({ hash, width, format });
        assert.deepEqual(parseImageName(name), { hash, width, format });
      }),
    );
  });

  it('accepts only names whose file lies directly inside the image folder, whatever the string', () => {
    const folder = resolve('/data/images');
    const pieces = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.constantFrom('..', '/', '\\', '%2F', '%2e%2e', '\u0000', '.', `${HASH}-480.jpg`, '-480', '.webp', 'Ｃ', '\u202e', '０'),
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 6 }).map((parts) => parts.join('')), (name) => {
        if (parseImageName(name) === undefined) return;
        const path = join(folder, name);
        assert.equal(relative(folder, path), name);
        assert.match(name, /^[0-9a-f]{32}-[1-9]\d*\.(?:jpg|png|gif|webp)$/);
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses hostile and near-miss names when they are not exactly one of ours', () => {
    for (const name of [
      '', '..', `../${HASH}-480.jpg`, `${HASH}-480.jpg/..`, `${HASH}-480.jpg%00`, `${HASH}-480.JPG`, `${HASH.toUpperCase()}-480.jpg`,
      `${HASH}-0480.jpg`, `${HASH}-0.jpg`, `${HASH}-99999.jpg`, `${HASH}-480.svg`, `${HASH}-480.jpg.svg`, `${HASH}480.jpg`, `${HASH.slice(1)}-480.jpg`,
      `${HASH}-480.jpeg`, `${HASH}-480.avif`, `${HASH}-４８０.jpg`, `${HASH}-480.jpg\n`, ` ${HASH}-480.jpg`, `${HASH}%2F-480.jpg`,
    ]) {
      assert.equal(parseImageName(name), undefined, JSON.stringify(name));
    }
  });

  it('finds a file from its URL only under the image prefix', () => {
    assert.deepEqual(imageOfUrl(`/_render/image/${HASH}-960.webp`), { hash: HASH, width: 960, format: 'webp' });
    for (const url of [`/_render/images/${HASH}-960.webp`, `https://evil.example/_render/image/${HASH}-960.webp`, `//_render/image/${HASH}-960.webp`, `/_render/image/x/${HASH}-960.webp`]) {
      assert.equal(imageOfUrl(url), undefined, url);
    }
  });
});

describe('sniffImageType', () => {
  it('tells each format by its first bytes and refuses the rest', () => {
    const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));
    assert.equal(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0])), 'jpeg');
    assert.equal(sniffImageType(bytes([0x89], 'PNG\r\n\x1a\n')), 'png');
    assert.equal(sniffImageType(bytes('GIF89a')), 'gif');
    assert.equal(sniffImageType(bytes('GIF87a')), 'gif');
    assert.equal(sniffImageType(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 ')), 'webp');
    assert.equal(sniffImageType(bytes([0, 0, 0, 28], 'ftypavif')), 'avif');
    for (const refused of ['<svg xmlns="http://www.w3.org/2000/svg"/>', '<?xml version="1.0"?><svg/>', 'II*\x00', 'MM\x00*', '<html>', '', 'GIF8', 'RIFF\x00\x00\x00\x00WAVE', '\x00\x00\x00\x18ftypheic']) {
      assert.equal(sniffImageType(Buffer.from(refused, 'latin1')), undefined, JSON.stringify(refused));
    }
  });
});

describe('widthsFor', () => {
  it('keeps the widths narrower than the image and never enlarges it', () => {
    const widths = [480, 960, 1600];
    assert.deepEqual(widthsFor(4000, widths), [480, 960, 1600]);
    assert.deepEqual(widthsFor(1600, widths), [480, 960, 1600]);
    assert.deepEqual(widthsFor(1200, widths), [480, 960, 1200]);
    assert.deepEqual(widthsFor(300, widths), [300]);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20_000 }), fc.array(fc.integer({ min: 1, max: 5_000 }), { minLength: 1, maxLength: 5 }), (width, asked) => {
        const kept = widthsFor(width, asked);
        assert.ok(kept.length >= 1);
        assert.ok(kept.every((w) => w <= width && w <= Math.max(...asked)));
        assert.deepEqual(kept, [...new Set(kept)].sort((a, b) => a - b));
        assert.equal(kept[kept.length - 1], Math.min(width, Math.max(...asked)));
      }),
    );
  });
});

describe('responsiveImage', () => {
  it('offers WebP first and the upload\'s own format as the fallback, at every width', () => {
    const image = responsiveImage({ hash: HASH, widths: [480, 960, 1600], formats: ['webp', 'jpg'], width: 1600, height: 1200 });
    assert.deepEqual(image, {
      src: `/_render/image/${HASH}-1600.jpg`,
      srcset: `/_render/image/${HASH}-480.jpg 480w, /_render/image/${HASH}-960.jpg 960w, /_render/image/${HASH}-1600.jpg 1600w`,
      sizes: POST_IMAGE_SIZES,
      width: 1600,
      height: 1200,
      sources: [{ type: 'image/webp', srcset: `/_render/image/${HASH}-480.webp 480w, /_render/image/${HASH}-960.webp 960w, /_render/image/${HASH}-1600.webp 1600w` }],
    });
    assert.deepEqual(responsiveImage({ hash: HASH, widths: [300], formats: ['webp'], width: 300, height: 200 }).sources, []);
  });
});
