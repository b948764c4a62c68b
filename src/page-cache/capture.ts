import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { unstorableHead, type StorePolicy } from './cacheability.js';
import { encodeChunk } from './encode.js';
import { createEntry, type CacheEntry, type EntryOptions } from './entry.js';

export interface CaptureOptions extends StorePolicy, EntryOptions {
  /** Stop capturing once the body grows past this many bytes. */
  maxBytes: number | undefined;
  /** Called exactly once: with the entry to store, or `undefined` as soon as it is known nothing will be stored. */
  onDone(entry: CacheEntry | undefined): void;
}

type Callback = (error?: Error | null) => void;

interface CaptureState {
  options: CaptureOptions;
  writeHead: ServerResponse['writeHead'];
  write: ServerResponse['write'];
  end: ServerResponse['end'];
  chunks: Buffer[];
  /** Whether each chunk is memory of our own (encoded from a string here) rather than the renderer's buffer. */
  owned: boolean[];
  length: number;
  headers: OutgoingHttpHeaders | undefined;
  done: boolean;
}

const CAPTURE = Symbol('page-cache capture');
type CapturedResponse = ServerResponse & { [CAPTURE]: CaptureState };

function finish(state: CaptureState, entry: CacheEntry | undefined): void {
  if (state.done) return;
  state.done = true;
  state.chunks = [];
  state.owned = [];
  state.options.onDone(entry);
}

function record(state: CaptureState, buffer: Uint8Array, owned: boolean): void {
  state.length += buffer.byteLength;
  if (state.options.maxBytes !== undefined && state.length > state.options.maxBytes) {
    finish(state, undefined);
    return;
  }
  state.chunks.push(Buffer.isBuffer(buffer) ? buffer : Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength));
  state.owned.push(owned);
}

/**
 * The body as one buffer of its own, so a stored body never pins a larger pooled or shared buffer: a single chunk
 * encoded here that spans its whole memory is kept as is, anything else is copied once.
 */
function body(state: CaptureState): Buffer {
  const only = state.chunks.length === 1 && state.owned[0] === true ? state.chunks[0] : undefined;
  if (only !== undefined && only.byteOffset === 0 && only.buffer.byteLength === only.length) return only;
  const joined = Buffer.allocUnsafeSlow(state.length);
  let offset = 0;
  for (const chunk of state.chunks) offset += chunk.copy(joined, offset);
  return joined;
}

/** Records a chunk and returns what to hand to Node: a string is encoded once here and passed on as those bytes. */
function take(state: CaptureState, chunk: unknown, encoding: unknown): unknown {
  if (state.done) return chunk;
  if (typeof chunk === 'string') {
    const buffer = encodeChunk(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    record(state, buffer, true);
    return buffer;
  }
  if (chunk instanceof Uint8Array) record(state, chunk, false);
  return chunk;
}

function capturingWriteHead(this: CapturedResponse, ...args: unknown[]): ServerResponse {
  const state = this[CAPTURE];
  const result = (state.writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  if (!state.done && state.headers === undefined) {
    state.headers = this.getHeaders();
    if (unstorableHead(this.statusCode, state.headers, state.options) !== undefined) finish(state, undefined);
  }
  return result;
}

function capturingWrite(this: CapturedResponse, chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
  const state = this[CAPTURE];
  const passed = take(state, chunk, encoding);
  const write = state.write as (...a: unknown[]) => boolean;
  if (passed === chunk) return write.call(this, chunk, encoding, callback);
  return write.call(this, passed, typeof encoding === 'function' ? encoding : (callback as Callback | undefined));
}

function capturingEnd(this: CapturedResponse, chunk?: unknown, encoding?: unknown, callback?: unknown): ServerResponse {
  const state = this[CAPTURE];
  const end = state.end as (...a: unknown[]) => ServerResponse;
  const passed = typeof chunk === 'function' ? chunk : take(state, chunk, encoding);
  const result =
    passed === chunk ? end.call(this, chunk, encoding, callback) : end.call(this, passed, typeof encoding === 'function' ? encoding : callback);
  if (!state.done) {
    if (this.destroyed || state.headers === undefined || state.length === 0) finish(state, undefined);
    else finish(state, createEntry(state.headers, body(state), state.options));
  }
  return result;
}

function onClose(this: CapturedResponse): void {
  // Closed before the renderer ended it: the client went away or the renderer destroyed the response.
  finish(this[CAPTURE], undefined);
}

/**
 * Captures a response while it streams to the client: `writeHead`, `write` and `end` of this one response are wrapped
 * to record the head when it is written (including headers set earlier with `setHeader`) and each body chunk; the
 * original methods run right away, so nothing is delayed. A string chunk is encoded once, and those bytes go both to
 * the client and into the capture. When the renderer ends the response, the chunks become the stored body.
 */
export function captureResponse(res: ServerResponse, options: CaptureOptions): void {
  const captured = res as CapturedResponse;
  captured[CAPTURE] = {
    options,
    writeHead: res.writeHead,
    write: res.write,
    end: res.end,
    chunks: [],
    owned: [],
    length: 0,
    headers: undefined,
    done: false,
  };
  res.writeHead = capturingWriteHead as ServerResponse['writeHead'];
  res.write = capturingWrite as ServerResponse['write'];
  res.end = capturingEnd as ServerResponse['end'];
  res.once('close', onClose);
}
