/** What a page path resolves to. Pure: shared by the server and the client bundle. */
export type PageRoute =
  | { kind: 'home' }
  | { kind: 'archive' }
  | { kind: 'post'; oid: string }
  | { kind: 'search'; locale: string };

export const DEFAULT_LOCALE = 'en-US';

const OID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const LOCALE = /^[a-z]{2,3}(?:-[A-Z]{2})?$/;

/** Resolves a URL pathname to a page; undefined for anything that is not one of the renderer's pages. */
export function matchPage(pathname: string, locales: readonly string[]): PageRoute | undefined {
  if (pathname === '/') return { kind: 'home' };
  if (pathname === '/plog') return { kind: 'archive' };
  const post = /^\/plog\/([^/]+)$/.exec(pathname);
  if (post?.[1] !== undefined) return post[1].length <= 100 && OID.test(post[1]) ? { kind: 'post', oid: post[1] } : undefined;
  const search = /^\/([^/]+)\/search$/.exec(pathname);
  if (search?.[1] !== undefined && LOCALE.test(search[1]) && locales.includes(search[1])) return { kind: 'search', locale: search[1] };
  return undefined;
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
