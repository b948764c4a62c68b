import type { Logger } from '../log.js';
import { discardBody, readBoundedText } from '../http/index.js';
import { dataUrl, DEFAULT_LOCALE, matchPage, STATIC_PREFIX } from '../renderer/routes.js';

/*
 * A publication's warm-up: once every front has purged the pages a post's publication changes, each front renders
 * them once, so the post's first reader is answered from the front's cache instead of waiting for a render. The
 * outbox asks each front at the address of its purge route (`PURGE_URLS`), the address the front keys its pages by
 * without a public base; the edge needs no warm-up, since its refresh of the same pages already fetches them.
 */

export interface WarmUpOptions {
  fetch: typeof fetch;
  /** Per request. */
  timeoutMs: number;
  /** Ends every request under way (the outbox stops). */
  signal: AbortSignal;
  logger: Logger;
}

/** The largest page read in full to find its build id; a longer one is warmed all the same, its data route is not. */
const PAGE_READ_MAX_BYTES = 8 * 1024 * 1024;

const BUILD_IN_PAGE = new RegExp(`${STATIC_PREFIX.replace(/\//g, '\\/')}([A-Za-z0-9_-]{1,64})\\/`);

/** The scheme, host and port of a front's purge route; undefined for a route that is not a URL. */
export function frontBaseOf(route: string): string | undefined {
  try {
    const url = new URL(route);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The client build a page's HTML loads, which names its data routes; undefined when the page names none. */
export function buildIdOf(html: string): string | undefined {
  return BUILD_IN_PAGE.exec(html)?.[1];
}

/** The data routes of the pathnames that are pages of the default locale, for the build `buildId`. */
export function dataRoutesOf(pathnames: readonly string[], buildId: string): string[] {
  return pathnames.flatMap((pathname) => {
    const route = matchPage(pathname, [DEFAULT_LOCALE]);
    return route === undefined ? [] : [dataUrl(buildId, route)];
  });
}

/**
 * Requests each pathname, then the data routes of those that are pages, from every front, one request at a time per
 * front. It never rejects: a failed warm-up costs its reader one render, as before warm-ups, and is logged at debug.
 */
export async function warmFronts(routes: readonly string[], pathnames: readonly string[], options: WarmUpOptions): Promise<void> {
  const bases = [...new Set(routes.flatMap((route) => frontBaseOf(route) ?? []))];
  await Promise.all(bases.map((base) => warmFront(base, pathnames, options)));
}

async function warmFront(base: string, pathnames: readonly string[], options: WarmUpOptions): Promise<void> {
  let buildId: string | undefined;
  const get = async (path: string, read: boolean): Promise<void> => {
    if (options.signal.aborted) return;
    try {
      const response = await options.fetch(`${base}${path}`, {
        headers: { accept: read ? 'text/html' : 'application/json' },
        signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]),
      });
      if (read && response.ok && (response.headers.get('content-type') ?? '').startsWith('text/html')) {
        buildId ??= buildIdOf(await readBoundedText(response, PAGE_READ_MAX_BYTES, `${base}${path}`));
      } else {
        await discardBody(response);
      }
    } catch (error) {
      options.logger.debug({ url: `${base}${path}`, err: error }, 'warm-up request failed; the first reader renders the page');
    }
  };
  for (const pathname of pathnames) await get(pathname, buildId === undefined);
  if (buildId !== undefined) for (const path of dataRoutesOf(pathnames, buildId)) await get(path, false);
}
