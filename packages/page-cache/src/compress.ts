import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import type { Compressed } from './negotiate.js';

export interface CompressionLevels {
  brotliQuality: number;
  gzipLevel: number;
}

/**
 * Bodies up to this size are compressed synchronously. Node's asynchronous zlib costs about twice the CPU of the
 * synchronous call on a page (a stream, two thread hand-offs), and on a busy front CPU is what runs out; a body of this
 * size holds the event loop about as long as rendering it would. Larger bodies go to the thread pool.
 */
const SYNC_LIMIT = 128 * 1024;

/** Bytes of their own: zlib hands back a slice of its 16 KiB output buffer, which would pin it beside a 1 KB result. */
function own(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

function brotliOptions(body: Buffer, levels: CompressionLevels): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: levels.brotliQuality,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  };
}

export type Compressing = (error: Error | null, bytes: Buffer | undefined) => void;

/**
 * Compresses `body` in `coding` and calls `done` with the bytes: at once for a body up to 128 KiB, from the thread pool
 * for a larger one. The same input and levels give the same bytes every time, so the ETag of an encoding does not
 * depend on when or where it was made.
 */
export function compress(body: Buffer, coding: Compressed, levels: CompressionLevels, done: Compressing): void {
  const gzipOptions: ZlibOptions = { level: levels.gzipLevel };
  if (body.length <= SYNC_LIMIT) {
    let bytes: Buffer;
    try {
      bytes = coding === 'br' ? brotliCompressSync(body, brotliOptions(body, levels)) : gzipSync(body, gzipOptions);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    done(null, own(bytes));
    return;
  }
  const callback = (error: Error | null, bytes: Buffer) => done(error, error === null ? own(bytes) : undefined);
  if (coding === 'br') brotliCompress(body, brotliOptions(body, levels), callback);
  else gzip(body, gzipOptions, callback);
}
