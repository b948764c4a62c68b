import { isCategoryName } from '../../../categories.js';
import type { Caching, RouteOf } from '../kinds.js';
import { categoryAddress } from './route.js';

export const categoryCaching = {
  path: categoryAddress.path,
  key: (route) => ['category:', route.name],
  // The page of each category the post had or has lists it with its comment count.
  purgedBy: (change) => [...new Set(change.categories)].map((name) => ({ kind: 'category', name })),
  sitemap: {
    listed: true,
    entries: (posts) => {
      // Posts come newest first, so a category's first post is its newest.
      const newest = new Map<string, string>();
      for (const post of posts) for (const name of post.categories) if (isCategoryName(name) && !newest.has(name)) newest.set(name, post.pub_date);
      return [...newest].map(([name, lastmod]) => ({ route: { kind: 'category', name }, lastmod }));
    },
  },
} satisfies Caching<RouteOf<'category'>>;
