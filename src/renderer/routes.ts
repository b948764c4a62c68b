import { PAGE_MATCHERS, pageAddressOf } from './pages/addresses.js';
import type { PageRoute } from './pages/kinds.js';

/*
 * Routing, read from the page registry (pages/addresses.ts). Pure: shared by the server and the client bundle.
 */

export { DEFAULT_LOCALE, LOCALE, type PageRoute } from './pages/kinds.js';

/**
 * Resolves a URL pathname to a page; undefined for anything that is not one of the renderer's pages. A category page
 * is found under any spelling of its name; {@link pagePathOf} gives the one it is served at.
 */
export function matchPage(pathname: string, locales: readonly string[]): PageRoute | undefined {
  for (const match of PAGE_MATCHERS) {
    const route = match(pathname, locales);
    if (route !== undefined) return route;
  }
  return undefined;
}

/** The canonical path of a page: the address its links name and its canonical link gives. */
export function pagePathOf(route: PageRoute): string {
  return pageAddressOf(route.kind).path(route);
}

/** The `<locale>/<page_path>` part of a data route: home is `index`, a post is `plog/<oid>`. */
export function dataPathOf(route: PageRoute): { locale: string; pagePath: string } {
  return pageAddressOf(route.kind).dataPath(route);
}

export const DATA_PREFIX = '/_render/data/';
export const STATIC_PREFIX = '/_render/static/';

/** `/_render/data/<build_id>/<locale>/<page_path>.json` of a page. */
export function dataUrl(buildId: string, route: PageRoute): string {
  const { locale, pagePath } = dataPathOf(route);
  return `${DATA_PREFIX}${buildId}/${locale}/${pagePath}.json`;
}

/** Reads a data route's pathname back into its build id and page; undefined when it names no page. */
export function parseDataUrl(pathname: string, locales: readonly string[]): { buildId: string; route: PageRoute } | undefined {
  const match = /^\/_render\/data\/([A-Za-z0-9_-]{1,64})\/([^/]+)\/(.+)\.json$/.exec(pathname);
  if (match === null) return undefined;
  const [, buildId, locale, pagePath] = match;
  if (buildId === undefined || locale === undefined || pagePath === undefined) return undefined;
  const pathname_ = pagePath === 'index' ? '/' : pagePath === 'search' ? `/${locale}/search` : `/${pagePath}`;
  const route = matchPage(pathname_, locales);
  if (route === undefined) return undefined;
  const canonical = dataPathOf(route);
  return canonical.locale === locale && canonical.pagePath === pagePath ? { buildId, route } : undefined;
}
