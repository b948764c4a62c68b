import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ERRORS } from '../../error-codes.js';
import type { OriginDatabase } from '../database.js';
import { HASH_LENGTH, imageFileName, imageOfUrl, parseImageName, type ImageFormat } from './names.js';
import { processImage } from './process.js';
import { responsiveImage, type ResponsiveImage, type StoredImage } from './responsive.js';

export interface ImageOptions {
  /** Folder the files are written to and served from (`DATA_DIR/images`); made when missing. */
  dir: string;
  /** Largest upload read, in bytes (`IMAGE_MAX_BYTES`). @default 20971520 (20 MiB) */
  maxBytes?: number;
  /** Most pixels an upload may decode to, every frame counted (`IMAGE_MAX_PIXELS`). @default 40000000 */
  maxPixels?: number;
  /** Widths written, never above the image's own. @default [480, 960, 1600] */
  widths?: readonly number[];
  /** Uploads processed at once; sharp runs each on its own threads. @default 2 */
  concurrency?: number;
  /** Uploads waiting for their turn; one more is refused with 503 IMAGES_BUSY. @default 8 */
  maxWaiting?: number;
}

export const IMAGE_DEFAULTS = {
  maxBytes: 20 * 1024 * 1024,
  maxPixels: 40_000_000,
  widths: [480, 960, 1600],
  concurrency: 2,
  maxWaiting: 8,
} as const satisfies Omit<Required<ImageOptions>, 'dir'>;

/**
 * Raised whenever processing changes what a file of some upload holds (widths, quality, encoders): it is part of every
 * hash, so a new processing writes new names and no cache anywhere keeps an old file under a name it reuses.
 */
const PROCESSING_VERSION = 1;

/** What an upload answers: where its widest file is, its size and the Markdown that shows it. */
export interface UploadedImage extends StoredImage {
  src: string;
  markdown: string;
}

interface ImageRow {
  hash: string;
  widths: string;
  formats: string;
  width: number;
  height: number;
}

const toStored = (row: ImageRow): StoredImage => ({
  hash: row.hash,
  widths: JSON.parse(row.widths) as number[],
  formats: JSON.parse(row.formats) as ImageFormat[],
  width: row.width,
  height: row.height,
});

/** The rows of the `images` table by hash, for the Markdown renderer: reads only, so any store on the database can. */
export function imageLookup(db: OriginDatabase): (src: string) => ResponsiveImage | undefined {
  const byHash = db.prepare<[string], ImageRow>(`SELECT hash, widths, formats, width, height FROM images WHERE hash = ?`);
  return (src) => {
    const name = imageOfUrl(src);
    const row = name === undefined ? undefined : byHash.get(name.hash);
    return row === undefined ? undefined : responsiveImage(toStored(row));
  };
}

/** Hands out at most `concurrency` turns at once, queues `maxWaiting` more and refuses the rest. */
class Turns {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly concurrency: number, private readonly maxWaiting: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) throw ERRORS.IMAGES_BUSY();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.running--;
      else next();
    }
  }
}

/** The uploaded images: their files under `dir` and their rows in the origin's database. */
export class ImageLibrary {
  readonly dir: string;
  readonly maxBytes: number;
  private readonly maxPixels: number;
  private readonly widths: readonly number[];
  private readonly turns: Turns;
  private readonly statements;

  constructor(private readonly db: OriginDatabase, options: ImageOptions) {
    this.dir = options.dir;
    this.maxBytes = options.maxBytes ?? IMAGE_DEFAULTS.maxBytes;
    this.maxPixels = options.maxPixels ?? IMAGE_DEFAULTS.maxPixels;
    this.widths = options.widths ?? IMAGE_DEFAULTS.widths;
    this.turns = new Turns(options.concurrency ?? IMAGE_DEFAULTS.concurrency, options.maxWaiting ?? IMAGE_DEFAULTS.maxWaiting);
    mkdirSync(this.dir, { recursive: true });
    this.statements = {
      get: db.prepare<[string], ImageRow>(`SELECT hash, widths, formats, width, height FROM images WHERE hash = ?`),
      insert: db.prepare(
        `INSERT OR IGNORE INTO images (hash, type, widths, formats, width, height, bytes, created_at)
         VALUES (@hash, @type, @widths, @formats, @width, @height, @bytes, @created_at)`,
      ),
    };
  }

  /**
   * Stores an upload (processImage) and answers it; an image uploaded before answers as it is, unprocessed
   * (`created: false`). Files are written under temporary names and renamed, so a file that has its name is whole.
   */
  async upload(bytes: Buffer): Promise<{ image: UploadedImage; created: boolean }> {
    const hash = createHash('sha256').update(`sitestack-image-${PROCESSING_VERSION}\n`).update(bytes).digest('hex').slice(0, HASH_LENGTH);
    const known = this.statements.get.get(hash);
    if (known !== undefined) return { image: this.answer(toStored(known)), created: false };
    const processed = await this.turns.run(() => processImage(bytes, hash, { widths: this.widths, maxPixels: this.maxPixels }));
    await Promise.all(
      processed.files.map(async (file) => {
        const temporary = join(this.dir, `.${randomBytes(8).toString('hex')}.tmp`);
        await writeFile(temporary, file.bytes);
        await rename(temporary, join(this.dir, file.name)).catch(async (error: unknown) => {
          await unlink(temporary).catch(() => undefined);
          throw error;
        });
      }),
    );
    const stored: StoredImage = { hash, widths: processed.widths, formats: processed.formats, width: processed.width, height: processed.height };
    this.statements.insert.run({
      hash,
      type: processed.type,
      widths: JSON.stringify(stored.widths),
      formats: JSON.stringify(stored.formats),
      width: stored.width,
      height: stored.height,
      bytes: processed.files.reduce((sum, file) => sum + file.bytes.length, 0),
      created_at: Date.now(),
    });
    return { image: this.answer(stored), created: true };
  }

  /**
   * The path and size of a stored file by its name, or undefined: the name must pass the name rule (so the path is
   * inside `dir`), belong to an image of the table and be one of the widths and formats written for it.
   */
  async file(name: string): Promise<{ path: string; size: number; format: ImageFormat } | undefined> {
    const parsed = parseImageName(name);
    const row = parsed === undefined ? undefined : this.statements.get.get(parsed.hash);
    if (parsed === undefined || row === undefined) return undefined;
    const image = toStored(row);
    if (!image.widths.includes(parsed.width) || !image.formats.includes(parsed.format)) return undefined;
    const path = join(this.dir, imageFileName(parsed));
    const found = await stat(path).catch(() => undefined);
    return found?.isFile() === true ? { path, size: found.size, format: parsed.format } : undefined;
  }

  private answer(image: StoredImage): UploadedImage {
    const { src } = responsiveImage(image);
    return { ...image, src, markdown: `![](${src})` };
  }
}
