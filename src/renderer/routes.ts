import { CATEGORY_PATH_PREFIX, categoryPath, isCategoryName } from '../categories.js';
import { LOCALE_SEGMENT } from '../locale.js';

/** What a page path resolves to. Pure: shared by the server and the client bundle. */
export type PageRoute =
  | { kind: 'home' }
  | { kind: 'archive' }
  | { kind: 'post'; oid: string }
  | { kind: 'category'; name: string }
  | { kind: 'search'; locale: string };

export const DEFAULT_LOCALE = 'en-US';

const OID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const LOCALE = new RegExp(`^${LOCALE_SEGMENT}$`);

/**
 * The category a page path's last segment names: percent-decoded and NFC-normalized, so every spelling of a name
 * (lower-case hex, NFD, a letter escaped for no reason) reaches its page; undefined when it names no category.
 */
function categoryNameOf(segment: string): string | undefined {
  let name: string;
  try {
    name = decodeURIComponent(segment).normalize('NFC');
  } catch {
    return undefined;
  }
  return isCategoryName(name) ? name : undefined;
}

/**
 * Resolves a URL pathname to a page; undefined for anything that is not one of the renderer's pages. A category page
 * is found under any spelling of its name; {@link pagePathOf} gives the one it is served at.
 */
export function matchPage(pathname: string, locales: readonly string[]): PageRoute | undefined {
  if (pathname === '/') return { kind: 'home' };
  if (pathname === '/plog') return { kind: 'archive' };
  if (pathname.startsWith(CATEGORY_PATH_PREFIX)) {
    const segment = pathname.slice(CATEGORY_PATH_PREFIX.length);
    const name = segment.includes('/') ? undefined : categoryNameOf(segment);
    return name === undefined ? undefined : { kind: 'category', name };
  }
  const post = /^\/plog\/([^/]+)$/.exec(pathname);
  if (post?.[1] !== undefined) return post[1].length <= 100 && OID.test(post[1]) ? { kind: 'post', oid: post[1] } : undefined;
  const search = /^\/([^/]+)\/search$/.exec(pathname);
  if (search?.[1] !== undefined && LOCALE.test(search[1]) && locales.includes(search[1])) return { kind: 'search', locale: search[1] };
  return undefined;
}

/** The canonical path of a page: the address its links name and its canonical link gives. */
export function pagePathOf(route: PageRoute): string {
  switch (route.kind) {
    case 'home':
      return '/';
    case 'archive':
      return '/plog';
    case 'post':
      return `/plog/${route.oid}`;
    case 'category':
      return categoryPath(route.name);
    case 'search':
      return `/${route.locale}/search`;
  }
}

/** The `<locale>/<page_path>` part of a data route: home is `index`, a post is `plog/<oid>`. */
export function dataPathOf(route: PageRoute): { locale: string; pagePath: string } {
  switch (route.kind) {
    case 'home':
      return { locale: DEFAULT_LOCALE, pagePath: 'index' };
    case 'archive':
      return { locale: DEFAULT_LOCALE, pagePath: 'plog' };
    case 'post':
      return { locale: DEFAULT_LOCALE, pagePath: `plog/${route.oid}` };
    case 'category':
      return { locale: DEFAULT_LOCALE, pagePath: categoryPath(route.name).slice(1) };
    case 'search':
      return { locale: route.locale, pagePath: 'search' };
  }
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
