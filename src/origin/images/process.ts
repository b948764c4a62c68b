import type { default as SharpFunction, Metadata, Sharp } from 'sharp';
import { ERRORS } from '../../error-codes.js';
import { fallbackFormat, imageFileName, sniffImageType, widthsFor, type ImageFormat, type ImageType } from './names.js';

/*
 * An upload made into the files readers get, with sharp (libvips, on its own threads): checked by its bytes, bounded
 * in pixels before anything is decoded, turned upright by its EXIF orientation, stripped of every metadata (EXIF, GPS,
 * XMP, the camera's name) and written at a few widths in WebP and its own format.
 */

/**
 * sharp (libvips: a quarter of a second and 20 MB to load) is loaded at the first upload, not with this module: every
 * sitestack process reaches it through the origin's modules, and only the origin ever processes an image.
 */
let loading: Promise<typeof SharpFunction> | undefined;
const loadSharp = (): Promise<typeof SharpFunction> => (loading ??= import('sharp').then((module) => module.default));

export interface ProcessOptions {
  /** Widths to write (each narrower than the image, and the image's own when narrower than the widest). */
  widths: readonly number[];
  /** Most pixels decoded, every frame of an animation counted: a small file that decodes to gigabytes is refused. */
  maxPixels: number;
}

export interface ProcessedFile {
  name: string;
  bytes: Buffer;
}

export interface ProcessedImage {
  type: ImageType;
  widths: number[];
  formats: ImageFormat[];
  /** Dimensions of the widest files, upright. */
  width: number;
  height: number;
  files: ProcessedFile[];
}

/** What sharp's metadata calls each format an upload may be (AVIF is a HEIF with AV1 inside). */
const SHARP_FORMAT: Readonly<Record<ImageType, string>> = { jpeg: 'jpeg', png: 'png', gif: 'gif', webp: 'webp', avif: 'heif' };

/** Photos and screenshots look the same at these and weigh half what the encoders' top settings give. */
const ENCODE = {
  webp: (image: Sharp) => image.webp({ quality: 80 }),
  jpg: (image: Sharp) => image.jpeg({ quality: 82, mozjpeg: true }),
  png: (image: Sharp) => image.png({ compressionLevel: 9 }),
  gif: (image: Sharp) => image.gif(),
} as const satisfies Record<ImageFormat, (image: Sharp) => Sharp>;

/**
 * Longest one step of sharp may take: an image within the pixel bound that still takes longer (a pathological
 * animation) is refused rather than holding one of the upload turns for good.
 */
const STEP_TIMEOUT_SECONDS = 60;

/** sharp's message, without a path or anything long: it is shown to the editor. */
const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 200);

async function readMetadata(sharp: typeof SharpFunction, bytes: Buffer, type: ImageType, options: ProcessOptions): Promise<Metadata> {
  let metadata: Metadata;
  try {
    // Header only: nothing is decoded yet. limitInputPixels counts an animation's frames together.
    metadata = await sharp(bytes, { animated: true, limitInputPixels: false }).metadata();
  } catch (error) {
    throw ERRORS.IMAGE_UNREADABLE.with({ cause: error }, type, reason(error));
  }
  if (metadata.format !== SHARP_FORMAT[type] || (type === 'avif' && metadata.compression !== 'av1')) {
    throw ERRORS.IMAGE_UNREADABLE(type, `its contents read as ${metadata.format}${metadata.compression === undefined ? '' : ` (${metadata.compression})`}`);
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width < 1 || height < 1) throw ERRORS.IMAGE_UNREADABLE(type, 'it has no pixels');
  if (width * height > options.maxPixels) throw ERRORS.IMAGE_TOO_MANY_PIXELS(width, height, options.maxPixels);
  return metadata;
}

/**
 * Where every file of an upload is made from. A still is decoded once, turned upright and scaled to the widest file,
 * and kept as pixels, so each file costs its encoding alone; an animation is read from its bytes for each file, since
 * sharp scales its frames together only from the source.
 */
async function sourceOf(sharp: typeof SharpFunction, bytes: Buffer, animated: boolean, widest: number, maxPixels: number): Promise<() => Sharp> {
  const input = () => sharp(bytes, { animated, limitInputPixels: maxPixels, failOn: 'error' });
  if (animated) return input;
  const { data, info } = await input()
    .rotate()
    .resize({ width: widest, withoutEnlargement: true })
    .raw()
    .timeout({ seconds: STEP_TIMEOUT_SECONDS })
    .toBuffer({ resolveWithObject: true });
  return () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
}

/**
 * The files of an upload, named `<hash>-<width>.<format>`, or an AppError saying why there are none:
 * IMAGE_TYPE_REFUSED (not one of the formats, by its bytes), IMAGE_TOO_MANY_PIXELS, IMAGE_UNREADABLE (damaged, or not
 * what its first bytes say).
 */
export async function processImage(bytes: Buffer, hash: string, options: ProcessOptions): Promise<ProcessedImage> {
  const type = sniffImageType(bytes);
  if (type === undefined) throw ERRORS.IMAGE_TYPE_REFUSED(bytes.length === 0 ? 'the body is empty' : 'its first bytes are none of these');
  const sharp = await loadSharp();
  const metadata = await readMetadata(sharp, bytes, type, options);
  const frames = metadata.pages ?? 1;
  // An animation is kept moving (GIF and WebP both animate); EXIF orientation is read on stills, where cameras set it.
  const animated = frames > 1;
  const quarterTurn = !animated && (metadata.orientation ?? 1) >= 5;
  const frameHeight = animated ? (metadata.pageHeight ?? metadata.height!) : metadata.height!;
  const uprightWidth = quarterTurn ? frameHeight : metadata.width!;
  const widths = widthsFor(uprightWidth, options.widths);
  const fallback = fallbackFormat(type, metadata.hasAlpha === true);
  const formats: ImageFormat[] = fallback === 'webp' ? ['webp'] : ['webp', fallback];
  let encoded: { name: string; width: number; height: number; data: Buffer }[];
  try {
    const source = await sourceOf(sharp, bytes, animated, widths[widths.length - 1]!, options.maxPixels);
    encoded = await Promise.all(
      widths.flatMap((width) =>
        formats.map(async (format) => {
          const pipeline = ENCODE[format](source().resize({ width, withoutEnlargement: true })).timeout({ seconds: STEP_TIMEOUT_SECONDS });
          const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
          return { name: imageFileName({ hash, width, format }), width, height: info.pageHeight ?? info.height, data };
        }),
      ),
    );
  } catch (error) {
    throw ERRORS.IMAGE_UNREADABLE.with({ cause: error }, type, reason(error));
  }
  const widest = encoded.find((file) => file.width === widths[widths.length - 1]);
  return {
    type,
    widths,
    formats,
    width: widest?.width ?? uprightWidth,
    height: widest?.height ?? frameHeight,
    files: encoded.map((file) => ({ name: file.name, bytes: file.data })),
  };
}
