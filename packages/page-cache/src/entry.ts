import { createHash } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import { isCompressible, varyWithAcceptEncoding, type Coding, type Compressed } from './negotiate.js';
import type { Lifetime } from './freshness.js';
import { keysOfHeaders, SURROGATE_KEY_HEADER } from './surrogate-keys.js';

export const CACHE_HEADER = 'x-middleware-cache';

/** One stored encoding of a response, with both of its heads prepared: a hit or a 304 is one `writeHead` and one `end`. */
export interface Representation {
  readonly coding: Coding;
  readonly body: Buffer;
  /** Strong validator: a hash of exactly these bytes, so the same content has the same tag in every process and run. */
  readonly etag: string;
  /** The 200 head as a flat list of names and values, ending with `x-middleware-cache: hit`. */
  readonly headers: string[];
  /** The 304 head: only the fields RFC 9110 §15.4.5 asks a 304 to repeat, plus `x-middleware-cache: hit`. */
  readonly notModifiedHeaders: string[];
}

/** A stored response: its identity body and the encodings kept beside it, and how long it is fresh. */
export interface CacheEntry extends Lifetime {
  readonly identity: Representation;
  readonly br?: Representation | undefined;
  readonly gzip?: Representation | undefined;
  /** Whether the response may be sent in br and gzip (text, not already encoded, large enough): see `isCompressible`. */
  readonly compressible: boolean;
  /** Every body's bytes plus every stored header name and value byte (counted once): what the byte bound counts. */
  readonly size: number;
  /** The stored headers, without those each representation sets itself; kept to build encodings later. */
  readonly base: readonly (readonly [string, string])[];
  /** The `Vary` every representation sends. */
  readonly vary: string | undefined;
  /** The renderer sent the body chunked (`Transfer-Encoding`): no `Content-Length` is added. */
  readonly chunked: boolean;
  /** The surrogate keys the response named (its key headers): a purge of any of them removes the entry. */
  readonly keys: readonly string[];
}

/** Header names a representation sets itself, so they are never taken from the renderer's response. */
const OWN = new Set([CACHE_HEADER, 'content-length', 'content-encoding', 'etag', 'vary']);
/** The fields a 304 repeats (RFC 9110 §15.4.5); `Date` Node adds. */
const NOT_MODIFIED_FIELDS = new Set(['cache-control', 'content-location', 'expires']);

/** A strong ETag of `bytes`: a truncated SHA-256, cheap beside a render, so the tag depends on the content only. */
export function etagOf(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`;
}

function headerText(value: OutgoingHttpHeaders[string]): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** Builds the representation of a response (its stored headers `base`) whose body in `coding` is `body`. */
function representation(base: CacheEntry['base'], vary: string | undefined, chunked: boolean, coding: Coding, body: Buffer, etag = etagOf(body)): Representation {
  const headers: string[] = [];
  const notModifiedHeaders: string[] = [];
  for (const [name, value] of base) {
    headers.push(name, value);
    if (NOT_MODIFIED_FIELDS.has(name)) notModifiedHeaders.push(name, value);
  }
  if (coding !== 'identity') headers.push('content-encoding', coding);
  // The length of the body actually stored is part of the prepared head (whatever the renderer declared), so a hit
  // goes out with a true Content-Length rather than chunked.
  if (!chunked) headers.push('content-length', String(body.length));
  for (const list of [headers, notModifiedHeaders]) {
    if (vary !== undefined) list.push('vary', vary);
    list.push('etag', etag, CACHE_HEADER, 'hit');
  }
  return { coding, body, etag, headers, notModifiedHeaders };
}

/** A prepared head (ending with `x-middleware-cache: hit`) answering with another cache status instead. */
export function withCacheStatus(headers: readonly string[], status: 'stale'): string[] {
  const copy = headers.slice();
  copy[copy.length - 1] = status;
  return copy;
}

export interface EntryOptions {
  /** Smallest body kept in br and gzip as well. */
  compressMinBytes: number;
  /** Whether compressible responses get encodings and `Vary: Accept-Encoding` at all. */
  compress: boolean;
  /** The headers that name surrogate keys (lower case). */
  keyHeaders?: readonly string[] | undefined;
  /** Leave the key headers out of what hits send. */
  hideKeyHeaders?: boolean | undefined;
}

const KEY_HEADERS = [SURROGATE_KEY_HEADER];

function sizeOf(entry: Pick<CacheEntry, 'base' | 'identity' | 'br' | 'gzip'>): number {
  let size = 0;
  for (const [name, value] of entry.base) size += Buffer.byteLength(name) + Buffer.byteLength(value);
  for (const held of [entry.identity, entry.br, entry.gzip]) if (held !== undefined) size += held.body.length;
  return size;
}

/**
 * Builds the entry for a recorded response from the headers it had when its head was written; `identityEtag` is the
 * body's ETag when it is already known (its render sent it whole), else it is computed.
 */
export function createEntry(
  headers: OutgoingHttpHeaders,
  body: Buffer,
  options: EntryOptions = { compress: false, compressMinBytes: 0 },
  identityEtag: string = etagOf(body),
): CacheEntry {
  const base: [string, string][] = [];
  const keyHeaders = options.keyHeaders ?? KEY_HEADERS;
  const hidden = options.hideKeyHeaders === true ? keyHeaders : [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || OWN.has(name) || hidden.includes(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) base.push([name, String(item)]);
  }
  const compressible =
    options.compress &&
    isCompressible(
      { contentType: headerText(headers['content-type']), contentEncoding: headerText(headers['content-encoding']), cacheControl: headerText(headers['cache-control']) },
      body.length,
      options.compressMinBytes,
    );
  const encoding = headerText(headers['content-encoding']);
  // A body the renderer encoded itself keeps its Content-Encoding, in the base the identity representation replays.
  if (encoding !== undefined) base.push(['content-encoding', encoding]);
  const renderedVary = headerText(headers.vary);
  const vary = options.compress ? varyWithAcceptEncoding(renderedVary) : renderedVary;
  const chunked = headers['transfer-encoding'] !== undefined;
  const identity = representation(base, vary, chunked, 'identity', body, identityEtag);
  const keys = keysOfHeaders(headers, keyHeaders);
  // Fresh until purged; the cache gives it the lifetime its response states when it stores it.
  return { identity, compressible, base, vary, chunked, keys, size: sizeOf({ base, identity }), freshUntil: Infinity, staleWhileRevalidateMs: 0, staleIfErrorMs: 0 };
}

/** `entry` with these encoded bodies as well (replacing any it held for the same coding). */
export function withEncodings(entry: CacheEntry, bodies: Readonly<Partial<Record<Compressed, Buffer>>>): CacheEntry {
  const next: { -readonly [K in keyof CacheEntry]: CacheEntry[K] } = { ...entry };
  for (const coding of ['br', 'gzip'] as const) {
    const body = bodies[coding];
    if (body !== undefined) next[coding] = representation(entry.base, entry.vary, entry.chunked, coding, body);
  }
  next.size = sizeOf(next);
  return next;
}

/** `entry` with `lifetime` (none: as it is, fresh until purged); the entry itself when the lifetime is that default. */
export function withLifetime(entry: CacheEntry | undefined, lifetime: Lifetime | undefined): CacheEntry | undefined {
  if (entry === undefined || lifetime === undefined) return entry;
  const { freshUntil, staleWhileRevalidateMs, staleIfErrorMs } = lifetime;
  if (freshUntil === Infinity && staleWhileRevalidateMs === 0 && staleIfErrorMs === 0) return entry;
  return { ...entry, freshUntil, staleWhileRevalidateMs, staleIfErrorMs };
}

/** What an entry is apart from its bodies: enough, with the bodies, to rebuild it in another process. */
export type EntryShape = Pick<CacheEntry, 'base' | 'vary' | 'chunked' | 'compressible' | 'keys' | 'freshUntil' | 'staleWhileRevalidateMs' | 'staleIfErrorMs'>;

/** Rebuilds an entry from its shape, its identity body and the encoded bodies kept beside it. */
export function restoreEntry(shape: EntryShape, identity: Buffer, encoded: Readonly<Partial<Record<Compressed, Buffer>>>): CacheEntry {
  const { base, vary, chunked, compressible, keys, freshUntil, staleWhileRevalidateMs, staleIfErrorMs } = shape;
  const plain: CacheEntry = {
    identity: representation(base, vary, chunked, 'identity', identity),
    compressible,
    base,
    vary,
    chunked,
    keys,
    size: 0,
    freshUntil,
    staleWhileRevalidateMs,
    staleIfErrorMs,
  };
  return withEncodings({ ...plain, size: sizeOf(plain) }, encoded);
}
