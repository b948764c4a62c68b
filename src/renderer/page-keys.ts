import { surrogateKey } from '../surrogate-keys.js';
import { cachingOf, pageCachingOf } from './pages/caching.js';
import type { PageKind } from './pages/kinds.js';
import { isRoutedPage, sourceOf } from './pages/sources.js';
import type { PageOf } from './pages/view.js';
import type { PageData, PostListing } from './types.js';

/*
 * The surrogate keys of each response: what it shows, named as the origin purges it (DESIGN §10, issue 23), both read
 * from the page registry. A page's own key comes first and its posts' keys after, in the order shown: when a long
 * listing's keys do not all fit in the header, those left out are posts, and the origin purges every listing of a post
 * by the listing's own key too.
 */

const postKeys = (posts: readonly { oid: string }[]) => posts.map((post) => surrogateKey(cachingOf('post').key({ kind: 'post', oid: post.oid })));

function routedPageKeys<K extends PageKind>(kind: K, page: PageOf<K>): string[] {
  const source = sourceOf(kind);
  return [surrogateKey(pageCachingOf(kind).key(source.routeOf(page))), ...postKeys(source.shows(page))];
}

/** A page's keys, which its data route shares; none for a page no cache keeps (errors, 404s, comment answers). */
export function pageKeys(page: PageData): string[] {
  return isRoutedPage(page) ? routedPageKeys(page.kind, page) : [];
}

/** The feed's keys: it lists the latest posts with their content. */
export function feedKeys(posts: readonly { oid: string }[]): string[] {
  return [surrogateKey(cachingOf('feed').key({ kind: 'feed' })), ...postKeys(posts)];
}

/** The sitemap's keys: it lists every post and every category (which a post change purges it for). */
export function sitemapKeys(posts: readonly PostListing[]): string[] {
  return [surrogateKey(cachingOf('sitemap').key({ kind: 'sitemap' })), ...postKeys(posts)];
}
