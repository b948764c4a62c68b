import type { OutgoingHttpHeaders } from 'node:http';

export const CACHE_HEADER = 'x-middleware-cache';

/** A stored response, prepared at store time so a hit is one `writeHead` and one `end`. */
export interface CacheEntry {
  /**
   * Header names and values as a flat list: every stored header except `x-middleware-cache`, with `Content-Length` set
   * to the stored body's length, then `x-middleware-cache: hit`.
   */
  readonly replayHeaders: string[];
  /**
   * The body bytes, or the one ASCII string the renderer wrote, kept as it is until the first hit: encoding it on the
   * miss path would allocate a second copy of every page the renderer sends, and most misses are never hit again.
   */
  body: Buffer | string;
  /** Body bytes plus header name and value bytes: what the byte bound counts. */
  readonly size: number;
}

/** Builds the entry for a captured response from the headers it had when its head was written. */
export function createEntry(headers: OutgoingHttpHeaders, body: Buffer | string): CacheEntry {
  const replayHeaders: string[] = [];
  const bodyLength = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  let size = bodyLength;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === CACHE_HEADER || name === 'content-length') continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = String(item);
      replayHeaders.push(name, text);
      size += Buffer.byteLength(name) + Buffer.byteLength(text);
    }
  }
  // The length of the body actually stored is part of the prepared head (whatever the renderer declared), so a hit
  // goes out with a true Content-Length rather than chunked.
  if (headers['transfer-encoding'] === undefined) replayHeaders.push('content-length', String(bodyLength));
  replayHeaders.push(CACHE_HEADER, 'hit');
  return { replayHeaders, body, size };
}

/** The entry's body as bytes, encoding a stored string once, on the first hit. */
export function bodyBytes(entry: CacheEntry): Buffer {
  if (typeof entry.body === 'string') entry.body = Buffer.from(entry.body, 'utf8');
  return entry.body;
}
