/** `content-build --from-site`: any site's pages, read from its sitemaps, as a content build (docs/search-indexing.md). */
export { runFromSite, skippedPhrase, type FromSiteReport } from './run.js';
export { FROM_SITE_DEFAULTS, type FromSiteOptions } from './options.js';
