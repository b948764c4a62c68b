/**
 * `Vary` (RFC 9111 §4.1): a response that names request headers other than `Accept-Encoding` (which the cache
 * negotiates itself) is stored under a secondary key, its cache key plus the names and the request's normalised values
 * of those headers, and answers only requests with the same values. Pure.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/**
 * Request headers that carry one visitor's identity: a response varying on one of them is stored only for a request that
 * carries none of them (the copy every anonymous visitor shares), never for a visitor's own value.
 */
export const PERSONAL_REQUEST_HEADERS: readonly string[] = ['authorization', 'cookie'];

/** Separates a cache key from its variant part; a request target never holds a space, so purge rules ignore the rest. */
const VARIANT_MARK = ' vary:';

/**
 * The request header names a `Vary` value lists besides `Accept-Encoding`, lower-cased, sorted, each once (empty when
 * there are none), or `'*'` when it lists `*` (the response varies on more than headers: never stored).
 */
export function varyNames(vary: OutgoingHttpHeaders[string]): readonly string[] | '*' {
  if (vary === undefined) return [];
  const text = Array.isArray(vary) ? vary.join(',') : String(vary);
  const names = new Set<string>();
  for (const item of text.split(',')) {
    const name = item.trim().toLowerCase();
    if (name === '*') return '*';
    if (name !== '' && name !== 'accept-encoding') names.add(name);
  }
  return [...names].sort();
}

/**
 * A request header's value as variants compare it: repeated fields joined, list members trimmed, runs of whitespace
 * made one space; `undefined` when absent (RFC 9111 §4.1: an absent field matches only an absent one).
 */
export function normalisedValue(value: string | readonly string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : value.join(',');
  return text
    .split(',')
    .map((member) => member.trim().replace(/[ \t]+/g, ' '))
    .join(',');
}

/**
 * The secondary key of the variant `headers` select under `key` for a response varying on `names` (from
 * {@link varyNames}), or `undefined` when the request carries a {@link PERSONAL_REQUEST_HEADERS} header the response
 * varies on (such a variant is never stored).
 */
export function variantKey(key: string, names: readonly string[], headers: IncomingHttpHeaders): string | undefined {
  let variant = key + VARIANT_MARK;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const value = normalisedValue(headers[name]);
    if (value !== undefined && PERSONAL_REQUEST_HEADERS.includes(name)) return undefined;
    variant += `${i === 0 ? '' : '&'}${encodeURIComponent(name)}${value === undefined ? '' : `=${encodeURIComponent(value)}`}`;
  }
  return variant;
}
