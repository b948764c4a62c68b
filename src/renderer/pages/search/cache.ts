import type { Caching, RouteOf } from '../kinds.js';
import { searchAddress } from './route.js';

export const searchCaching = {
  path: searchAddress.path,
  // It shows no content of the origin; its key lets an operator purge it all the same.
  key: () => 'page:search',
  purgedBy: () => [],
  sitemap: { listed: false, because: 'its results are made per query in the browser; the pages it finds are listed' },
} satisfies Caching<RouteOf<'search'>>;
