import type { Caching, RouteOf } from '../kinds.js';
import { aboutAddress } from './route.js';

export const aboutCaching = {
  path: aboutAddress.path,
  key: () => 'page:about',
  // It shows only the site's settings, which no content change alters: they change with a restart, like every
  // page's header and footer.
  purgedBy: () => [],
  sitemap: { listed: true, entries: () => [{ route: { kind: 'about' }, lastmod: undefined }] },
} satisfies Caching<RouteOf<'about'>>;
