import { ERRORS } from '../error-codes.js';
import { AppError, isAppError } from '../errors.js';
import { positiveInteger } from '../positive-integer.js';
import { drainBody } from '../http/index.js';
import { EDGE_CACHE_SETTINGS } from './nginx-config.js';

/** Options of `purgeCdn`. */
export interface PurgeCdnOptions {
  /**
   * The edge's public base URL (`CDN_BASE_URL`), prefixed to every relative URL. Absolute URLs must share its origin.
   * It must be the host visitors use, and the edge's own public host: the edge keeps copies for that host only, and
   * answers a refresh naming another one 421.
   */
  baseUrl: string;
  /**
   * The edge's refresh secret (`EDGE_REFRESH_SECRET`), sent as `secret-header`: the edge takes any other value as an
   * ordinary request.
   */
  secret: string;
  /**
   * The fetch implementation.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
  /**
   * Time allowed for one URL, from the request until its whole body has been read.
   * @default 10000
   */
  timeoutMs?: number;
  /**
   * URLs refreshed at the same time.
   * @default 4
   */
  concurrency?: number;
}

export const DEFAULTS = {
  timeoutMs: 10_000,
  concurrency: 4,
} as const satisfies Partial<PurgeCdnOptions>;

/** One URL the edge did not refresh, and why. */
export interface CdnPurgeFailure {
  /** The absolute URL refreshed, or the URL as given when it could not be resolved. */
  url: string;
  /** The URL exactly as it was handed to `purgeCdn`, so a caller can retry just this one. */
  requested: string;
  reason: string;
  /**
   * The front answered from its soft-purged copy (`x-middleware-cache: stale`): it is rendering the page again, so the
   * refresh is worth retrying soon.
   */
  stale?: true;
}

/** Every URL of one `purgeCdn` call that failed; thrown after all URLs were tried. */
export class CdnPurgeError extends AppError {
  readonly failures: readonly CdnPurgeFailure[];

  constructor(failures: readonly CdnPurgeFailure[], total: number) {
    const failed = ERRORS.CDN_PURGE_FAILED(failures, total);
    super(failed.code, failed.message, failed.status, { details: { failures } });
    this.name = 'CdnPurgeError';
    this.failures = failures;
  }
}

function parseBaseUrl(baseUrl: string): URL {
  let base: URL | undefined;
  try {
    base = new URL(baseUrl);
  } catch {
    base = undefined;
  }
  if (base === undefined || (base.protocol !== 'http:' && base.protocol !== 'https:') || base.search !== '' || base.hash !== '') {
    throw ERRORS.CDN_BASE_URL_INVALID(baseUrl);
  }
  return base;
}

/**
 * Why WHATWG URL parsing (fetch's) would request another resource than `pathAndQuery` names, or undefined when it
 * would only escape characters that cannot be sent raw. It resolves dot segments (`.`, `..`, and `%2e` spellings),
 * reads `\` as `/` in a path, drops tabs and line breaks, and never sends a fragment: a refresh of such a URL would
 * replace another URL's copy and leave this one's as it is.
 */
export function changedByParsing(pathAndQuery: string): string | undefined {
  const query = pathAndQuery.indexOf('?');
  const path = query === -1 ? pathAndQuery : pathAndQuery.slice(0, query);
  if (/[#\t\n\r]/.test(pathAndQuery)) return 'it holds a fragment, a tab or a line break, which URL parsing drops';
  if (path.includes('\\')) return "its path holds '\\', which URL parsing reads as '/'";
  if (path.split('/').some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment))) return 'its path has dot segments, which URL parsing resolves';
  return undefined;
}

/**
 * The absolute URL to refresh for `url`: a relative URL is appended to the base (one slash between them, so a base
 * with a path prefix keeps it); an absolute one must be on the base's origin, since the bypass header is sent with it
 * and purging someone else's host is a mistake at best. A URL that fetch would send as another one (changedByParsing)
 * is refused, never refreshed as that other one.
 */
export function resolvePurgeUrl(url: string, base: URL): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) {
    let absolute: URL;
    try {
      absolute = new URL(url.startsWith('//') ? `${base.protocol}${url}` : url);
    } catch {
      throw ERRORS.CDN_URL_INVALID();
    }
    if (absolute.origin !== base.origin) throw ERRORS.CDN_URL_FOREIGN(base.origin);
    const changed = changedByParsing(/^(?:[^:/?#]*:)?\/\/[^/?#]*(.*)$/s.exec(url)?.[1] ?? '');
    if (changed !== undefined) throw ERRORS.CDN_URL_REWRITTEN(changed);
    return absolute.href;
  }
  const relative = url.replace(/^\/+/, '');
  const changed = changedByParsing(`/${relative}`);
  if (changed !== undefined) throw ERRORS.CDN_URL_REWRITTEN(changed);
  const prefix = base.href.replace(/\/+$/, '');
  return new URL(`${prefix}/${relative}`).href;
}

/**
 * A page deleted at the front answers one of these to its refresh, and the edge stores that answer in place of the old
 * page (see `EDGE_CACHE_SETTINGS.refreshedGoneStatuses`): the purge has done its job, so it is no failure.
 */
const GONE_STATUSES: ReadonlySet<number> = new Set(EDGE_CACHE_SETTINGS.refreshedGoneStatuses);

/** The edge keeps one copy of a page per coding (see `renderNginxConfig`): a refresh must replace each of them. */
const REFRESHED_CODINGS = [...EDGE_CACHE_SETTINGS.codings, 'identity'] as const;

/** A data route is one copy at the edge whatever the coding (asked of the front in gzip), so one request refreshes it. */
const DATA_ROUTE_CODINGS = ['gzip'] as const;

function codingsToRefresh(url: string): readonly string[] {
  return new URL(url).pathname.startsWith(EDGE_CACHE_SETTINGS.dataRoutePrefix) ? DATA_ROUTE_CODINGS : REFRESHED_CODINGS;
}

/**
 * A refresh the edge took is a cache bypass. Anything else (a HIT, a MISS) was served as an ordinary request: the edge
 * did not take the secret, and nothing was refreshed.
 */
const REFRESHED_CACHE_STATUS = 'BYPASS';

/** The edge's answer to a refresh naming another host than the one it keeps copies for (its public host). */
const MISDIRECTED = 421;

async function refresh(url: string, secret: string, fetchImpl: typeof fetch, timeoutMs: number): Promise<void> {
  const signal = AbortSignal.timeout(timeoutMs);
  for (const coding of codingsToRefresh(url)) {
    const response = await fetchImpl(url, {
      method: 'GET',
      headers: { [EDGE_CACHE_SETTINGS.bypassHeader]: secret, 'accept-encoding': coding },
      redirect: 'manual',
      signal,
    });
    // Read to the end: success means the whole refreshed answer came through, and the connection can be reused.
    await drainBody(response);
    const refreshed = (response.status >= 200 && response.status <= 299) || GONE_STATUSES.has(response.status);
    if (response.status === MISDIRECTED) {
      throw ERRORS.CDN_REFRESH_MISDIRECTED(MISDIRECTED, new URL(url).host);
    }
    if (!refreshed) throw ERRORS.CDN_REFRESH_REFUSED(response.status);
    const cacheStatus = response.headers.get(EDGE_CACHE_SETTINGS.cacheStatusHeader);
    if (cacheStatus !== null && cacheStatus !== REFRESHED_CACHE_STATUS) {
      throw ERRORS.CDN_REFRESH_IGNORED(EDGE_CACHE_SETTINGS.cacheStatusHeader, cacheStatus);
    }
    if (response.headers.get(EDGE_CACHE_SETTINGS.frontCacheHeader) === EDGE_CACHE_SETTINGS.frontStaleStatus) throw ERRORS.CDN_REFRESH_STALE(EDGE_CACHE_SETTINGS.frontCacheHeader, EDGE_CACHE_SETTINGS.frontStaleStatus);
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timed out';
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/**
 * Purges the edge by refreshing each URL: a GET with the refresh secret in `secret-header` makes nginx fetch it from the
 * front and store the new answer; one GET per coding the edge keeps apart (br, gzip, identity), each naming it in
 * `Accept-Encoding`, since each is a copy of its own. A 2xx, or a 301/404/410 for a page that moved or is gone (which the edge stores in place of the old page),
 * counts as refreshed, unless the front answered from its soft-purged copy, which the edge does not store, or the edge
 * answered as to an ordinary request (its `X-Cache` other than `BYPASS`: a secret it does not know). Every URL is
 * tried; then one CdnPurgeError names each that failed (another status, a stale answer, an ignored secret, a network
 * error, a timeout, or a URL off the base's origin). Resolves with the absolute URLs refreshed.
 */
export async function purgeCdn(urls: readonly string[], options: PurgeCdnOptions): Promise<string[]> {
  const base = parseBaseUrl(options.baseUrl);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = positiveInteger("purgeCdn's timeoutMs", options.timeoutMs ?? DEFAULTS.timeoutMs, ERRORS.CDN_PURGE_OPTIONS_INVALID);
  const concurrency = positiveInteger("purgeCdn's concurrency", options.concurrency ?? DEFAULTS.concurrency, ERRORS.CDN_PURGE_OPTIONS_INVALID);
  const outcomes: { url: string; requested: string; reason?: string; stale?: true }[] = [];
  let next = 0;

  const worker = async (): Promise<void> => {
    while (next < urls.length) {
      const index = next++;
      const url = urls[index] ?? '';
      try {
        const absolute = resolvePurgeUrl(url, base);
        outcomes[index] = { url: absolute, requested: url };
        await refresh(absolute, options.secret, fetchImpl, timeoutMs);
      } catch (error) {
        outcomes[index] = { url: outcomes[index]?.url ?? url, requested: url, reason: reasonOf(error), ...(isAppError(error) && error.code === ERRORS.CDN_REFRESH_STALE.code ? { stale: true } : {}) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, urls.length) }, worker));
  const failures = outcomes.flatMap(({ reason, ...outcome }) => (reason === undefined ? [] : [{ ...outcome, reason }]));
  if (failures.length > 0) throw new CdnPurgeError(failures, urls.length);
  return outcomes.map(({ url }) => url);
}
