import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/*
 * Images made for tests with the real sharp, and crafted ones sharp would never write (a decompression bomb's header,
 * an SVG with script, a file whose name lies).
 */

/** Octaves of detail a photo-like image sums, coarse to fine: cells across its width and how strongly each shows. */
const OCTAVES = [
  { cells: 6, weight: 0.9 },
  { cells: 40, weight: 0.45 },
  { cells: 250, weight: 0.3 },
  { cells: 1000, weight: 0.12 },
];

/**
 * A photo-like JPEG: random detail at several scales (coarse shapes to fine texture), so encoders and the page weight
 * behave as on a photo rather than on a flat colour or pure noise; optionally with EXIF orientation and GPS.
 */
export async function photoJpeg(width: number, height: number, options: { orientation?: number; gps?: boolean; quality?: number } = {}): Promise<Buffer> {
  let seed = 7 + (options.quality ?? 0);
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const sum = new Float32Array(width * height * 3).fill(128);
  for (const { cells, weight } of OCTAVES) {
    const gridWidth = Math.max(2, Math.min(width, cells));
    const gridHeight = Math.max(2, Math.min(height, Math.round((cells * height) / width)));
    const grid = Buffer.alloc(gridWidth * gridHeight * 3);
    for (let i = 0; i < grid.length; i++) grid[i] = Math.floor(random() * 256);
    const layer = await sharp(grid, { raw: { width: gridWidth, height: gridHeight, channels: 3 } }).resize(width, height, { fit: 'fill', kernel: 'cubic' }).raw().toBuffer();
    for (let i = 0; i < sum.length; i++) sum[i]! += (layer[i]! - 128) * weight;
  }
  const raw = Buffer.alloc(sum.length);
  for (let i = 0; i < sum.length; i++) raw[i] = Math.max(0, Math.min(255, Math.round(sum[i]!)));
  let image = sharp(raw, { raw: { width, height, channels: 3 } });
  if (options.gps === true) {
    image = image.withExif({ IFD0: { Make: 'TestCam', Model: 'Leaky 1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' } });
  }
  if (options.orientation !== undefined) image = image.withMetadata({ orientation: options.orientation });
  return image.jpeg({ quality: options.quality ?? 85 }).toBuffer();
}

export function solidPng(width: number, height: number, alpha = false): Promise<Buffer> {
  return sharp({ create: { width, height, channels: alpha ? 4 : 3, background: { r: 20, g: 120, b: 200, alpha: alpha ? 0.5 : 1 } } }).png().toBuffer();
}

export function solidWebp(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c33' } }).webp().toBuffer();
}

export async function animatedGif(width: number, height: number, frames: number): Promise<Buffer> {
  const colours = ['#e11', '#1e1', '#11e', '#ee1'];
  const pages = await Promise.all(
    Array.from({ length: frames }, (_, i) => sharp({ create: { width, height, channels: 4, background: colours[i % colours.length]! } }).png().toBuffer()),
  );
  return sharp(pages, { join: { animated: true } }).gif({ loop: 0, delay: pages.map(() => 100) }).toBuffer();
}

/**
 * A decompression bomb: a PNG of a few dozen bytes whose header says `width`×`height` (a 1×1 PNG with its IHDR
 * rewritten and its checksum made again). Decoded it would take width×height pixels of memory.
 */
export async function pngBomb(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).png().toBuffer());
  // Signature (8), then the IHDR chunk: length (4), type (4), width and height first in its 13 bytes, CRC (4).
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

export const SCRIPTED_SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"><script>alert(2)</script></svg>');
