import type { IncomingHttpHeaders } from 'node:http';
import type { CacheKeyName } from './options.js';

/** The parts of a request a key policy reads. */
export interface KeyRequest {
  url: string;
  headers: IncomingHttpHeaders;
}

export interface KeyPolicyOptions {
  variantCookie: string;
  variantHeader: string;
}

/** Paths under this prefix keep their query string in the `search-query` policy (the spec's "/search paths"). */
export const SEARCH_PATH_PREFIX = '/search';

/**
 * The request target in origin form (`/path?query`), or `undefined` when it has none (`*`, or an absolute form that
 * does not parse). An absolute-form target (`http://host/x?y`, sent to proxies) is reduced to its path and query so it
 * shares the entry of the origin form (nothing else in it is rewritten: no dot-segment removal, no re-encoding). A bare trailing `?` is dropped: `/x?` and `/x` are one entry.
 */
export function originForm(url: string): string | undefined {
  let target = url;
  if (!target.startsWith('/')) {
    const authority = /^https?:\/\/[^/?#]*/i.exec(target);
    if (authority === null) return undefined;
    target = target.slice(authority[0].length);
    if (!target.startsWith('/')) target = `/${target}`;
  }
  return target.endsWith('?') && target.indexOf('?') === target.length - 1 ? target.slice(0, -1) : target;
}

/** The path part of an origin-form target. */
export function pathOf(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/** The value of cookie `name` in a `Cookie` header (first occurrence, as sent), or '' when absent. */
export function cookieValue(cookieHeader: string | undefined, name: string): string {
  if (cookieHeader === undefined) return '';
  for (const pair of cookieHeader.split(';')) {
    const equals = pair.indexOf('=');
    if (equals !== -1 && pair.slice(0, equals).trim() === name) return pair.slice(equals + 1).trim();
  }
  return '';
}

function headerValue(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name.toLowerCase()];
  return (Array.isArray(value) ? value.join(', ') : (value ?? '')).trim();
}

/**
 * The key of a request under a built-in policy, or `undefined` when the request target has no origin form (such a
 * request is not cached).
 *
 * - `url`: path plus query string exactly as sent; `/x?b=2&a=1` and `/x?a=1&b=2` are two entries, because the renderer
 *   sees two different URLs and one key must map to one response.
 * - `path`: the path only; every query string of a path shares one entry.
 * - `search-query`: `url` for paths starting with `/search`, `path` for every other path.
 * - `path+variant`: `<path> [<cookie>|<header>]`, both values percent-encoded (a missing value is empty). A request
 *   path never contains a space, so the part before the first space is always the page path.
 */
export function computeKey(policy: CacheKeyName, request: KeyRequest, options: KeyPolicyOptions): string | undefined {
  const target = originForm(request.url);
  return target === undefined ? undefined : keyForTarget(policy, target, request.headers, options);
}

/** {@link computeKey} for a target already in origin form. */
export function keyForTarget(policy: CacheKeyName, target: string, headers: IncomingHttpHeaders, options: KeyPolicyOptions): string {
  switch (policy) {
    case 'url':
      return target;
    case 'path':
      return pathOf(target);
    case 'search-query':
      return target.startsWith(SEARCH_PATH_PREFIX) ? target : pathOf(target);
    case 'path+variant': {
      const cookie = cookieValue(headers.cookie, options.variantCookie);
      const header = headerValue(headers, options.variantHeader);
      return `${pathOf(target)} [${encodeURIComponent(cookie)}|${encodeURIComponent(header)}]`;
    }
  }
}

/** The key with any `path+variant` suffix removed: the part the purge rules compare with pathnames. */
export function keyBase(key: string): string {
  const space = key.indexOf(' ');
  return space === -1 ? key : key.slice(0, space);
}
