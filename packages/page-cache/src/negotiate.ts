/**
 * Content-coding policy (pure: no I/O, no clock): which encodings a response may have, which one a request gets
 * (RFC 9110 §12.5.3), and when an `If-None-Match` matches.
 */

/** The content codings the page cache produces; `identity` is the body as the renderer wrote it. */
export const CODINGS = ['br', 'gzip', 'identity'] as const;
export type Coding = (typeof CODINGS)[number];
export type Compressed = Exclude<Coding, 'identity'>;

/** Quality value (0 to 1) per coding the page cache can send, as one request's `Accept-Encoding` states them. */
export type Preferences = Readonly<Record<Coding, number>>;

/** No `Accept-Encoding`, or an empty one: identity only (RFC 9110 allows any coding then, but not every client copes). */
const IDENTITY_ONLY: Preferences = { br: 0, gzip: 0, identity: 1 };

/** RFC 9110 §12.5.3: `x-gzip` is to be treated as `gzip`. */
const ALIASES: Readonly<Record<string, string>> = { 'x-gzip': 'gzip' };

function qualityOf(params: string[]): number {
  for (const param of params) {
    const equals = param.indexOf('=');
    if (equals < 0 || param.slice(0, equals).trim().toLowerCase() !== 'q') continue;
    const q = Number(param.slice(equals + 1).trim());
    // A malformed weight counts as a refusal: sending what a client may not decode is worse than sending more bytes.
    return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0;
  }
  return 1;
}

/**
 * Reads an `Accept-Encoding` value: a listed coding gets its weight (q=0 refuses it; a repeated coding keeps its first
 * weight); `*` gives its weight to every coding not listed; identity not listed is acceptable unless `*;q=0` refuses
 * it. Unknown codings (`deflate`, `zstd`, …) are ignored.
 */
export function parseAcceptEncoding(header: string | undefined): Preferences {
  if (header === undefined || header.trim() === '') return IDENTITY_ONLY;
  const listed = new Map<string, number>();
  let star: number | undefined;
  for (const item of header.split(',')) {
    const [rawName = '', ...params] = item.split(';');
    const lower = rawName.trim().toLowerCase();
    if (lower === '') continue;
    const name = ALIASES[lower] ?? lower;
    const q = qualityOf(params);
    if (name === '*') star ??= q;
    else if (!listed.has(name)) listed.set(name, q);
  }
  const weight = (coding: Coding, unlisted: number) => listed.get(coding) ?? star ?? unlisted;
  // Identity not named is acceptable at the lowest rank, below any coding the client asked for by name or by `*`.
  return { br: weight('br', 0), gzip: weight('gzip', 0), identity: listed.get('identity') ?? (star === 0 ? 0 : star ?? 0.001) };
}

/**
 * The coding to send among those `available`: the highest weight wins, ties go to the smaller encoding (br, then gzip,
 * then identity). When nothing available is acceptable, not even identity (`identity;q=0`, or `*;q=0`), identity is
 * sent anyway, as RFC 9110 §12.5.3 advises, rather than a 406: a page is better than an error for a client that lied.
 */
export function chooseCoding(preferences: Preferences, available: Readonly<Record<Compressed, boolean>>): Coding {
  let best: Coding = 'identity';
  let bestQ = preferences.identity;
  for (const coding of ['gzip', 'br'] as const) {
    const q = preferences[coding];
    if (available[coding] && q > 0 && q >= bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

/**
 * A bounded memo of {@link parseAcceptEncoding}: clients send a handful of distinct values, so a hit looks its header up
 * instead of parsing it. Cleared when full, so a client sending a fresh value on every request cannot grow it.
 */
export function preferencesMemo(limit = 256): (header: string | undefined) => Preferences {
  const memo = new Map<string, Preferences>();
  return (header) => {
    if (header === undefined) return IDENTITY_ONLY;
    let preferences = memo.get(header);
    if (preferences === undefined) {
      if (memo.size >= limit) memo.clear();
      preferences = parseAcceptEncoding(header);
      memo.set(header, preferences);
    }
    return preferences;
  };
}

/** Media types worth compressing: text, and the structured text formats pages and data routes use. */
const COMPRESSIBLE_TYPE = /^(?:text\/|application\/(?:[\w.+-]*\+)?(?:json|xml|javascript|ecmascript)\b|image\/svg\+xml\b)/i;

export interface CompressibleHead {
  contentType: string | undefined;
  contentEncoding: string | undefined;
  cacheControl: string | undefined;
}

/**
 * Whether a response body may be stored and sent in br and gzip: a text type, not already encoded, not marked
 * `no-transform`, and at least `minBytes` long (below that the encoded form saves less than its headers cost).
 */
export function isCompressible(head: CompressibleHead, length: number, minBytes: number): boolean {
  if (length < minBytes || head.contentType === undefined || !COMPRESSIBLE_TYPE.test(head.contentType)) return false;
  if (head.contentEncoding !== undefined && head.contentEncoding.trim().toLowerCase() !== 'identity') return false;
  return head.cacheControl === undefined || !/(?:^|[\s,])no-transform(?:$|[\s,])/i.test(head.cacheControl);
}

/**
 * RFC 9110 §13.1.2: whether `If-None-Match` matches the current representation's strong `etag` — `*`, or any listed
 * tag equal to it by the weak comparison (a `W/` prefix ignored).
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const bare = etag.slice(1, -1);
  for (const match of header.matchAll(/(?:W\/)?"([^"]*)"/g)) {
    if (match[1] === bare) return true;
  }
  return false;
}

/** Adds `Accept-Encoding` to a `Vary` value, unless it is already there or the value is `*`. */
export function varyWithAcceptEncoding(vary: string | undefined): string {
  if (vary === undefined || vary.trim() === '') return 'Accept-Encoding';
  const names = vary.split(',').map((name) => name.trim().toLowerCase());
  return names.includes('accept-encoding') || names.includes('*') ? vary : `${vary}, Accept-Encoding`;
}
