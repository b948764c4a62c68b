/** The embeddable search box: `<sitestack-search>` served as a script by the search API (docs/search-api.md). */
export { allowCrossOriginReads, searchBoxRoutes, SEARCH_BOX_DEFAULTS, type SearchBoxOptions } from './routes.js';
