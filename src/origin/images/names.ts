/*
 * What an uploaded image is called and where its files live: pure, shared by the origin (which stores and serves the
 * files) and the front (which proxies `/_render/image/<name>` to it). A name is the only thing a request gives, so it
 * is matched whole against one rule and never joined to a path before it has passed.
 */

/** The spec's bypass prefix for images: the page cache passes these on untouched, and the edge keeps them long. */
export const IMAGE_PREFIX = '/_render/image/';

/** Files never change under their name (it holds their content's hash): any cache may keep them for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The formats an upload may be, told by its first bytes (sniffImageType), never by its name or Content-Type. */
export const IMAGE_TYPES = ['jpeg', 'png', 'gif', 'webp', 'avif'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** The formats files are written in: an upload's own (AVIF is written as JPEG or PNG, see fallbackFormat) and WebP. */
export const IMAGE_FORMATS = ['jpg', 'png', 'gif', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export const CONTENT_TYPES: Readonly<Record<ImageFormat, string>> = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' };

/** Hex digits of an image's hash kept in its names: 128 bits, so no two uploads meet and no name can be guessed. */
export const HASH_LENGTH = 32;

/** Widest file kept: beyond it a name's width is not one this origin writes. */
export const MAX_WIDTH = 16_383;

/**
 * `<hash>-<width>.<format>`: 32 lower-case hex digits, a width without leading zero, a known extension. ASCII only,
 * no `/`, `.` or `%` but the one before the extension, so a name that passes is a file name inside the image folder.
 */
const NAME = /^([0-9a-f]{32})-([1-9][0-9]{0,4})\.(jpg|png|gif|webp)$/;

export interface ImageName {
  hash: string;
  width: number;
  format: ImageFormat;
}

/** The parts of a file name, or undefined for anything that is not exactly one of ours. */
export function parseImageName(name: string): ImageName | undefined {
  const match = NAME.exec(name);
  if (match === null) return undefined;
  const width = Number(match[2]);
  if (width > MAX_WIDTH) return undefined;
  return { hash: match[1]!, width, format: match[3] as ImageFormat };
}

export function imageFileName(name: ImageName): string {
  return `${name.hash}-${name.width}.${name.format}`;
}

/** The public URL of a file. */
export function imageUrl(name: ImageName): string {
  return `${IMAGE_PREFIX}${imageFileName(name)}`;
}

/** The file a public URL names (`/_render/image/<name>`, nothing before or after), or undefined. */
export function imageOfUrl(url: string): ImageName | undefined {
  return url.startsWith(IMAGE_PREFIX) ? parseImageName(url.slice(IMAGE_PREFIX.length)) : undefined;
}

const startsWith = (bytes: Uint8Array, at: number, ascii: string): boolean =>
  bytes.length >= at + ascii.length && [...ascii].every((character, i) => bytes[at + i] === character.charCodeAt(0));

/**
 * The format an upload's first bytes announce, or undefined: JPEG (`FF D8 FF`), PNG (its 8-byte signature), GIF
 * (`GIF87a`, `GIF89a`), WebP (`RIFF….WEBP`), AVIF (an ISO-BMFF `ftyp` box whose brand is `avif` or `avis`). Anything
 * else — SVG, which can carry script, HTML, TIFF, HEIC — is refused before any decoder sees it.
 */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => bytes[i] === byte)) return 'png';
  if (startsWith(bytes, 0, 'GIF87a') || startsWith(bytes, 0, 'GIF89a')) return 'gif';
  if (startsWith(bytes, 0, 'RIFF') && startsWith(bytes, 8, 'WEBP')) return 'webp';
  if (startsWith(bytes, 4, 'ftypavif') || startsWith(bytes, 4, 'ftypavis')) return 'avif';
  return undefined;
}

/**
 * The format an upload's files keep beside WebP: its own, but AVIF (which not every browser shows, and which sharp
 * writes slowly) is kept as PNG when it has transparency and as JPEG otherwise. WebP's own is WebP alone.
 */
export function fallbackFormat(type: ImageType, hasAlpha: boolean): ImageFormat {
  if (type === 'jpeg') return 'jpg';
  if (type === 'avif') return hasAlpha ? 'png' : 'jpg';
  return type;
}

/**
 * Widths an image is written at: each of `widths` narrower than the image, and the image's own width when it is
 * narrower than the widest of them (never enlarged). Ascending, without repeats.
 */
export function widthsFor(imageWidth: number, widths: readonly number[]): number[] {
  const sorted = [...new Set(widths)].sort((a, b) => a - b);
  const widest = sorted[sorted.length - 1] ?? imageWidth;
  const kept = sorted.filter((width) => width < imageWidth);
  if (imageWidth <= widest || kept.length === 0) kept.push(Math.min(imageWidth, widest));
  return [...new Set(kept)].sort((a, b) => a - b);
}
