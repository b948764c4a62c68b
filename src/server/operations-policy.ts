/**
 * Pure rules of the operations endpoints and the request log: which route class a path belongs to, how a logged path is
 * bounded, which requests a `LOG_REQUESTS` mode logs, and what readiness answers. No I/O, no clock.
 */

import { HEALTH_PATH, METRICS_PATH, READY_PATH } from '../http/index.js';
import { LOG_URL_MAX_CHARS, type LogRequestsMode } from '../log-bounds.js';
import { DEFAULTS as PAGE_CACHE_DEFAULTS } from '@sitestack/page-cache';
import { DATA_PREFIX, STATIC_PREFIX } from '../renderer/index.js';
import { IMAGE_PREFIX } from '../origin/index.js';

/** Where the front answers the page cache's statistics. */
export const STATS_PATH = '/__cache__/stats';

export const OPERATIONS_POLICY_DEFAULTS = {
  /** `sampled` logs one request in this many besides every error. */
  sampleOneIn: 100,
  /** Characters of the path kept in a log line. */
  maxPathChars: LOG_URL_MAX_CHARS,
  /** Characters of each query value kept in a log line. */
  maxQueryValueChars: 40,
  /** Query parameters kept in a log line; the rest are counted. */
  maxQueryParams: 10,
} as const;

/** Route classes of the front: one label value each in the request duration histogram (a bounded set, by design). */
export function frontRouteClass(path: string, method: string | undefined): string {
  if (path === HEALTH_PATH || path === READY_PATH) return 'health';
  if (path === METRICS_PATH) return 'metrics';
  if (path === '/api/v1/search') return 'search';
  if (path === '/api/search/autocomplete') return 'autocomplete';
  if (path.startsWith('/api/song/')) return 'song';
  if (path === '/api' || path.startsWith('/api/')) return 'api_other';
  if (path === PAGE_CACHE_DEFAULTS.purgePath) return 'purge';
  if (path === STATS_PATH) return 'cache_stats';
  if (path.startsWith(DATA_PREFIX)) return 'data';
  if (path.startsWith(STATIC_PREFIX)) return 'static';
  if (path.startsWith(IMAGE_PREFIX)) return 'image';
  if (method === 'POST' && /^\/plog\/[^/]+\/comments$/.test(path)) return 'comment';
  return 'page';
}

/** Route classes of the proxy: its own endpoints, what its page cache passes by, and pages. */
export function proxyRouteClass(bypassPrefixes: readonly string[]): (path: string, method: string | undefined) => string {
  return (path) => {
    if (path === HEALTH_PATH || path === READY_PATH) return 'health';
    if (path === METRICS_PATH) return 'metrics';
    if (path === PAGE_CACHE_DEFAULTS.purgePath) return 'purge';
    if (path === STATS_PATH) return 'cache_stats';
    return bypassPrefixes.some((prefix) => path.startsWith(prefix)) ? 'bypass' : 'page';
  };
}

/** Route classes of the origin. */
export function originRouteClass(path: string, method: string | undefined): string {
  if (path === HEALTH_PATH || path === READY_PATH) return 'health';
  if (path === METRICS_PATH) return 'metrics';
  if (method === 'POST' && /^\/api\/v1\/plog\/[^/]+\/comments$/.test(path)) return 'comment';
  if (path.startsWith('/api/v1/comments')) return 'admin';
  if (path.startsWith('/api/v1/plog/')) return method === 'GET' || method === 'HEAD' ? 'content' : 'admin';
  if (path.startsWith('/api/v1/images') || path.startsWith(IMAGE_PREFIX)) return method === 'GET' || method === 'HEAD' ? 'image' : 'admin';
  return 'other';
}

/** Which rate limit refused an answer of this route class with 429, if any (the label of `sitestack_rate_limited_total`). */
export function rateLimitOf(routeClass: string, status: number): string | undefined {
  if (status !== 429) return undefined;
  return routeClass === 'search' || routeClass === 'comment' ? routeClass : undefined;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…[${text.length - max}]`;
}

/**
 * A request URL as a log line carries it: the path cut to `maxPathChars`, each query value cut to
 * `maxQueryValueChars` and at most `maxQueryParams` parameters (then how many were left off). Names are kept whole up
 * to the same bound as values: a client chooses both, and a flood of long URLs must not fill the disk.
 */
export function boundedLogPath(url: string, limits: Partial<typeof OPERATIONS_POLICY_DEFAULTS> = {}): string {
  const { maxPathChars, maxQueryValueChars, maxQueryParams } = { ...OPERATIONS_POLICY_DEFAULTS, ...limits };
  const mark = url.indexOf('?');
  const path = cut(mark === -1 ? url : url.slice(0, mark), maxPathChars);
  if (mark === -1) return path;
  const params = url.slice(mark + 1).split('&');
  const kept = params.slice(0, maxQueryParams).map((param) => {
    const equals = param.indexOf('=');
    if (equals === -1) return cut(param, maxQueryValueChars);
    return `${cut(param.slice(0, equals), maxQueryValueChars)}=${cut(param.slice(equals + 1), maxQueryValueChars)}`;
  });
  const left = params.length - kept.length;
  return `${path}?${kept.join('&')}${left > 0 ? `&…[${left} more parameters]` : ''}`;
}

/**
 * Whether a request is chosen for a log line when it arrives, whatever its answer: every request under `all`, one in
 * `sampleOneIn` under `sampled` (`draw` in [0, 1) decides). Only a chosen request pays for reading its cache status.
 */
export function chosenForLog(mode: LogRequestsMode, draw: number, sampleOneIn: number = OPERATIONS_POLICY_DEFAULTS.sampleOneIn): boolean {
  return mode === 'all' || (mode === 'sampled' && draw * sampleOneIn < 1);
}

/**
 * Whether a request gets a log line once answered: a chosen one (chosenForLog), and under `errors` and `sampled` also
 * answers of 500 or more and requests the client left before the answer ended (`status` 0 or `aborted`).
 */
export function shouldLogRequest(mode: LogRequestsMode, status: number, aborted: boolean, chosen: boolean): boolean {
  if (mode === 'off') return false;
  return chosen || status >= 500 || aborted;
}

/** One readiness check's outcome. */
export interface CheckResult {
  name: string;
  ok: boolean;
  /** Whether a failure of this check makes the process unready; the others only report. */
  critical: boolean;
  /** Why it failed, or what it found. */
  detail?: string;
  durationMs: number;
}

/** Where a process is in its life, as readiness sees it. */
export type Lifecycle = 'starting' | 'ready' | 'draining';

export interface ReadinessAnswer {
  status: 200 | 503;
  body: { status: 'ready' | 'starting' | 'draining' | 'unready'; checks: Record<string, Omit<CheckResult, 'name'>> };
}

/** `/readyz`: 503 while starting, while draining, or when a critical check fails; 200 otherwise. Every check is listed. */
export function readinessAnswer(lifecycle: Lifecycle, checks: readonly CheckResult[]): ReadinessAnswer {
  const listed = Object.fromEntries(checks.map(({ name, ...rest }) => [name, rest]));
  if (lifecycle !== 'ready') return { status: 503, body: { status: lifecycle, checks: listed } };
  const failed = checks.some((check) => check.critical && !check.ok);
  return { status: failed ? 503 : 200, body: { status: failed ? 'unready' : 'ready', checks: listed } };
}
