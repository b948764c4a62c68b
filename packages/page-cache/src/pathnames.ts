import { validateKeys, type KeyLimits } from './surrogate-keys.js';

export interface PathnameLimits {
  maxPathnames: number;
  maxPathnameLength: number;
}

export type PathnamesResult = { ok: true; pathnames: string[] } | { ok: false; message: string };

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Checks a purge's `pathnames`: a non-empty array of at most `maxPathnames` strings, each starting with `/`, at most
 * `maxPathnameLength` characters, without control characters. Anything else (`../` segments, unicode, spaces) is
 * accepted as is: a pathname is compared with cache keys as a plain string.
 */
export function validatePathnames(value: unknown, limits: PathnameLimits): PathnamesResult {
  if (!Array.isArray(value) || value.length === 0) {
    return { ok: false, message: 'pathnames must be a non-empty array of strings' };
  }
  if (value.length > limits.maxPathnames) {
    return { ok: false, message: `pathnames must hold at most ${limits.maxPathnames} entries, got ${value.length}` };
  }
  for (let i = 0; i < value.length; i++) {
    const pathname: unknown = value[i];
    if (typeof pathname !== 'string') return { ok: false, message: `pathnames[${i}] must be a string` };
    if (!pathname.startsWith('/')) return { ok: false, message: `pathnames[${i}] must start with '/'` };
    if (pathname.length > limits.maxPathnameLength) {
      return { ok: false, message: `pathnames[${i}] must be at most ${limits.maxPathnameLength} characters` };
    }
    if (CONTROL_CHARACTERS.test(pathname)) {
      return { ok: false, message: `pathnames[${i}] must not contain control characters` };
    }
  }
  return { ok: true, pathnames: value as string[] };
}

export type PurgeBodyResult = { ok: true; pathnames?: string[]; keys?: string[] } | { ok: false; message: string };

/**
 * Checks a parsed purge request body: a JSON object with `pathnames` (checked by {@link validatePathnames}), `keys`
 * (checked by {@link validateKeys}) or both. A body without `keys` is checked exactly as the spec's pathnames-only body.
 */
export function validatePurgeBody(body: unknown, limits: PathnameLimits & KeyLimits): PurgeBodyResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, message: 'body must be a JSON object with a pathnames or keys array' };
  }
  const { pathnames, keys } = body as { pathnames?: unknown; keys?: unknown };
  const result: { ok: true; pathnames?: string[]; keys?: string[] } = { ok: true };
  if (pathnames !== undefined || keys === undefined) {
    const checked = validatePathnames(pathnames, limits);
    if (!checked.ok) return checked;
    result.pathnames = checked.pathnames;
  }
  if (keys !== undefined) {
    const checked = validateKeys(keys, limits);
    if (!checked.ok) return checked;
    result.keys = checked.keys;
  }
  return result;
}
