/**
 * The search engine interface (DESIGN §7). Every engine — the embedded SQLite FTS5 engine and Elasticsearch — implements
 * it and passes the shared contract suite in `test-support/contract/contract.ts`. Index and alias names follow Elasticsearch's rules so that
 * one writer works against both: lower-case ASCII letters, digits, `_` and `-`, starting with a letter or digit.
 */

/** A document as the indexer publishes it: identifier, stripped text and the fields ranking and filtering use. */
import type { DocumentAnalysis } from '../analysis/index.js';

export interface IndexedDocument {
  /** The document identifier, lower-cased; a second document with the same id replaces the first. */
  id: string;
  /** The URL as the content build gave it (case kept). */
  url: string;
  title: string;
  /** Plain text; HTML is stripped before indexing. */
  body: string;
  summary: string;
  /** 0–1; `best` ranking adds `popularity * 10` to the text score. */
  popularity: number;
  /** Locale code as given, e.g. `en-US`; filters compare it case-insensitively. */
  locale: string;
  /** The identifier's path without its locale segment, e.g. `docs/web/api`; `slugPrefixes` filter on it. */
  slug: string;
  /**
   * The document's analysis (analysis/document.ts), computed ahead by whoever read it — the indexer's reading threads —
   * so that the engine's writer does not. An engine that analyses text itself ignores it; absent, the embedded engine
   * analyses the document as it writes it.
   */
  analysis?: DocumentAnalysis;
}

export type BulkItemError = {
  /** A stable machine-readable kind, e.g. `invalid_document`, `index_not_found`, `engine_error`. */
  type: string;
  reason: string;
};

/** The outcome of one document of a bulk call, in the order the documents were given. */
export interface BulkItemResult {
  id: string;
  ok: boolean;
  error?: BulkItemError;
}

/** The outcome of deleting one id: `deleted` is false when the index held no document with it (not an error). */
export interface DeleteItemResult { id: string; deleted: boolean }

export type AliasAction = { add: { index: string; alias: string } } | { remove: { index: string; alias: string } };

export interface IndexInfo {
  name: string;
  /** The aliases that point at this index. */
  aliases: string[];
  docCount: number;
  /**
   * Set when this version of sitestack cannot search or write the index: it was built by an older version in a layout
   * this one does not read. A full index run replaces it.
   */
  outdated?: true;
}

export type Health = 'green' | 'yellow' | 'red';

export type SortOrder = 'best' | 'relevance' | 'popularity';

/** What narrows a query: the text and the filters that `search` and `count` share. */
export interface QueryFilter {
  /** Index or alias name. */
  index: string;
  /**
   * The user's text, taken as words: it never reaches the engine's query syntax as such (no operators, quotes, field
   * names or wildcards). Every word must match, in title, summary or body. Text without any word matches nothing.
   */
  text: string;
  /** Only documents of these locales (case-insensitive); empty or absent: every locale. */
  locales?: readonly string[];
  /** Only documents whose slug starts with one of these (case-insensitive); empty or absent: no slug filter. */
  slugPrefixes?: readonly string[];
}

export interface HighlightOptions {
  /** Body fragments to return at most. @default 3 */
  fragments?: number;
  /** Approximate fragment length in characters. @default 120 */
  fragmentLength?: number;
}

export interface SearchQuery extends QueryFilter {
  /**
   * `best`: `popularity * 10 + score`; `relevance`: score; `popularity`: popularity, then score.
   * @default 'best'
   */
  sort?: SortOrder;
  /** Documents per page, 1–100. @default 10 */
  size?: number;
  /** Documents to skip (page offset). @default 0 */
  from?: number;
  /** Return highlight fragments: HTML-escaped text with `<mark>…</mark>` around matched words. @default false */
  highlight?: boolean | HighlightOptions;
  /**
   * `total` is exact up to this many matches (1–10,000), then this many with relation `gte`, as Elasticsearch's
   * `track_total_hits`: counting every match of a query of frequent words costs more than the search. A caller that
   * pages no further than a given depth needs no more.
   * @default 1000
   */
  totalUpTo?: number;
  /**
   * Match a query word the index does not hold (or holds far more rarely than a word one or two edits away) by its
   * spelling neighbours too, ranked below exact matches: edit distance 1 from 4 characters, 2 from 8. `false`
   * matches the words as typed only (the "search instead for" link of a corrected search).
   * @default true
   */
  corrections?: boolean;
}

export interface SearchHit {
  id: string;
  url: string;
  title: string;
  summary: string;
  locale: string;
  slug: string;
  popularity: number;
  /** The engine's text score (higher is better) — not including popularity. */
  score: number;
  /** Present when the query asked for highlighting. */
  highlight?: { title: string[]; body: string[] };
}

export interface TotalHits {
  value: number;
  /** `eq`: exact; `gte`: at least `value` (an engine may stop counting). */
  relation: 'eq' | 'gte';
}

export interface SearchResult {
  documents: SearchHit[];
  total: TotalHits;
  /**
   * Set when a query word the index does not hold was matched by its spelling neighbours instead (see
   * `SearchQuery.corrections`): the query as searched, each such word replaced by its best neighbour.
   */
  corrected?: string;
}

export interface SuggestQuery {
  index: string;
  text: string;
  locales?: readonly string[];
  /** Alternatives are counted within these slug prefixes, like the search itself. */
  slugPrefixes?: readonly string[];
  /** At most this many suggestions. @default 3 */
  size?: number;
  /**
   * How many documents the query itself matches within the same filters, when the caller already knows (from the
   * search it ran for the same text): a query whose words are all known and that matches needs no suggestion, and an
   * engine may take this instead of looking again. @default unknown
   */
  knownTotal?: number;
}

/** A "did you mean" alternative: the whole query text with some words replaced, and how many documents match it. */
export interface Suggestion {
  text: string;
  /** Documents matching `text`: exact with `relation` `eq`, at least this many with `gte` (an engine may stop counting). */
  total: number;
  /** `eq`: `total` is exact; `gte`: more documents match (the embedded engine counts up to 100). Like `TotalHits.relation`. */
  relation: 'eq' | 'gte';
}

export interface AutocompleteQuery {
  index: string;
  /** The text the title starts with (case- and diacritic-insensitive). */
  prefix: string;
  locales?: readonly string[];
  /** At most this many matches. @default 10 */
  size?: number;
}

export interface AutocompleteMatch {
  title: string;
  url: string;
  locale: string;
}

export interface SearchEngine {
  /** Cluster health; the indexer only writes when it is `green` or `yellow`. */
  health(): Promise<Health>;
  /** Creates an empty index. Throws AppError `INDEX_EXISTS` when the name is taken by an index or an alias. */
  createIndex(name: string): Promise<void>;
  /**
   * Adds or replaces documents by id in the named index (never an alias). Resolves with one result per document, in
   * order; a document that cannot be stored is a failed item, not an exception. Throws only when the index is missing
   * (AppError `INDEX_NOT_FOUND`) or the engine cannot be reached.
   */
  bulk(index: string, documents: readonly IndexedDocument[]): Promise<BulkItemResult[]>;
  /** Deletes documents by id from the named index (never an alias). Throws AppError INDEX_NOT_FOUND when the index is missing. */
  deleteDocuments(index: string, ids: readonly string[]): Promise<DeleteItemResult[]>;
  /** Makes every document written so far visible to search (Elasticsearch's refresh; a no-op where writes are visible at once). */
  refresh(index: string): Promise<void>;
  /** Applies every action atomically: readers see all of them or none. Throws when an index is missing. */
  updateAliases(actions: readonly AliasAction[]): Promise<void>;
  /** Indices whose name starts with `prefix`, sorted by name, with the aliases pointing at each. */
  listIndices(prefix: string): Promise<IndexInfo[]>;
  /** Deletes an index and the aliases pointing at it. Throws AppError `INDEX_NOT_FOUND` when it does not exist. */
  deleteIndex(name: string): Promise<void>;
  /** Merges the index's segments for faster search. */
  forceMerge(name: string): Promise<void>;
  /** Throws AppError `SEARCH_NOT_READY` (503) when the index or alias does not exist. */
  search(query: SearchQuery): Promise<SearchResult>;
  count(query: QueryFilter): Promise<number>;
  suggest(query: SuggestQuery): Promise<Suggestion[]>;
  autocomplete(query: AutocompleteQuery): Promise<AutocompleteMatch[]>;
  close(): Promise<void>;
}
