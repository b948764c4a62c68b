import { LOCALE_SEGMENT } from '../../locale.js';
import type { KeyName } from '../../surrogate-keys.js';

/*
 * The shapes every page kind fills in. Pure, importing only types and the locale pattern: the client bundle reads the addresses, the origin's
 * purge policy the caching rules, so nothing here may pull server code (node: modules, the origin client) along.
 */

/** What a page path resolves to. */
export type PageRoute =
  | { kind: 'home' }
  | { kind: 'archive' }
  | { kind: 'post'; oid: string }
  | { kind: 'category'; name: string }
  | { kind: 'search'; locale: string }
  | { kind: 'about' };

export type PageKind = PageRoute['kind'];
export type RouteOf<K extends PageKind> = Extract<PageRoute, { kind: K }>;

/** The files beside the pages whose content comes from the origin: what a crawler or a feed reader asks for. */
export type FileRoute = { kind: 'feed' } | { kind: 'sitemap' };
export type FileKind = FileRoute['kind'];

export const DEFAULT_LOCALE = 'en-US';

/** A locale as a search page's first path segment names it: the one pattern routing and the edge agree on. */
export const LOCALE = new RegExp(`^${LOCALE_SEGMENT}$`);


/** A change of the origin's content: a post created, edited or deleted, or its approved comments changed. */
export interface ContentChange {
  what: 'post' | 'comments';
  oid: string;
  /** The post's categories before and after the change, since it leaves the pages of those it no longer has. */
  categories: readonly string[];
}

/** A post as the sitemap reads it, newest first. */
export interface ListedPost {
  oid: string;
  pub_date: string;
  categories: readonly string[];
}

/** Whether a kind's addresses are in the sitemap, and with which date; a kind left out says why. */
export type SitemapDecision<R> =
  | { listed: false; because: string }
  | { listed: true; entries: (posts: readonly ListedPost[]) => { route: R; lastmod: string | undefined }[] };

/** How the caches name a kind and which content changes purge it. Server-only: the client bundle never needs it. */
export interface Caching<R> {
  /** The canonical path: the address its links name and its canonical link gives. */
  path(route: R): string;
  /** The key its own answers carry first, which the origin purges it by. */
  key(route: R): KeyName;
  /** Its addresses that `change` alters; none when the kind shows nothing a content change touches. */
  purgedBy(change: ContentChange): R[];
  sitemap: SitemapDecision<R>;
}

/** Where a page lives: the matching of a path, its canonical path and the data route the client fetches it by. */
export interface PageAddress<K extends PageKind> {
  /** The page `pathname` names, or undefined; the kinds' paths never overlap, so the order of matching is free. */
  match(pathname: string, locales: readonly string[]): RouteOf<K> | undefined;
  /** The canonical path: the address its links name and its canonical link gives. */
  path(route: RouteOf<K>): string;
  /** The `<locale>/<page_path>` part of its data route. */
  dataPath(route: RouteOf<K>): { locale: string; pagePath: string };
}
