/**
 * The rules that read one configuration value from the environment, each raising CONFIG_INVALID with the message
 * "expected NAME to be …, got '…'". Pure: loadConfig (config.ts) applies them to the environment once, at start-up.
 */
import { ERRORS, SECRET_RULE, withheld } from './error-codes.js';
import { LOCALE_SEGMENT } from './locale.js';

export interface RateLimit {
  max: number;
  windowMs: number;
}

export type Env = Record<string, string | undefined>;

/** Reads the environment variable `name`, treating an empty value as unset. */
export function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function optional<T>(env: Env, name: string, parse: (name: string, value: string) => T): T | undefined {
  const value = read(env, name);
  return value === undefined ? undefined : parse(name, value);
}

export function parsePort(name: string, value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw ERRORS.CONFIG_INVALID(name, 'a port number', value);
  }
  return port;
}

export function parsePositiveInt(name: string, value: string): number {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < 1) {
    throw ERRORS.CONFIG_INVALID(name, 'a positive integer', value);
  }
  return number;
}

export function parseNonNegativeInt(name: string, value: string): number {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number)) {
    throw ERRORS.CONFIG_INVALID(name, 'a whole number of 0 or more', value);
  }
  return number;
}

export function parseHttpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw ERRORS.CONFIG_INVALID(name, 'an http(s) URL', value);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw ERRORS.CONFIG_INVALID(name, 'an http(s) URL', value);
  }
  return value.replace(/\/+$/, '');
}

/** A secret that can stand in a header value and an nginx string as it is: 16 to 256 URL-safe characters. */
export function parseSecret(name: string, value: string): string {
  if (!/^[A-Za-z0-9._~+/=-]{16,256}$/.test(value)) {
    throw ERRORS.CONFIG_INVALID(name, SECRET_RULE, withheld(value));
  }
  return value;
}

/** An http(s) origin, optionally with a path prefix, without query or fragment: how readers reach the site. */
export function parsePublicUrl(name: string, value: string): string {
  const url = parseHttpUrl(name, value);
  const parsed = new URL(url);
  if (parsed.search !== '' || parsed.hash !== '' || parsed.username !== '' || parsed.password !== '' || (parsed.pathname !== '/' && parsed.pathname !== '')) {
    throw ERRORS.CONFIG_INVALID(name, 'a scheme and host such as https://example.com', value);
  }
  return parsed.origin;
}

/** An http URL with nothing after the port: where a proxy forwards to. */
export function parseUpstream(name: string, value: string): string {
  const url = parseHttpUrl(name, value);
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' || (parsed.pathname !== '/' && parsed.pathname !== '') || parsed.search !== '' || parsed.username !== '') {
    throw ERRORS.CONFIG_INVALID(name, 'http://host:port', value);
  }
  return parsed.origin;
}

export function parseUpstreams(name: string, value: string): string[] {
  const upstreams = parseList(value).map((url) => parseUpstream(name, url));
  if (upstreams.length === 0) throw ERRORS.CONFIG_INVALID(name, 'a list of at least one http://host:port', value);
  return upstreams;
}

/** A listen address as a client on this machine reaches it: a wildcard address becomes the loopback address. */
export function reachableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

export function parseList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export function parseOneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw ERRORS.CONFIG_INVALID(name, `one of ${allowed.join(', ')}`, value);
  }
  return value as T;
}

const LOCALE_PATH_SEGMENT = new RegExp(`^${LOCALE_SEGMENT}$`);

/** A comma-separated list of distinct locales as the site's paths write them (`en-US,zh-CN,ja`), at least one. */
export function parseLocales(name: string, value: string): string[] {
  const locales = parseList(value);
  if (locales.length === 0 || !locales.every((locale) => LOCALE_PATH_SEGMENT.test(locale)) || new Set(locales).size !== locales.length) {
    throw ERRORS.CONFIG_INVALID(name, 'distinct locales such as en-US,zh-CN,ja', value);
  }
  return locales;
}

/** An HTTP token (RFC 9110 §5.6.2): what a header or cookie name may be. */
export function parseToken(name: string, value: string): string {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value)) {
    throw ERRORS.CONFIG_INVALID(name, 'a header or cookie name', value);
  }
  return value;
}

const WINDOWS: Record<string, number> = { second: 1_000, minute: 60_000, hour: 3_600_000 };

/** Parses a rate such as `25/minute` (also `second` and `hour`). */
export function parseRateLimit(name: string, value: string): RateLimit {
  const match = /^(\d+)\s*\/\s*(second|minute|hour)$/.exec(value);
  const windowMs = match?.[2] === undefined ? undefined : WINDOWS[match[2]];
  if (match?.[1] === undefined || windowMs === undefined || Number(match[1]) < 1) {
    throw ERRORS.CONFIG_INVALID(name, "a rate such as '25/minute'", value);
  }
  return { max: Number(match[1]), windowMs };
}

/** One line of text shown to readers: at most `max` characters, no control characters (they would break the page head). */
export function parseDisplayText(name: string, value: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  if (value.length > max || /[\u0000-\u001f\u007f-\u009f]/.test(value)) {
    throw ERRORS.CONFIG_INVALID(name, `one line of at most ${max} characters`, `${value.slice(0, 40)}${value.length > 40 ? '…' : ''}`);
  }
  return value;
}
