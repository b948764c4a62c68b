import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Compressed } from './negotiate.js';

export interface CompressionLevels {
  brotliQuality: number;
  gzipLevel: number;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Compresses `body` on libuv's thread pool, so the event loop keeps answering hits meanwhile. The same input and levels
 * give the same bytes every time (zlib and brotli are deterministic), which keeps a render's ETag equal to the ETag of
 * the stored encoding that follows it.
 */
export function compress(body: Buffer, coding: Compressed, levels: CompressionLevels): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(body, { level: levels.gzipLevel });
  return brotliAsync(body, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: levels.brotliQuality,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}
