import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { openOriginDatabase } from '../../src/origin/database.js';
import { IMAGE_DEFAULTS, ImageLibrary, POST_IMAGE_SIZES, processImage, type ProcessedImage } from '../../src/origin/images/index.js';
import { photoJpeg } from '../../src/origin/images/test-support/fixtures.js';
import type { BenchResult, BenchSuite } from '../lib.js';

/** The upload: a 4000×3000 JPEG, as a camera or a phone makes one. */
const WIDTH = 4000;
const HEIGHT = 3000;
const RUNS = 5;
/** An upload is processed while the editor waits for its Markdown: a few seconds at most on a small server. */
const UPLOAD_BUDGET_MS = 3_000;
const ROOT_PX = 16;

/** Viewports a reader brings: a phone (390 CSS px at 1× and 3×) and a laptop (1280 px at 1× and 2×). */
const VIEWPORTS = [
  { width: 390, dpr: 1 },
  { width: 390, dpr: 3 },
  { width: 1280, dpr: 1 },
  { width: 1280, dpr: 2 },
];

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/**
 * The image's width on the page, as a browser reads POST_IMAGE_SIZES: the viewport less 2rem up to 46rem, else 44rem.
 * Kept in step with that string by the check in `run`.
 */
function slotWidth(viewport: number): number {
  return viewport <= 46 * ROOT_PX ? viewport - 2 * ROOT_PX : 44 * ROOT_PX;
}

/** The candidate a browser takes from a `w` srcset: the narrowest covering the slot at its density, else the widest. */
function chosenWidth(widths: readonly number[], needed: number): number {
  return widths.find((width) => width >= needed) ?? widths[widths.length - 1]!;
}

/** Bytes a browser that shows WebP fetches for `images` in a post at one viewport. */
function pageWeight(images: readonly ProcessedImage[], viewport: { width: number; dpr: number }): number {
  return images.reduce((sum, image) => {
    const width = chosenWidth(image.widths, slotWidth(viewport.width) * viewport.dpr);
    return sum + (image.files.find((file) => file.name.endsWith(`-${width}.webp`))?.bytes.length ?? 0);
  }, 0);
}

export const imagesSuite: BenchSuite = {
  name: 'images',
  description: `process a ${WIDTH}×${HEIGHT} JPEG upload, and the weight of a post with three images at 390 and 1280 px (issue 35)`,
  async run(): Promise<BenchResult[]> {
    if (POST_IMAGE_SIZES !== '(max-width: 46rem) calc(100vw - 2rem), 44rem') throw new Error(`slotWidth no longer follows POST_IMAGE_SIZES: ${POST_IMAGE_SIZES}`);
    const photos = await Promise.all([85, 86, 87].map((quality) => photoJpeg(WIDTH, HEIGHT, { quality })));
    const upload = photos[0]!;
    const options = { widths: IMAGE_DEFAULTS.widths, maxPixels: IMAGE_DEFAULTS.maxPixels };

    const baseline: number[] = [];
    const processing: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      baseline.push((await timed(() => sharp(upload).rotate().resize({ width: 1600 }).webp({ quality: 80 }).toBuffer())).ms);
      processing.push((await timed(() => processImage(upload, 'f'.repeat(32), options))).ms);
    }
    const avif = await timed(() => sharp(upload).rotate().resize({ width: 1600 }).avif({ quality: 50 }).toBuffer());
    const webp1600 = await sharp(upload).rotate().resize({ width: 1600 }).webp({ quality: 80 }).toBuffer();

    const dir = mkdtempSync(join(tmpdir(), 'sitestack-bench-images-'));
    const db = openOriginDatabase(':memory:', { seed: false });
    let stored: number;
    let processed: ProcessedImage[];
    try {
      const library = new ImageLibrary(db, { dir });
      stored = (await timed(() => library.upload(photos[1]!))).ms;
      processed = await Promise.all(photos.map((photo, i) => processImage(photo, String(i).repeat(32), options)));
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
    const originals = photos.reduce((sum, photo) => sum + photo.length, 0);
    const files = processed[0]!.files.map((file) => `${file.name.slice(33)} ${Math.round(file.bytes.length / 1024)} KiB`).join(', ');
    return [
      { name: 'baseline: decode + one 1600 px WebP, p50', value: median(baseline), unit: 'ms', note: `${upload.length} bytes uploaded; ${RUNS} runs` },
      {
        name: 'process an upload (3 widths × WebP + JPEG), p50',
        value: median(processing),
        unit: 'ms',
        baseline: 'baseline: decode + one 1600 px WebP, p50',
        target: { max: UPLOAD_BUDGET_MS },
        note: files,
      },
      { name: 'upload stored (processing, files, row)', value: stored, unit: 'ms' },
      {
        name: 'AVIF 1600 px, measured and not written',
        value: avif.ms,
        unit: 'ms',
        baseline: 'baseline: decode + one 1600 px WebP, p50',
        note: `${avif.value.length} bytes vs WebP's ${webp1600.length}: ${Math.round((1 - avif.value.length / webp1600.length) * 100)}% smaller`,
      },
      { name: 'post with three images: the uploads as they came', value: originals / 1024, unit: 'KiB' },
      ...VIEWPORTS.map((viewport) => ({
        name: `post with three images at ${viewport.width} px, ${viewport.dpr}x`,
        value: pageWeight(processed, viewport) / 1024,
        unit: 'KiB',
        baseline: 'post with three images: the uploads as they came',
        note: `WebP at ${chosenWidth(processed[0]!.widths, slotWidth(viewport.width) * viewport.dpr)} px each`,
      })),
    ];
  },
};
