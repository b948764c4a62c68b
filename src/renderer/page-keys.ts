import { categoryKey, LISTING_KEYS, postKey, SEARCH_PAGE_KEY } from '../surrogate-keys.js';
import type { PageData, PostListing } from './types.js';

/*
 * The surrogate keys of each response: what it shows, named as the origin purges it (DESIGN §10, issue 23). A page's
 * own key comes first and its posts' keys after, in the order shown: when a long listing's keys do not all fit in the
 * header, those left out are posts, and the origin purges every listing of a post by the listing's own key too.
 */

const postKeys = (posts: readonly { oid: string }[]) => posts.map((post) => postKey(post.oid));

/** A page's keys, which its data route shares; none for a page no cache keeps (errors, 404s, comment answers). */
export function pageKeys(page: PageData): string[] {
  switch (page.kind) {
    case 'home':
      return [LISTING_KEYS.home, ...postKeys(page.latest)];
    case 'archive':
      return [LISTING_KEYS.archive, ...postKeys(page.groups.flatMap((group) => group.posts))];
    case 'category':
      return [categoryKey(page.name), ...postKeys(page.posts)];
    case 'post':
      return [postKey(page.post.oid)];
    case 'search':
      return [SEARCH_PAGE_KEY];
    default:
      return [];
  }
}

/** The feed's keys: it lists the latest posts with their content. */
export function feedKeys(posts: readonly { oid: string }[]): string[] {
  return [LISTING_KEYS.feed, ...postKeys(posts)];
}

/** The sitemap's keys: it lists every post and every category (which a post change purges it for). */
export function sitemapKeys(posts: readonly PostListing[]): string[] {
  return [LISTING_KEYS.sitemap, ...postKeys(posts)];
}
