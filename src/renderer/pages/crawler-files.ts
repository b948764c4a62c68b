import type { Caching, FileKind, FileRoute } from './kinds.js';

type FileCaching<K extends FileKind> = Caching<Extract<FileRoute, { kind: K }>>;

/** The Atom feed: the latest posts with their content, but no comments, so a comment never purges it. */
export const feedCaching = {
  path: () => '/feed.xml',
  key: () => 'listing:feed',
  purgedBy: (change) => (change.what === 'post' ? [{ kind: 'feed' }] : []),
  sitemap: { listed: false, because: 'a feed is found through the link every page heads' },
} satisfies FileCaching<'feed'>;

/** The sitemap: every post and category page, with no comment counts. */
export const sitemapCaching = {
  path: () => '/sitemap.xml',
  key: () => 'listing:sitemap',
  purgedBy: (change) => (change.what === 'post' ? [{ kind: 'sitemap' }] : []),
  sitemap: { listed: false, because: 'robots.txt names it' },
} satisfies FileCaching<'sitemap'>;
