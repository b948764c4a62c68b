import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import sharp from 'sharp';
import { isAppError } from '../../errors.js';
import { processImage } from './process.js';
import { animatedGif, photoJpeg, solidPng, solidWebp } from './test-support/fixtures.js';

const HASH = 'a'.repeat(32);
const OPTIONS = { widths: [480, 960, 1600], maxPixels: 4_000_000 };

describe('processImage', () => {
  let samples: Buffer[] = [];
  before(async () => {
    samples = await Promise.all([photoJpeg(64, 48), solidPng(40, 30, true), animatedGif(32, 24, 2), solidWebp(30, 20)]);
  });

  it('keeps an AVIF as WebP and JPEG, and PNG when it is transparent', async () => {
    const opaque = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#3a6' } }).avif({ quality: 50 }).toBuffer();
    const clear = await sharp({ create: { width: 60, height: 40, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } } }).avif().toBuffer();
    const a = await processImage(opaque, HASH, OPTIONS);
    assert.deepEqual([a.type, a.formats, a.widths, a.width, a.height], ['avif', ['webp', 'jpg'], [480, 600], 600, 400]);
    assert.deepEqual(a.files.map((file) => file.name), [`${HASH}-480.webp`, `${HASH}-480.jpg`, `${HASH}-600.webp`, `${HASH}-600.jpg`]);
    assert.deepEqual((await processImage(clear, HASH, OPTIONS)).formats, ['webp', 'png']);
  });

  it('answers files or a 4xx AppError, never anything else, when given damaged images (property)', async () => {
    const damage = fc.record({
      sample: fc.nat({ max: 3 }),
      cut: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
      flips: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
      tail: fc.uint8Array({ maxLength: 64 }),
    });
    await fc.assert(
      fc.asyncProperty(damage, async ({ sample, cut, flips, tail }) => {
        const source = samples[sample]!;
        const bytes = Buffer.from(source.subarray(0, cut === null ? source.length : Math.floor(cut * source.length)));
        for (const [at, value] of flips) if (bytes.length > 0) bytes[Math.floor(at * bytes.length)] = value;
        const damaged = Buffer.concat([bytes, tail]);
        try {
          const image = await processImage(damaged, HASH, OPTIONS);
          assert.ok(image.files.length > 0);
        } catch (error) {
          assert.ok(isAppError(error) && error.status >= 400 && error.status < 500, String(error));
        }
      }),
      { numRuns: 80 },
    );
  });
});
