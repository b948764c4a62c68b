import { aboutCaching } from './about/cache.js';
import { archiveCaching } from './archive/cache.js';
import { categoryCaching } from './category/cache.js';
import { feedCaching, sitemapCaching } from './crawler-files.js';
import { homeCaching } from './home/cache.js';
import type { Caching, FileRoute, PageKind, PageRoute, RouteOf } from './kinds.js';
import { postCaching } from './post/cache.js';
import { searchCaching } from './search/cache.js';

/** Every route a content change can purge, page or file, by its kind. */
type RouteMap = { [R in PageRoute | FileRoute as R['kind']]: R };
export type CachedKind = keyof RouteMap;
type CachingMap = { readonly [K in CachedKind]: Caching<RouteMap[K]> };

/**
 * How the caches name each kind, what purges it and whether the sitemap lists it: the registry's server-only part,
 * which the renderer's keys, the sitemap and the origin's purge policy read. A kind missing here, or a field missing
 * from one, does not compile. The order is the purge's: a changed post's own page first, then the listings, then its
 * categories' pages.
 */
const CACHING: CachingMap = {
  post: postCaching,
  home: homeCaching,
  archive: archiveCaching,
  feed: feedCaching,
  sitemap: sitemapCaching,
  category: categoryCaching,
  search: searchCaching,
  about: aboutCaching,
};

export const CACHED_KINDS = Object.keys(CACHING) as CachedKind[];

/** The caching rules of `kind`, typed for its own routes: callers pass a route's kind beside the route. */
export function cachingOf<K extends CachedKind>(kind: K): Caching<RouteMap[K]> {
  return CACHING[kind];
}

const PAGE_CACHING: { readonly [K in PageKind]: Caching<RouteOf<K>> } = CACHING;

/** The caching rules of page kind `kind`. */
export function pageCachingOf<K extends PageKind>(kind: K): Caching<RouteOf<K>> {
  return PAGE_CACHING[kind];
}
