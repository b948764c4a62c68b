import type { OriginClientOptions } from '../origin-client.js';
import type { PageData } from '../types.js';
import { aboutSource } from './about/data.js';
import { archiveSource } from './archive/data.js';
import { categorySource } from './category/data.js';
import { homeSource } from './home/data.js';
import type { PageKind, PageRoute, RouteOf } from './kinds.js';
import { postSource } from './post/data.js';
import { searchSource } from './search/data.js';
import type { PageMoved, PageSource } from './source.js';
import type { PageOf } from './view.js';

type SourceMap = { readonly [K in PageKind]: PageSource<K> };

/** Where each page kind's props come from: the registry's server-only half. A kind missing here does not compile. */
const SOURCES: SourceMap = { home: homeSource, archive: archiveSource, category: categorySource, post: postSource, search: searchSource, about: aboutSource };

export function sourceOf<K extends PageKind>(kind: K): PageSource<K> {
  return SOURCES[kind];
}

/** Whether `page` is one a route leads to, rather than an answer (a 404, an error, a comment's outcome). */
export function isRoutedPage(page: PageData): page is PageOf<PageKind> {
  return Object.hasOwn(SOURCES, page.kind);
}

/** Loads a page's props from the origin; where it moved (a renamed post); undefined when the page does not exist. */
export function loadPageData(route: PageRoute, origin: OriginClientOptions): Promise<PageData | PageMoved | undefined> {
  return loadOf(route.kind, route, origin);
}

/** Whether a load found the page moved rather than its props. */
export function isMoved(loaded: PageData | PageMoved): loaded is PageMoved {
  return 'movedTo' in loaded;
}

function loadOf<K extends PageKind>(kind: K, route: RouteOf<K>, origin: OriginClientOptions): Promise<PageOf<K> | PageMoved<K> | undefined> {
  return sourceOf(kind).load(route, origin);
}
