import { oneAddressCaching } from './one-address.js';

/** The Atom feed: the latest posts with their content, but no comments, so a comment never purges it. */
export const feedCaching = oneAddressCaching({
  route: { kind: 'feed' },
  path: () => '/feed.xml',
  key: 'listing:feed',
  alteredBy: 'posts',
  sitemap: { because: 'a feed is found through the link every page heads' },
});

/** The sitemap: every post and category page, with no comment counts. */
export const sitemapCaching = oneAddressCaching({ route: { kind: 'sitemap' }, path: () => '/sitemap.xml', key: 'listing:sitemap', alteredBy: 'posts', sitemap: { because: 'robots.txt names it' } });
