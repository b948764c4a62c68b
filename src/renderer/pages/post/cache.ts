import type { Caching, RouteOf } from '../kinds.js';
import { postAddress } from './route.js';

export const postCaching = {
  path: postAddress.path,
  key: (route) => ['post:', route.oid],
  // Its own page; the listings that show it have purge rules of their own.
  purgedBy: (change) => [{ kind: 'post', oid: change.oid }],
  sitemap: { listed: true, entries: (posts) => posts.map((post) => ({ route: { kind: 'post', oid: post.oid }, lastmod: post.pub_date })) },
} satisfies Caching<RouteOf<'post'>>;
