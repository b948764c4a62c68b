import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { storedLifetime, type StorePolicy } from './cacheability.js';
import { compress, type CompressionLevels } from './compress.js';
import { encodeChunk } from './encode.js';
import { createEntry, etagOf, withEncodings, type CacheEntry, type EntryOptions } from './entry.js';
import type { FreshnessPolicy, Lifetime } from './freshness.js';
import { chooseCoding, ifNoneMatchMatches, isCompressible, varyWithAcceptEncoding, type Compressed, type Preferences } from './negotiate.js';
import { answerInstead, discarded, type StandIn } from './stand-in.js';
import { keysOfHeaders } from './surrogate-keys.js';

/** The cache's settings for every render it records; one object per cache. */
export interface RecordingSettings extends StorePolicy, FreshnessPolicy, EntryOptions, CompressionLevels {
  /** Stop recording once the body grows past this many bytes. */
  maxBytes: number | undefined;
  keyHeaders: readonly string[];
  hideKeyHeaders: boolean;
}

/** The cache a render reports to. Its methods take the render, so recording one allocates no closures. */
export interface RenderOwner {
  readonly settings: RecordingSettings;
  /** Called exactly once per recorded render: with its entry, or `undefined` as soon as nothing will be stored. */
  recorded(render: Render, entry: CacheEntry | undefined): void;
  /** Told each time a render compresses its body for its client. */
  compressed(render: Render): void;
  compressionFailed(render: Render, error: unknown): void;
  /** When a purge made the render's response out of date while it ran (it names `keys`), or `undefined`. */
  outdatedSince(render: Render, keys: readonly string[]): number | undefined;
}

type Callback = (error?: Error | null) => void;
type Method = (...args: unknown[]) => unknown;

const RENDER = Symbol('page-cache render');
type RecordedResponse = ServerResponse & { [RENDER]: Render };

/** Headers a 304 does not repeat (RFC 9110 §15.4.5): they describe a body it has not got. */
const BODY_FIELDS = ['content-length', 'content-type', 'content-encoding', 'content-language'];
const BOTH: Readonly<Record<Compressed, boolean>> = { br: true, gzip: true };

function text(value: OutgoingHttpHeaders[string]): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

function applyHeaders(res: ServerResponse, headers: unknown): void {
  if (Array.isArray(headers)) {
    // Either [name, value, name, value…] or [[name, value], …], as writeHead takes them; repeats are appended.
    const pairs = Array.isArray(headers[0]) ? (headers as [string, string][]) : Array.from({ length: headers.length / 2 }, (_, i) => [headers[2 * i], headers[2 * i + 1]] as [string, string]);
    for (const [name, value] of pairs) res.appendHeader(name, value);
  } else if (typeof headers === 'object' && headers !== null) {
    for (const name in headers) {
      const value = (headers as OutgoingHttpHeaders)[name];
      if (value !== undefined) res.setHeader(name, value);
    }
  }
}

/**
 * One render passing through the cache: the response the renderer writes, recorded (head and body chunks) to become
 * the stored entry, with its head held until the renderer ends it, so that with the whole body in hand it goes out
 * with a strong ETag (or as a 304 when `If-None-Match` matches it) in the coding the request prefers. A renderer that
 * writes before it ends streams: its head goes out at the first write, with `Vary` but as identity and without an ETag
 * (its hits get both). A string chunk is encoded once, and those bytes go both to the client and into the entry.
 *
 * `res.writeHead`, `write` and `end` of this one response are replaced by functions shared by every render, which find
 * it through a symbol; the originals run from them.
 */
export class Render {
  /** When a pathname purge first matched the render's key while it ran (ms). */
  outdatedAt: number | undefined;
  /** Surrogate keys purged while it ran, with when each was first: its response is out of date if it names one. */
  purgedKeys: Map<string, number> | undefined;
  /** The lifetime its response is stored with, known from its head. */
  lifetime: Lifetime | undefined;
  /** The held copy that answers instead if the renderer sends a 5xx (stale-if-error). */
  standIn: StandIn | undefined;
  /** The held copy that answered instead of the renderer's 5xx, and the key it is held under. */
  answeredBy: CacheEntry | undefined;
  answeredUnder: string | undefined;

  readonly #writeHead: Method;
  readonly #write: Method;
  readonly #end: Method;
  #chunks: Buffer[] = [];
  /** Whether each chunk is memory of our own (encoded from a string here) rather than the renderer's buffer. */
  #owned: boolean[] = [];
  #length = 0;
  #headers: OutgoingHttpHeaders | undefined;
  /** Recording is over: reported to the owner, or never wanted (a HEAD). */
  #done: boolean;
  /** Set while the real head or body is written, so Node's own implicit `writeHead` goes straight through. */
  #flushing = false;
  #streaming = false;

  constructor(
    readonly key: string,
    readonly res: ServerResponse,
    readonly owner: RenderOwner,
    readonly preferences: Preferences,
    /** The request's headers (`If-None-Match`, and what a `Vary` names). */
    readonly request: IncomingHttpHeaders,
    /** Told how the render ended once the owner has dealt with it: the entry stored, or none, whether it was out of date, and its key. */
    readonly settled: (entry: CacheEntry | undefined, outdated: boolean, storedKey?: string) => void,
    /** Store what it renders (a GET); a HEAD is only encoded. */
    record: boolean,
  ) {
    this.#done = !record;
    this.#writeHead = res.writeHead as unknown as Method;
    this.#write = res.write as unknown as Method;
    this.#end = res.end as unknown as Method;
    const recorded = res as RecordedResponse;
    recorded[RENDER] = this;
    res.writeHead = recordingWriteHead as ServerResponse['writeHead'];
    res.write = recordingWrite as ServerResponse['write'];
    res.end = recordingEnd as ServerResponse['end'];
    if (record) res.once('close', onClose);
  }

  /** Reports `entry` (or nothing to store) once. */
  finish(entry: CacheEntry | undefined): void {
    if (this.#done) return;
    this.#done = true;
    this.#chunks = [];
    this.#owned = [];
    this.owner.recorded(this, entry);
  }

  writeHead(res: ServerResponse, status: number, rest: unknown[]): ServerResponse {
    if (this.answeredBy !== undefined && !this.#flushing) return res;
    if (this.#flushing || this.#streaming) return this.#writeHead.call(res, status, ...rest) as ServerResponse;
    res.statusCode = status;
    const [reason, headers] = typeof rest[0] === 'string' ? rest : [undefined, rest[0]];
    if (typeof reason === 'string') res.statusMessage = reason;
    applyHeaders(res, headers);
    // Known as soon as the head is: a response that cannot be stored releases its single-flight followers at once
    // (unless a stand-in may answer instead of it: that is known only when it is sent).
    if (status < 500 || this.standIn === undefined) this.#recordHead(res);
    return res;
  }

  write(res: ServerResponse, chunk: unknown, encoding: unknown, callback: unknown): boolean {
    if (this.answeredBy !== undefined) return discarded(true, encoding, callback);
    if (!this.#streaming) {
      if (res.statusCode >= 500 && this.#answerInstead(res)) return discarded(true, encoding, callback);
      this.#streaming = true;
      this.#varyIfCompressing(res);
      this.#recordHead(res);
    }
    const passed = this.#take(chunk, encoding);
    if (passed === chunk) return this.#write.call(res, chunk, encoding, callback) as boolean;
    return this.#write.call(res, passed, typeof encoding === 'function' ? encoding : callback) as boolean;
  }

  end(res: ServerResponse, chunk: unknown, encoding: unknown, callback: unknown): ServerResponse {
    if (this.#flushing) return this.#end.call(res, chunk, encoding, callback) as ServerResponse;
    if (this.answeredBy !== undefined) return discarded(res, chunk, encoding, callback);
    const done = (typeof chunk === 'function' ? chunk : typeof encoding === 'function' ? encoding : callback) as Callback | undefined;
    const data = typeof chunk === 'function' ? undefined : chunk;
    const passed = this.#take(data, encoding);
    if (this.#streaming) {
      this.#end.call(res, passed, done);
      this.#finishEnded(res);
      return res;
    }
    const body = passed instanceof Uint8Array ? (Buffer.isBuffer(passed) ? passed : Buffer.from(passed.buffer, passed.byteOffset, passed.byteLength)) : undefined;
    if (res.statusCode !== 200 || body === undefined || body.length === 0) {
      if (res.statusCode >= 500 && this.#answerInstead(res)) return discarded(res, done);
      this.#recordHead(res);
      this.#flush(res, body, done);
      this.#finishEnded(res);
      return res;
    }
    this.#varyIfCompressing(res);
    this.#recordHead(res);
    // An out-of-date render is not stored here; `no-store` keeps the caches downstream (the edge) from keeping it.
    const keys = this.#headers === undefined ? [] : keysOfHeaders(this.#headers, this.owner.settings.keyHeaders);
    if (this.owner.outdatedSince(this, keys) !== undefined) res.setHeader('cache-control', 'no-store');
    const settings = this.owner.settings;
    const head = { contentType: text(res.getHeader('content-type')), contentEncoding: text(res.getHeader('content-encoding')), cacheControl: text(res.getHeader('cache-control')) };
    const coding = settings.compress && isCompressible(head, body.length, settings.compressMinBytes) ? chooseCoding(this.preferences, BOTH) : 'identity';
    if (coding === 'identity') {
      this.#send(res, body, body, etagOf(body), undefined, done);
      return res;
    }
    this.owner.compressed(this);
    compress(body, coding, settings, (error, bytes) => {
      if (bytes === undefined) {
        this.owner.compressionFailed(this, error);
        this.#send(res, body, body, etagOf(body), undefined, done);
        return;
      }
      this.#send(res, body, bytes, etagOf(bytes), coding, done);
    });
    return res;
  }

  closed(): void {
    // Closed before the renderer ended it: the client went away or the renderer destroyed the response.
    this.finish(undefined);
  }

  #varyIfCompressing(res: ServerResponse): void {
    if (this.owner.settings.compress && res.statusCode === 200) res.setHeader('vary', varyWithAcceptEncoding(text(res.getHeader('vary'))));
  }

  /** Takes the head as it will be written, once (key headers hidden if asked), and stops recording when it cannot be stored. */
  #recordHead(res: ServerResponse): void {
    if (this.#headers !== undefined) return;
    this.#headers = res.getHeaders();
    const settings = this.owner.settings;
    if (settings.hideKeyHeaders) for (const name of settings.keyHeaders) res.removeHeader(name);
    if (this.#done) return;
    const verdict = storedLifetime(res.statusCode, this.#headers, settings, Date.now());
    if (typeof verdict === 'string') this.finish(undefined);
    else this.lifetime = verdict;
  }

  /** Answers from the stand-in, if there is one, in place of the 5xx the renderer is sending; true when it did. */
  #answerInstead(res: ServerResponse): boolean {
    const standIn = this.standIn;
    if (standIn === undefined) return false;
    this.standIn = undefined;
    this.answeredBy = standIn.entry;
    this.answeredUnder = standIn.key;
    this.#flushing = true;
    try {
      answerInstead(res, standIn);
    } finally {
      this.#flushing = false;
    }
    this.finish(undefined);
    return true;
  }

  /** Records a chunk and returns what to hand to Node: a string is encoded once here and passed on as those bytes. */
  #take(chunk: unknown, encoding: unknown): unknown {
    if (typeof chunk === 'string') {
      const buffer = encodeChunk(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      this.#record(buffer, true);
      return buffer;
    }
    if (chunk instanceof Uint8Array) this.#record(chunk, false);
    return chunk;
  }

  #record(buffer: Uint8Array, owned: boolean): void {
    if (this.#done) return;
    this.#length += buffer.byteLength;
    const maxBytes = this.owner.settings.maxBytes;
    if (maxBytes !== undefined && this.#length > maxBytes) {
      this.finish(undefined);
      return;
    }
    this.#chunks.push(Buffer.isBuffer(buffer) ? buffer : Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength));
    this.#owned.push(owned);
  }

  /**
   * The body as one buffer of its own, so a stored body never pins a larger pooled or shared buffer: a single chunk
   * encoded here that spans its whole memory is kept as is, anything else is copied once.
   */
  #body(): Buffer {
    const only = this.#chunks.length === 1 && this.#owned[0] === true ? this.#chunks[0] : undefined;
    if (only !== undefined && only.byteOffset === 0 && only.buffer.byteLength === only.length) return only;
    const joined = Buffer.allocUnsafeSlow(this.#length);
    let offset = 0;
    for (const chunk of this.#chunks) offset += chunk.copy(joined, offset);
    return joined;
  }

  #flush(res: ServerResponse, body: Buffer | undefined, callback: Callback | undefined): void {
    this.#flushing = true;
    try {
      this.#end.call(res, body, callback);
    } finally {
      this.#flushing = false;
    }
  }

  /**
   * Sends `bytes` (the body in `coding`, or identity) with their ETag, or a 304; then stores the identity `body` with
   * those bytes as its encoding, so that the requests waiting on this render find that coding already held.
   */
  #send(res: ServerResponse, body: Buffer, bytes: Buffer, etag: string, coding: Compressed | undefined, callback: Callback | undefined): void {
    if (res.destroyed) {
      this.finish(undefined);
      return;
    }
    res.setHeader('etag', etag);
    if (coding !== undefined) res.setHeader('content-encoding', coding);
    if (!res.hasHeader('transfer-encoding')) res.setHeader('content-length', bytes.length);
    if (ifNoneMatchMatches(this.request['if-none-match'], etag)) {
      res.statusCode = 304;
      for (const name of BODY_FIELDS) res.removeHeader(name);
      this.#flush(res, undefined, callback);
    } else this.#flush(res, bytes, callback);
    if (this.#done || this.#headers === undefined || res.destroyed) this.finish(undefined);
    else if (coding === undefined) this.finish(createEntry(this.#headers, this.#body(), this.owner.settings, etag));
    else this.finish(withEncodings(createEntry(this.#headers, this.#body(), this.owner.settings), { [coding]: bytes }));
  }

  #finishEnded(res: ServerResponse): void {
    if (this.#done) return;
    if (res.destroyed || this.#headers === undefined || this.#length === 0) this.finish(undefined);
    else this.finish(createEntry(this.#headers, this.#body(), this.owner.settings));
  }
}

function recordingWriteHead(this: RecordedResponse, status: number, ...rest: unknown[]): ServerResponse {
  return this[RENDER].writeHead(this, status, rest);
}

function recordingWrite(this: RecordedResponse, chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
  return this[RENDER].write(this, chunk, encoding, callback);
}

function recordingEnd(this: RecordedResponse, chunk?: unknown, encoding?: unknown, callback?: unknown): ServerResponse {
  return this[RENDER].end(this, chunk, encoding, callback);
}

function onClose(this: RecordedResponse): void {
  this[RENDER].closed();
}
