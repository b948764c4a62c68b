import { aboutAddress } from './about/route.js';
import { archiveAddress } from './archive/route.js';
import { categoryAddress } from './category/route.js';
import { homeAddress } from './home/route.js';
import type { PageAddress, PageKind, PageRoute } from './kinds.js';
import { postAddress } from './post/route.js';
import { searchAddress } from './search/route.js';

type PageAddressMap = { readonly [K in PageKind]: PageAddress<K> };

/** Where each page kind lives: the registry's part that the client bundle routes with. A kind missing here does not compile. */
const PAGE_ADDRESSES: PageAddressMap = { home: homeAddress, archive: archiveAddress, category: categoryAddress, post: postAddress, search: searchAddress, about: aboutAddress };

/** The address of page kind `kind`, typed for its own routes: callers pass a route's kind beside the route. */
export function pageAddressOf<K extends PageKind>(kind: K): PageAddress<K> {
  return PAGE_ADDRESSES[kind];
}

/** How each page kind matches a path. */
export const PAGE_MATCHERS: readonly ((pathname: string, locales: readonly string[]) => PageRoute | undefined)[] = Object.values(PAGE_ADDRESSES).map(
  (address) => address.match,
);
