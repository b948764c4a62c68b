import type { OriginClientOptions } from '../origin-client.js';
import type { PageKind, RouteOf } from './kinds.js';
import type { PageOf } from './view.js';

/** A page that moved (a renamed post): its old address answers 301 to the route's. */
export interface PageMoved<K extends PageKind = PageKind> {
  movedTo: RouteOf<K>;
}

/** Where a kind's props come from, and what it shows that the caches must know of. Server-only: it reads the origin. */
export interface PageSource<K extends PageKind> {
  /** The page's props as the origin's answers make them; where it moved; undefined when it does not exist (an unknown post). */
  load(route: RouteOf<K>, origin: OriginClientOptions): Promise<PageOf<K> | PageMoved<K> | undefined>;
  /** The route of a page it loaded: its own surrogate key comes from it. */
  routeOf(page: PageOf<K>): RouteOf<K>;
  /** The posts it shows, in the order shown: their keys follow its own. */
  shows(page: PageOf<K>): readonly { oid: string }[];
}
