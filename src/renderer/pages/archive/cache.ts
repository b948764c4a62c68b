import type { Caching, RouteOf } from '../kinds.js';
import { archiveAddress } from './route.js';

export const archiveCaching = {
  path: archiveAddress.path,
  key: () => 'listing:archive',
  // It lists every post with its comment count.
  purgedBy: () => [{ kind: 'archive' }],
  sitemap: { listed: true, entries: (posts) => [{ route: { kind: 'archive' }, lastmod: posts[0]?.pub_date }] },
} satisfies Caching<RouteOf<'archive'>>;
