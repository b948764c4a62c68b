import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { unstorableHead, type StorePolicy } from './cacheability.js';
import { createEntry, type CacheEntry } from './entry.js';

export interface CaptureOptions extends StorePolicy {
  /** Stop capturing once the body grows past this many bytes. */
  maxBytes: number | undefined;
  /** Called exactly once: with the entry to store, or `undefined` as soon as it is known nothing will be stored. */
  onDone(entry: CacheEntry | undefined): void;
}

type Chunk = string | Uint8Array;
type WriteCallback = (error?: Error | null) => void;

function toBuffer(chunk: Chunk, encoding: BufferEncoding | undefined): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk, encoding ?? 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** One copy into memory of its own, so a stored body never pins a larger pooled or shared buffer. */
function concatenate(chunks: Buffer[], length: number): Buffer {
  const body = Buffer.allocUnsafeSlow(length);
  let offset = 0;
  for (const chunk of chunks) offset += chunk.copy(body, offset);
  return body;
}

/**
 * Captures a response while it streams to the client: `writeHead`, `write` and `end` of this one response are wrapped
 * to record the head when it is written (including headers set earlier with `setHeader`) and a reference to each body
 * chunk; the original methods run unchanged, so nothing is delayed. When the renderer ends the response, the chunks are
 * copied once into the stored body.
 */
export function captureResponse(res: ServerResponse, options: CaptureOptions): void {
  const originalWriteHead = res.writeHead;
  const originalWrite = res.write;
  const originalEnd = res.end;
  let chunks: Buffer[] = [];
  let length = 0;
  let headers: OutgoingHttpHeaders | undefined;
  let done = false;

  const finish = (entry: CacheEntry | undefined) => {
    if (done) return;
    done = true;
    chunks = [];
    options.onDone(entry);
  };
  const record = (chunk: unknown, encoding: unknown) => {
    if (done || chunk === undefined || chunk === null || typeof chunk === 'function') return;
    if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) return;
    const buffer = toBuffer(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : undefined);
    length += buffer.length;
    if (options.maxBytes !== undefined && length > options.maxBytes) finish(undefined);
    else chunks.push(buffer);
  };

  res.writeHead = function writeHead(this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    const result = originalWriteHead.apply(this, args);
    if (!done && headers === undefined) {
      headers = this.getHeaders();
      if (unstorableHead(this.statusCode, headers, options) !== undefined) finish(undefined);
    }
    return result;
  } as ServerResponse['writeHead'];

  res.write = function write(this: ServerResponse, chunk: Chunk, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback) {
    record(chunk, encoding);
    return originalWrite.call(this, chunk, encoding as BufferEncoding, callback as WriteCallback);
  } as ServerResponse['write'];

  res.end = function end(this: ServerResponse, chunk?: Chunk | (() => void), encoding?: BufferEncoding | (() => void), callback?: () => void) {
    record(chunk, encoding);
    const result = originalEnd.call(this, chunk as Chunk, encoding as BufferEncoding, callback);
    if (!done) {
      if (this.destroyed || headers === undefined || length === 0) finish(undefined);
      else finish(createEntry(headers, concatenate(chunks, length)));
    }
    return result;
  } as ServerResponse['end'];

  // Closed before the renderer ended it: the client went away or the renderer destroyed the response.
  res.once('close', () => finish(undefined));
}
