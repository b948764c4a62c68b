/**
 * What `sitestack proxy` reads from its environment (src/config.ts parses it with these rules), with defaults that fit
 * a Next.js site. Pure.
 */
import { UPSTREAM_DEFAULTS } from './options.js';

/** `sitestack proxy`'s settings (`UPSTREAM_URL`, `UPSTREAM_*_TIMEOUT_MS`, `PROXY_BYPASS`, `PROXY_DATA_ROUTES`). */
export interface ProxyConfig {
  /** The applications behind the proxy (`UPSTREAM_URL`, or `--upstream`); none: the command asks for one. */
  upstreams: string[];
  /** @default 5000 */
  connectTimeoutMs: number;
  /** @default 30000 */
  firstByteTimeoutMs: number;
  /** @default 30000 */
  idleTimeoutMs: number;
  /**
   * Paths the page cache passes by: Next.js's image optimizer (its answers vary by `Accept` and width, and it keeps its
   * own cache) and API routes (per-user and non-GET). @default ['/_next/image', '/api/']
   */
  bypassPrefixes: string[];
  /**
   * How long after a stored page turned stale (expired, or soft-purged) it still answers in place of a failed upstream,
   * when the page's own `stale-if-error` does not say: a day-old page serves readers better than a 502. @default 86400000
   */
  staleIfErrorMs: number;
  /** The client-navigation data routes purged with their page: Next.js's `/_next/data/<buildId>/<page>.json`. @default '/_next/data/' */
  dataRoutePrefix: string;
}

export const PROXY_DEFAULTS = {
  connectTimeoutMs: UPSTREAM_DEFAULTS.connectTimeoutMs,
  firstByteTimeoutMs: UPSTREAM_DEFAULTS.firstByteTimeoutMs,
  idleTimeoutMs: UPSTREAM_DEFAULTS.idleTimeoutMs,
  staleIfErrorMs: 86_400_000,
  bypassPrefixes: ['/_next/image', '/api/'],
  dataRoutePrefix: '/_next/data/',
} as const satisfies Omit<ProxyConfig, 'upstreams' | 'bypassPrefixes'> & { bypassPrefixes: readonly string[] };

/** The origin of `http(s)://host[:port]` (a trailing `/` allowed), or `undefined` for anything more or less. */
export function upstreamOrigin(value: string): string | undefined {
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(value) || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.hostname === '' ? undefined : url.origin;
}

/** A path prefix as the page cache compares it: starts with '/', no whitespace, query or fragment. */
export function validPathPrefix(prefix: string): boolean {
  return prefix.startsWith('/') && !/[\s?#]/.test(prefix);
}
