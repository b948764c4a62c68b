import type { Caching, RouteOf } from '../kinds.js';
import { homeAddress } from './route.js';

export const homeCaching = {
  path: homeAddress.path,
  key: () => 'listing:home',
  // It lists the latest posts with their comment counts.
  purgedBy: () => [{ kind: 'home' }],
  sitemap: { listed: true, entries: (posts) => [{ route: { kind: 'home' }, lastmod: posts[0]?.pub_date }] },
} satisfies Caching<RouteOf<'home'>>;
