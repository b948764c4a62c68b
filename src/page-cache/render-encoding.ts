import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { compress, type CompressionLevels } from './compress.js';
import { etagOf } from './entry.js';
import { chooseCoding, ifNoneMatchMatches, isCompressible, varyWithAcceptEncoding, type Compressed, type Preferences } from './negotiate.js';

export interface RenderEncodingOptions extends CompressionLevels {
  /** Add `Vary: Accept-Encoding` to every 200 and compress it when the request asks and the body qualifies. */
  compress: boolean;
  compressMinBytes: number;
  /** The request's `Accept-Encoding`, read. */
  preferences: Preferences;
  ifNoneMatch: string | undefined;
  /** The bytes this render compressed, so the entry stored from it keeps them instead of compressing again. */
  onEncoded(coding: Compressed, bytes: Buffer): void;
  /** The ETag of the identity body this render sent whole, so the entry stored from it need not hash it again. */
  onIdentityTag(etag: string): void;
  onError(error: unknown): void;
}

type Callback = (error?: Error | null) => void;
type Method = (...args: unknown[]) => unknown;

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
    for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders)) if (value !== undefined) res.setHeader(name, value);
  }
}

/**
 * Holds a render's head until the renderer ends the response, so that with the whole body in hand it can send a 200
 * with a strong ETag (or a 304 when `If-None-Match` matches it) and compress the body in the coding the request
 * prefers. A renderer that writes before it ends streams: its head goes out at the first write, with `Vary` but as
 * identity and without an ETag (its hits get both). Install before `captureResponse`, which must see identity bytes.
 */
export function encodeRender(res: ServerResponse, options: RenderEncodingOptions): void {
  const writeHead = res.writeHead as unknown as Method;
  const write = res.write as unknown as Method;
  const end = res.end as unknown as Method;
  /** Set while this module writes the real head or body, so Node's own implicit `writeHead` goes straight through. */
  let flushing = false;
  let streaming = false;

  function varyIfCompressing(): void {
    if (options.compress && res.statusCode === 200) res.setHeader('vary', varyWithAcceptEncoding(text(res.getHeader('vary'))));
  }

  res.writeHead = function deferredWriteHead(this: ServerResponse, status: number, ...rest: unknown[]): ServerResponse {
    if (flushing || streaming) return writeHead.call(this, status, ...rest) as ServerResponse;
    this.statusCode = status;
    const [reason, headers] = typeof rest[0] === 'string' ? rest : [undefined, rest[0]];
    if (typeof reason === 'string') this.statusMessage = reason;
    applyHeaders(this, headers);
    return this;
  } as ServerResponse['writeHead'];

  res.write = function streamingWrite(this: ServerResponse, ...args: unknown[]): boolean {
    if (!streaming) {
      streaming = true;
      varyIfCompressing();
    }
    return write.apply(this, args) as boolean;
  } as ServerResponse['write'];

  function flush(self: ServerResponse, body: Buffer | undefined, callback: Callback | undefined): void {
    flushing = true;
    try {
      end.call(self, body, callback);
    } finally {
      flushing = false;
    }
  }

  function send(self: ServerResponse, bytes: Buffer, coding: Compressed | 'identity', callback: Callback | undefined): void {
    if (self.destroyed) return;
    const etag = etagOf(bytes);
    if (coding === 'identity') options.onIdentityTag(etag);
    self.setHeader('etag', etag);
    if (coding !== 'identity') self.setHeader('content-encoding', coding);
    if (!self.hasHeader('transfer-encoding')) self.setHeader('content-length', bytes.length);
    if (ifNoneMatchMatches(options.ifNoneMatch, etag)) {
      self.statusCode = 304;
      for (const name of BODY_FIELDS) self.removeHeader(name);
      flush(self, undefined, callback);
    } else flush(self, bytes, callback);
  }

  res.end = function encodingEnd(this: ServerResponse, chunk?: unknown, encoding?: unknown, callback?: unknown): ServerResponse {
    if (streaming || flushing) return end.call(this, chunk, encoding, callback) as ServerResponse;
    const done = (typeof chunk === 'function' ? chunk : typeof encoding === 'function' ? encoding : callback) as Callback | undefined;
    const data = typeof chunk === 'function' ? undefined : chunk;
    // Records the head with whatever captures the response above this layer, as Node's implicit writeHead would.
    this.writeHead(this.statusCode);
    const body =
      typeof data === 'string' ? Buffer.from(data, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : data instanceof Uint8Array ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : undefined;
    if (this.statusCode !== 200 || body === undefined || body.length === 0) {
      flush(this, body, done);
      return this;
    }
    varyIfCompressing();
    const head = { contentType: text(this.getHeader('content-type')), contentEncoding: text(this.getHeader('content-encoding')), cacheControl: text(this.getHeader('cache-control')) };
    const coding = options.compress && isCompressible(head, body.length, options.compressMinBytes) ? chooseCoding(options.preferences, BOTH) : 'identity';
    if (coding === 'identity') {
      send(this, body, coding, done);
      return this;
    }
    compress(body, coding, options, (error, bytes) => {
      if (bytes === undefined) {
        options.onError(error);
        send(this, body, 'identity', done);
        return;
      }
      send(this, bytes, coding, done);
      options.onEncoded(coding, bytes);
    });
    return this;
  } as ServerResponse['end'];
}
