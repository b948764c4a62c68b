import type { OutgoingHttpHeaders } from 'node:http';

export const CACHE_HEADER = 'x-middleware-cache';

/** A stored response, prepared at store time so a hit is one `writeHead` and one `end`. */
export interface CacheEntry {
  /**
   * Header names and values as a flat list: every stored header except `x-middleware-cache`, with `Content-Length` set
   * to the stored body's length, then `x-middleware-cache: hit`.
   */
  readonly replayHeaders: string[];
  readonly body: Buffer;
  /** Body bytes plus header name and value bytes: what the byte bound counts. */
  readonly size: number;
}

/** Builds the entry for a captured response from the headers it had when its head was written. */
export function createEntry(headers: OutgoingHttpHeaders, body: Buffer): CacheEntry {
  const replayHeaders: string[] = [];
  let size = body.length;
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
  if (headers['transfer-encoding'] === undefined) replayHeaders.push('content-length', String(body.length));
  replayHeaders.push(CACHE_HEADER, 'hit');
  return { replayHeaders, body, size };
}
