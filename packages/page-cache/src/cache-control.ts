/**
 * `Cache-Control` as RFC 9111 §5.2 reads it: a comma-separated list of directives, each a token with an optional
 * `=token` or `="quoted string"` argument; names are case-insensitive; commas inside a quoted string do not split.
 * Pure.
 */

/** What a response's `Cache-Control` says, as a shared cache reads it. */
export interface ResponseDirectives {
  /** `no-store`: never stored. */
  readonly noStore: boolean;
  /** `no-cache` (bare or naming fields): never used without revalidating, so this cache does not store it. */
  readonly noCache: boolean;
  /** `private` (bare or naming fields): one visitor's, kept out of shared caches. */
  readonly private: boolean;
  /** `must-revalidate` or `proxy-revalidate`: once stale, never used without a successful new render. */
  readonly mustRevalidate: boolean;
  /** `max-age` in seconds; `'invalid'` when a value is not a non-negative integer (RFC 9111 §4.2.1: then stale). */
  readonly maxAge: number | 'invalid' | undefined;
  /** `s-maxage` in seconds, as `maxAge`. */
  readonly sMaxAge: number | 'invalid' | undefined;
  /** `stale-while-revalidate` in seconds (RFC 5861); an invalid value is ignored. */
  readonly staleWhileRevalidate: number | undefined;
  /** `stale-if-error` in seconds (RFC 5861); an invalid value is ignored. */
  readonly staleIfError: number | undefined;
}

/** RFC 9111 §1.2.2: a delta-seconds value too large to represent is taken as 2^31. */
export const MAX_DELTA_SECONDS = 2 ** 31;

const DELTA_SECONDS = /^[0-9]+$/;

/** One directive as written: its lower-cased name and its argument (unquoted), or `undefined` without one. */
export interface Directive {
  readonly name: string;
  readonly value: string | undefined;
}

/** Skips optional whitespace (SP and HTAB) from `at`. */
function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  return i;
}

/** Reads the quoted string opening at `at` (a `"`); returns its unescaped text and the index after its closing quote. */
function quoted(text: string, at: number): [string, number] {
  let value = '';
  let i = at + 1;
  while (i < text.length && text[i] !== '"') {
    if (text[i] === '\\' && i + 1 < text.length) i++;
    value += text[i];
    i++;
  }
  return [value, i + 1];
}

/**
 * The directives of one or several `Cache-Control` field values, in order, repeats kept. A list element that is not
 * `token[=value]` is skipped up to the next comma outside quotes; an unterminated quoted string runs to the end.
 */
export function parseDirectives(field: string | number | readonly string[] | undefined): Directive[] {
  if (field === undefined) return [];
  const text = typeof field === 'string' ? field : typeof field === 'number' ? String(field) : field.join(',');
  const directives: Directive[] = [];
  let i = 0;
  while (i < text.length) {
    i = skipSpace(text, i);
    let end = i;
    while (end < text.length && text[end] !== ',' && text[end] !== '=' && text[end] !== ' ' && text[end] !== '\t' && text[end] !== '"') end++;
    const name = text.slice(i, end).toLowerCase();
    i = skipSpace(text, end);
    let value: string | undefined;
    if (text[i] === '=') {
      i = skipSpace(text, i + 1);
      if (text[i] === '"') [value, i] = quoted(text, i);
      else {
        const start = i;
        while (i < text.length && text[i] !== ',' && text[i] !== ' ' && text[i] !== '\t' && text[i] !== '"') i++;
        value = text.slice(start, i);
      }
    }
    // Anything else before the next comma makes the element malformed; its name still counts only if it was clean.
    let clean = name !== '';
    while (i < text.length && text[i] !== ',') {
      if (text[i] === '"') [, i] = quoted(text, i);
      else {
        if (text[i] !== ' ' && text[i] !== '\t') clean = false;
        i++;
      }
    }
    if (clean) directives.push({ name, value });
    i++;
  }
  return directives;
}

/** A delta-seconds argument, capped at 2^31; `undefined` when it is missing or not a non-negative integer. */
export function deltaSeconds(value: string | undefined): number | undefined {
  if (value === undefined || !DELTA_SECONDS.test(value)) return undefined;
  return Math.min(Number(value), MAX_DELTA_SECONDS);
}

/** The most restrictive of two readings of a lifetime directive: the shorter, and an invalid one (stale) over any. */
function shorterAge(held: number | 'invalid' | undefined, next: number | undefined): number | 'invalid' {
  if (held === 'invalid' || next === undefined) return 'invalid';
  return held === undefined ? next : Math.min(held, next);
}

function shorter(held: number | undefined, next: number | undefined): number | undefined {
  if (next === undefined) return held;
  return held === undefined ? next : Math.min(held, next);
}

/**
 * A response's directives as a shared cache applies them. A directive given twice keeps its most restrictive reading
 * (RFC 9111 §4.2.1): the shorter lifetime or window, and a `max-age`/`s-maxage` that is once invalid is invalid.
 */
export function responseDirectives(field: string | number | readonly string[] | undefined): ResponseDirectives {
  let noStore = false;
  let noCache = false;
  let isPrivate = false;
  let mustRevalidate = false;
  let maxAge: number | 'invalid' | undefined;
  let sMaxAge: number | 'invalid' | undefined;
  let staleWhileRevalidate: number | undefined;
  let staleIfError: number | undefined;
  for (const { name, value } of parseDirectives(field)) {
    switch (name) {
      case 'no-store':
        noStore = true;
        break;
      case 'no-cache':
        noCache = true;
        break;
      case 'private':
        isPrivate = true;
        break;
      case 'must-revalidate':
      case 'proxy-revalidate':
        mustRevalidate = true;
        break;
      case 'max-age':
        maxAge = shorterAge(maxAge, deltaSeconds(value));
        break;
      case 's-maxage':
        sMaxAge = shorterAge(sMaxAge, deltaSeconds(value));
        break;
      case 'stale-while-revalidate':
        staleWhileRevalidate = shorter(staleWhileRevalidate, deltaSeconds(value));
        break;
      case 'stale-if-error':
        staleIfError = shorter(staleIfError, deltaSeconds(value));
        break;
    }
  }
  return { noStore, noCache, private: isPrivate, mustRevalidate, maxAge, sMaxAge, staleWhileRevalidate, staleIfError };
}
