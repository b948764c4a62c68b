import type { Caching, FileRoute, PageRoute } from './kinds.js';

/**
 * The caching of a kind with one address (a listing, a file): keyed by `key`; purged by every change to a post or its
 * comments, or, for one that shows no comment counts, by a post's changes only; in the sitemap dated by the newest
 * post, or left out for the reason given.
 */
export function oneAddressCaching<R extends PageRoute | FileRoute>(rules: {
  route: R;
  path: (route: R) => string;
  key: string;
  alteredBy: 'posts and comments' | 'posts';
  sitemap: 'dated by the newest post' | { because: string };
}): Caching<R> {
  const { route, alteredBy, sitemap } = rules;
  return {
    path: rules.path,
    key: () => rules.key,
    purgedBy: (change) => (alteredBy === 'posts' && change.what !== 'post' ? [] : [route]),
    sitemap: sitemap === 'dated by the newest post' ? { listed: true, entries: (posts) => [{ route, lastmod: posts[0]?.pub_date }] } : { listed: false, because: sitemap.because },
  };
}
