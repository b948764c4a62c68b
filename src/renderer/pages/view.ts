import type { ReactNode } from 'react';
import type { SiteIdentity } from '../site.js';
import type { PageData } from '../types.js';

export type PageDataKind = PageData['kind'];
export type PageOf<K extends PageDataKind> = Extract<PageData, { kind: K }>;

/** What a page says about itself to crawlers and link previews; shared by the server's head and the client's updates. */
export interface PageHead {
  title: string;
  description: string;
  /** The page's own path, or undefined for pages that are not a public address (404, errors, comment answers). */
  path: string | undefined;
}

/** How a kind shows its data: the body inside the site's layout, and the head. Client-safe, like the component. */
export interface PageView<P extends PageData> {
  Component(props: { page: P; site: SiteIdentity }): ReactNode;
  head(page: P, site: SiteIdentity): PageHead;
}
