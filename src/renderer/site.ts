/** Who the site says it is: its name, the line that describes it to readers and crawlers, and its footer. */
export interface SiteIdentity {
  /** In every page title, the header, the feed and Open Graph (`SITE_NAME`). @default 'sitestack plog' */
  name: string;
  /** The meta description of pages without their own, and the feed's subtitle (`SITE_DESCRIPTION`). @default the demo's line */
  description: string;
  /** The footer of every page, as text (`SITE_FOOTER`). @default 'Served by sitestack.' */
  footer: string;
}

/** The demo site's identity: what a fresh `npm start` shows. */
export const SITE_DEFAULTS: SiteIdentity = {
  name: 'sitestack plog',
  description: 'Notes on serving a content site fast and fresh: caching, search, SQLite and the web platform.',
  footer: 'Served by sitestack.',
};

/** Longest value of each identity setting: they land in every page's head and header. */
export const SITE_LIMITS = { name: 100, description: 300, footer: 300 } as const;
