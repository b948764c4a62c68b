/** Site search: content build, reader, HTML stripping, engines, the indexer, the search API, page and autocomplete (DESIGN §7). */
export type { AliasAction, AutocompleteMatch, AutocompleteQuery, BulkItemError, BulkItemResult, DeleteItemResult, Health, HighlightOptions, IndexInfo, IndexedDocument, QueryFilter, SearchEngine, SearchHit, SearchQuery, SearchResult, SortOrder, SuggestQuery, Suggestion, TotalHits } from './engines/types.js';
export { createEngine } from './engines/factory.js';
export { SqliteEngine, SQLITE_ENGINE_DEFAULTS, type SqliteEngineOptions } from './engines/sqlite/engine.js';
export { DEFAULT_INDEX_PREFIX } from './indexing/index-names.js';
export { runIndexer, summarizeRun, INDEX_RUN_DEFAULTS, type IndexMode, type IndexRunOptions, type IndexRunReport, type IndexProgress } from './indexing/indexer.js';
export { readBuild, type ReadPoolOptions } from './indexing/read-pool.js';
export { parseIndexJson, readContentBuild, slugOf, walkIndexFiles, type ReadOptions, type ReadResult } from './indexing/reader.js';
export { stripHtml } from './indexing/strip-html.js';
export { runContentBuild, splitSections, type ContentBuildOptions, type ContentBuildReport } from './indexing/content-build.js';
export { runFromSite, skippedPhrase, FROM_SITE_DEFAULTS, type FromSiteOptions, type FromSiteReport } from './indexing/from-site/index.js';
export { importPopularityCsv, PopularityStore, popularityKey } from './indexing/popularity.js';
export { createLiveUpdater, LIVE_UPDATER_DEFAULTS, type LivePostChange, type LiveUpdaterOptions, type LiveUpdateReport } from './indexing/live-update.js';
export { ensureSearchIndex, loadPopularity, type EnsureSearchIndexOptions } from './indexing/ensure-index.js';
export { searchRoutes, SEARCH_ROUTES_DEFAULTS, type SearchRoutesOptions, type SearchResponse, type SearchDocument, type AutocompleteResponse } from './api/routes.js';
export { parseSearchParams, parseAutocompleteParams, autocompleteCacheControl, type SearchParams, type ValidationErrorBody } from './api/params.js';
export { searchInsightsRoutes, SEARCH_INSIGHTS_DEFAULTS, type SearchInsightsOptions } from './api/insights.js';
export { searchPageRoutes, SEARCH_PAGE_DEFAULTS, type SearchPageOptions } from './page/routes.js';
export { searchPageHtml } from './page/html.js';
