/**
 * Surrogate keys: the names a renderer gives to what a response shows (`Surrogate-Key: post:42 listing:home`), so a
 * purge can remove every page that shows one thing without knowing where it appears (Fastly's Surrogate-Key,
 * Varnish's xkey, Cloudflare's Cache-Tag).
 */

import type { OutgoingHttpHeaders } from 'node:http';

export const SURROGATE_KEY_HEADER = 'surrogate-key';

/** Cloudflare's `Cache-Tag`, whose keys are comma-separated (Fastly's `Surrogate-Key` and the rest: space-separated). */
export const CACHE_TAG_HEADER = 'cache-tag';

/** Longest key accepted, in characters (Fastly's bound). */
export const MAX_KEY_LENGTH = 256;

/** 1–256 visible ASCII characters: what fits a space-separated header value unchanged. */
const KEY = /^[\x21-\x7e]{1,256}$/;

export function isValidKey(value: unknown): value is string {
  return typeof value === 'string' && KEY.test(value);
}

/**
 * The keys a response names in its `Surrogate-Key` header (one value or several), split on whitespace, without
 * repeats; a word that is not a valid key is left out, as it could never be purged.
 */
export function keysOfHeader(value: string | number | readonly string[] | undefined): readonly string[] {
  if (value === undefined) return [];
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : value.join(' ');
  const keys = new Set<string>();
  for (const word of text.split(/[ \t]+/)) if (isValidKey(word)) keys.add(word);
  return [...keys];
}

/**
 * The keys a response names in the headers `names` (lower case), each read its own way: `Cache-Tag` split on commas,
 * any other on whitespace; without repeats, invalid words left out.
 */
export function keysOfHeaders(headers: OutgoingHttpHeaders, names: readonly string[]): readonly string[] {
  if (names.length === 1 && names[0] === SURROGATE_KEY_HEADER) return keysOfHeader(headers[SURROGATE_KEY_HEADER]);
  const keys = new Set<string>();
  for (const name of names) {
    const value = headers[name];
    if (value === undefined) continue;
    if (name !== CACHE_TAG_HEADER) for (const key of keysOfHeader(value)) keys.add(key);
    else {
      const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : value.join(',');
      for (const word of text.split(',')) if (isValidKey(word.trim())) keys.add(word.trim());
    }
  }
  return [...keys];
}

export interface KeyLimits {
  /** Most keys accepted in one purge. */
  maxKeys: number;
}

export type KeysResult = { ok: true; keys: string[] } | { ok: false; message: string };

/** Checks a purge's `keys`: a non-empty array of at most `maxKeys` strings of 1–256 visible ASCII characters. */
export function validateKeys(value: unknown, limits: KeyLimits): KeysResult {
  if (!Array.isArray(value) || value.length === 0) return { ok: false, message: 'keys must be a non-empty array of strings' };
  if (value.length > limits.maxKeys) return { ok: false, message: `keys must hold at most ${limits.maxKeys} entries, got ${value.length}` };
  for (let i = 0; i < value.length; i++) {
    const key: unknown = value[i];
    if (typeof key !== 'string') return { ok: false, message: `keys[${i}] must be a string` };
    if (!isValidKey(key)) {
      return { ok: false, message: `keys[${i}] must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters (no spaces or control characters)` };
    }
  }
  return { ok: true, keys: value as string[] };
}

/**
 * Which cache keys hold each surrogate key, kept in step with the entries stored and removed, so that purging a key
 * costs in proportion to the entries it names, not to the cache's size.
 */
export class SurrogateIndex {
  readonly #entries = new Map<string, Set<string>>();

  /** Records that the entry `cacheKey` names `keys`. */
  add(cacheKey: string, keys: readonly string[]): void {
    for (const key of keys) {
      let holders = this.#entries.get(key);
      if (holders === undefined) this.#entries.set(key, (holders = new Set()));
      holders.add(cacheKey);
    }
  }

  /** Forgets the entry `cacheKey`, which named `keys`. */
  remove(cacheKey: string, keys: readonly string[]): void {
    for (const key of keys) {
      const holders = this.#entries.get(key);
      if (holders === undefined) continue;
      holders.delete(cacheKey);
      if (holders.size === 0) this.#entries.delete(key);
    }
  }

  /** The cache keys of the entries that name `key`, as a copy (removing them changes the index). */
  holders(key: string): string[] {
    const holders = this.#entries.get(key);
    return holders === undefined ? [] : [...holders];
  }

  /** Surrogate keys named by at least one entry. */
  get size(): number {
    return this.#entries.size;
  }
}
