import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { ERRORS } from '../../error-codes.js';
import { NEW_WORDS_WITHIN, beginningOf, fragmentSettings, fragmentsOf, fragmentsOfBeginning, matchWords, titleOf, type FragmentOptions, type TermMatcher } from '../highlight.js';
import { foldForPrefix, tokenize } from '../query-text.js';
import { COMMON_WORD_MIN_DOCUMENTS, COMMON_WORD_SHARE, countExpression, phraseExpression, planQuery, requiredWords, searchExpression, searchExpressionPhrases, type QueryPlan } from '../search-expression.js';
import { FILED_PREFIX_LENGTH, PARTITIONED_BASE, localePartition, partitionOf, partitionRange, popularityOf, rankCandidates, staticRank } from '../static-rank.js';
import { singleChanges, spellable, spliceAlternatives, type Alternative, type Candidate } from '../spelling.js';
import type { Logger } from '../../log.js';
import { BOUND_LIMIT } from '../../sqlite-limit.js';
import { NATIVE_DOUBLES_FUNCTION, NATIVE_FRAGMENTS_FUNCTION, NATIVE_FRAGMENTS_MAX, NATIVE_MARKED_FUNCTION, NATIVE_RANK_FUNCTION, NATIVE_SEPARATOR, loadNativeFunctions, nativeDoubles, nativeFragments, nativeMarked, phraseCounts } from './native-functions.js';
import { FTS_TOKENIZER, SpellLookup, TermChanges, dropSpellIndex, hasSpellIndex, rebuildSpellIndex, spellTables } from './sqlite-spell.js';
import { quoteIdentifier, tablesOf } from './sqlite-tables.js';
import { DocumentWriter, type IndexStatement } from './sqlite-write.js';
import { clampInteger, indexExists, indexNotFound, validIndexName } from './validation.js';
import type { AliasAction, AutocompleteMatch, AutocompleteQuery, BulkItemResult, DeleteItemResult, Health, HighlightOptions, IndexInfo, IndexedDocument, QueryFilter, SearchEngine, SearchHit, SearchQuery, SearchResult, SuggestQuery, Suggestion } from './types.js';

/** Options of the embedded engine. */
export interface SqliteEngineOptions {
  /** The database file; created with its directory when missing. */
  path: string;
  /**
   * bm25 weights of the title, summary and body columns: a title match weighs more than a body match.
   * @default [10, 3, 1]
   */
  columnWeights?: readonly [number, number, number];
  /**
   * Prefix lengths FTS5 keeps an extra index for (faster `word*` queries, slower writes); empty: none.
   * Prefix queries work without it, by scanning the term range.
   * @default []
   */
  prefixIndex?: readonly number[];
  /**
   * Memory FTS5 collects new index entries in before writing a segment: larger means fewer segments to merge.
   * @default 64 MiB
   */
  ftsHashBytes?: number;
  /** Page cache of the connection in MiB. @default 64 */
  cacheMiB?: number;
  /**
   * How long a write waits for another writer's lock before it fails with SQLITE_BUSY. The wait blocks the process's
   * event loop (better-sqlite3 is synchronous), so a server that writes while it answers requests — the origin's live
   * search updates — takes a short one and retries later instead.
   * @default 10000
   */
  busyTimeoutMs?: number;
  /**
   * MiB of the database file read through a memory map instead of a read() call per page: a search reads pages spread
   * across the file (the bodies of ten results, posting lists, documents rows), and on the bench the read() calls cost
   * about 45 µs of system time per query. 0 reads every page with read().
   * @default 1024
   */
  mmapMiB?: number;
  /**
   * Page size of a new database file in bytes (a power of two from 512 to 65536); an existing file keeps its own.
   * Indexing writes documents of several KB and FTS5 leaves of about 4 KB: with 16 KB pages, fewer of them spill to
   * overflow pages, and a build costs about 15% less CPU than with SQLite's 4 KB default.
   * @default 16384
   */
  pageBytes?: number;
  /**
   * Writes to an index no alias points at (a full run's new index, invisible until the swap) share one transaction,
   * committed after this many documents and by `refresh`, `forceMerge`, any alias or index change and `close`. Inside
   * it FTS5 does not merge segments: forceMerge's optimize merges each of them once, instead of automerge and
   * crisismerge merging most of them several times on the way. The cap bounds how long other writers wait and how far
   * the WAL grows. Writes to an aliased index commit at every bulk call, with FTS5's own merging.
   * @default 10000
   */
  buildTransactionDocuments?: number;
  /**
   * Rank with sitestack's native bm25 (native/sitestack-fts5.c), which takes each query word's document count from
   * the spelling statistics instead of scanning the word's postings once per statement as SQLite's bm25() does. When
   * its library is not built, or the index has no spelling statistics, bm25() ranks instead.
   * @default true
   */
  nativeRank?: boolean;
  /**
   * With nativeRank, count the documents holding each phrase of several words exactly, as SQLite's bm25() does for the
   * phrase's IDF: that reads the posting list of every word of the phrase through the whole index, on every query with
   * such a phrase, about a seventh of a whole-title query's work. By default a phrase is counted as its rarest word:
   * every document holding the phrase holds that word, so the phrase's IDF is never overstated, and a whole-phrase
   * match still scores above the same words scattered.
   * @default false
   */
  exactPhraseCounts?: boolean;
  /**
   * Highlight bodies with sitestack's native fragments function (native/fragments.c), which reads the stored UTF-8 once,
   * word by word, as far as the fragments need, instead of decoding the body's beginning into a JS string and folding
   * it. Its answers are those of the JS highlighter; text with a character at or above U+0250 is highlighted in JS.
   * When its library is not built, JS highlights every body.
   * @default true
   */
  nativeHighlight?: boolean;
  /** Told once when a native function was asked for and its library could not be loaded. @default silent */
  logger?: Logger;
}

export const SQLITE_ENGINE_DEFAULTS = {
  columnWeights: [10, 3, 1] as const,
  prefixIndex: [] as const,
  ftsHashBytes: 64 * 1024 * 1024,
  cacheMiB: 64,
  busyTimeoutMs: 10_000,
  mmapMiB: 1024,
  pageBytes: 16_384,
  buildTransactionDocuments: 10_000,
  nativeRank: true,
  exactPhraseCounts: false,
  nativeHighlight: true,
} satisfies Omit<Required<SqliteEngineOptions>, 'path' | 'logger'>;

/** `sqlite:<file>` (also `sqlite://<file>`) → the file path. */
export function sqlitePathFromUrl(url: string): string {
  if (!url.startsWith('sqlite:')) throw ERRORS.SEARCH_URL_INVALID(`not a sqlite: search URL: '${url}'`);
  const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
  if (path === '') throw ERRORS.SEARCH_URL_INVALID(`the sqlite: search URL names no file: '${url}'`);
  return path;
}

interface RankedRow {
  rowid: number;
  popularity: number;
  score: number;
}

/** A documents row as a search reads it: the hit's stored fields, and what highlighting needs. */
interface SearchRow extends Omit<SearchHit, 'score' | 'highlight'> {
  /** The first BODY_BEGINNING bytes of the body, decoded (a character cut at the end decodes to U+FFFD). */
  body?: string | null;
  /** Whether the body is longer than BODY_BEGINNING bytes. */
  long?: number;
  /** sitestack_fragments' answer: the body's fragments, or null for a body it leaves to JS. */
  fragments?: string | null;
  /** sitestack_marked's answer: the title marked, or null for a title it leaves to JS. */
  markedTitle?: string | null;
}

/** FTS5's segment merging while documents are written: `automerge` and `crisismerge` (segments per level). */
interface Merging {
  automerge: number;
  crisismerge: number;
}
/** FTS5's own defaults, in force outside build transactions. */
const FTS5_DEFAULT_MERGING: Merging = { automerge: 4, crisismerge: 16 };
/**
 * Inside a build transaction: no merging at all (FTS5's maximum crisismerge is 1999 segments per level). Every
 * segment is merged exactly once, by forceMerge's optimize, instead of several times on the way.
 */
const BUILD_MERGING: Merging = { automerge: 0, crisismerge: 1999 };

/** Alternatives of a misspelt query counted at most, and candidates per word tried: each costs one count query. */
const SUGGESTION_ALTERNATIVES = 8;
const CANDIDATES_PER_WORD = 4;
/**
 * Added to the text score of a document whose whole title is the query (folded): more than popularity can add
 * (`popularity * 10` ≤ 10), so the page a user names by its title comes first.
 */
export const EXACT_TITLE_BOOST = 25;
/**
 * A document whose title holds every query word scores this plus the bm25 of its title alone (from the title table),
 * ranking it above documents matching in the summary or body only (scored by the weighted bm25 of all columns). Body
 * matches are read only when title matches do not fill the page: ranking every body match of a common word is what
 * makes a full-text query slow.
 */
export const TITLE_MATCH_BOOST = 50;
/** Title matches taken as candidates, most popular first (see search). */
export const TITLE_CANDIDATES = 100;
/** Matches of the whole expression taken as candidates, most popular first, when title matches do not fill the page. */
export const BODY_CANDIDATES = 200;
/** Whole-phrase matches added to those, so adjacent words are found past the body cut-off. */
export const PHRASE_CANDIDATES = 50;
/**
 * An unfinished last word is matched as its most frequent completions in the vocabulary, at most this many (like
 * Elasticsearch's `max_expansions`): a rarer completion is found once typed in full.
 */
export const PREFIX_EXPANSIONS = 16;
/**
 * A suggestion's `total` counts matches up to this many, then answers this many with `relation: 'gte'` (the page shows
 * "20+"): an alternative made of common words would otherwise be counted through thousands of matches, several
 * alternatives per query. "Did you mean" needs to show that the alternative finds pages, not how many past a
 * screenful: counting up to 100 instead cost a misspelt query a third more instructions (3.28 M against 2.46 M on the
 * bench's one-typo queries).
 */
export const SUGGESTION_TOTAL_CAP = 20;
/**
 * Highlighting reads a body's first this many bytes of UTF-8, and the rest only when fragments may lie in it: a long
 * page's fragments are almost always in its beginning, and reading and decoding the whole of ten long bodies would cost
 * more than the rest of the search. Three times the characters in which words not shown yet are looked for (see
 * highlight.ts), so that a beginning of three-byte characters (CJK) still holds them all.
 */
export const BODY_BEGINNING = 24_576;
/** `total` counts matches up to this many by default (see SearchQuery.totalUpTo), then answers `gte`. */
export const TOTAL_CAP = 1000;
/** Terms whose document counts a connection remembers across reads (about 100 bytes each). */
export const TERM_MEMO_ENTRIES = 20_000;

/**
 * The embedded engine: SQLite FTS5 through better-sqlite3. One FTS5 table (title, summary, body) plus one documents
 * table per index; aliases in a table, changed in one transaction. WAL mode lets readers on other connections keep
 * their snapshot while a writer builds a new index, and every read resolves its alias and queries inside one read
 * transaction, so it sees the old index or the new one, never a mix. Writes to an index no alias points at share
 * large transactions without segment merging (see buildTransactionDocuments): other connections see them after
 * `refresh`, as Elasticsearch shows bulk writes after a refresh. Writes to a live index (one an alias points at)
 * are seen at once, by suggestions and autocomplete too (see #write).
 */
export class SqliteEngine implements SearchEngine {
  readonly #db: Database.Database;
  readonly #weights: readonly [number, number, number];
  readonly #prefixIndex: readonly number[];
  readonly #ftsHashBytes: number;
  readonly #statements = new Map<string, Database.Statement>();
  readonly #spellLookups = new Map<string, SpellLookup>();
  /** Runs a function in a deferred transaction; made once, as better-sqlite3 builds several wrappers per transaction(). */
  readonly #readTransaction: (read: () => unknown) => unknown;
  /** What one read transaction looked up once and may ask again (its snapshot does not change while it runs). */
  #snapshot: { version?: number; ranges: Map<string, RowidRange[]> } | undefined;
  /**
   * What #remembered computed (alias targets, whether spelling tables exist, document counts, partitions of an index,
   * partitions holding one locale), valid for this database version.
   */
  readonly #rememberedValues = new Map<string, unknown>();
  /**
   * How many documents hold each term looked up (see #documentsHolding), by index, across reads: a query's words are
   * mostly words earlier queries asked for. Bounded, as the words asked for are not; dropped with the remembered values.
   */
  readonly #termDocuments = new LRUCache<string, { documents: number | undefined }>({ max: TERM_MEMO_ENTRIES });
  #rememberedVersion = -1;
  /** Indices written to while no alias pointed at them since their spelling index was last rebuilt (by refresh or forceMerge). */
  readonly #spellStale = new Set<string>();
  readonly #buildTransactionDocuments: number;
  /** The index whose writes share the open build transaction (see buildTransactionDocuments), and its documents so far. */
  #build: { index: string; documents: number } | undefined;
  /** Whether sitestack_bm25 is loaded into this connection (see nativeRank). */
  readonly nativeRank: boolean;
  /** Whether the native library is loaded into this connection: either option asked for it and it loaded. */
  readonly #nativeLoaded: boolean;
  /** Whether a phrase of several words is counted exactly for sitestack_bm25 (see exactPhraseCounts). */
  readonly #exactPhraseCounts: boolean;
  /** Whether sitestack_fragments and sitestack_marked are loaded into this connection (see nativeHighlight). */
  readonly nativeHighlight: boolean;

  constructor(options: SqliteEngineOptions) {
    this.#weights = options.columnWeights ?? SQLITE_ENGINE_DEFAULTS.columnWeights;
    this.#prefixIndex = options.prefixIndex ?? SQLITE_ENGINE_DEFAULTS.prefixIndex;
    this.#ftsHashBytes = Math.max(1024 * 1024, Math.trunc(options.ftsHashBytes ?? SQLITE_ENGINE_DEFAULTS.ftsHashBytes));
    this.#exactPhraseCounts = options.exactPhraseCounts ?? SQLITE_ENGINE_DEFAULTS.exactPhraseCounts;
    this.#buildTransactionDocuments = Math.max(1, Math.trunc(options.buildTransactionDocuments ?? SQLITE_ENGINE_DEFAULTS.buildTransactionDocuments));
    if (!this.#prefixIndex.every((length) => Number.isInteger(length) && length >= 1 && length <= 10)) {
      throw ERRORS.SEARCH_OPTIONS_INVALID('prefixIndex lengths must be integers from 1 to 10');
    }
    mkdirSync(dirname(options.path), { recursive: true });
    const pageBytes = options.pageBytes ?? SQLITE_ENGINE_DEFAULTS.pageBytes;
    if (!(Number.isInteger(pageBytes) && pageBytes >= 512 && pageBytes <= 65_536 && (pageBytes & (pageBytes - 1)) === 0)) {
      throw ERRORS.SEARCH_OPTIONS_INVALID('pageBytes must be a power of two from 512 to 65536');
    }
    this.#db = new Database(options.path);
    // Takes effect on a new, empty file only, and must come before WAL mode writes the first page.
    this.#db.pragma(`page_size = ${pageBytes}`);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    const busyTimeoutMs = options.busyTimeoutMs ?? SQLITE_ENGINE_DEFAULTS.busyTimeoutMs;
    this.#db.pragma(`busy_timeout = ${Number.isSafeInteger(busyTimeoutMs) && busyTimeoutMs >= 0 ? busyTimeoutMs : SQLITE_ENGINE_DEFAULTS.busyTimeoutMs}`);
    this.#db.pragma(`cache_size = -${Math.round((options.cacheMiB ?? SQLITE_ENGINE_DEFAULTS.cacheMiB) * 1024)}`);
    const mmapBytes = Math.round((options.mmapMiB ?? SQLITE_ENGINE_DEFAULTS.mmapMiB) * 1024 * 1024);
    this.#db.pragma(`mmap_size = ${Number.isFinite(mmapBytes) && mmapBytes > 0 ? mmapBytes : 0}`);
    this.#readTransaction = this.#db.transaction((read: () => unknown) => read()).deferred;
    const rank = options.nativeRank ?? SQLITE_ENGINE_DEFAULTS.nativeRank;
    const highlight = options.nativeHighlight ?? SQLITE_ENGINE_DEFAULTS.nativeHighlight;
    const nativeProblem = rank || highlight ? loadNativeFunctions(this.#db) : undefined;
    this.#nativeLoaded = (rank || highlight) && nativeProblem === undefined;
    this.nativeRank = rank && nativeProblem === undefined;
    this.nativeHighlight = highlight && nativeProblem === undefined;
    if (nativeProblem !== undefined) {
      options.logger?.warn({ problem: nativeProblem }, "search ranks with SQLite's bm25() and highlights in JS: the native functions are not available");
    }
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS search_indices (name TEXT PRIMARY KEY, created_at TEXT NOT NULL) STRICT;
      CREATE TABLE IF NOT EXISTS search_aliases (
        alias TEXT NOT NULL,
        index_name TEXT NOT NULL REFERENCES search_indices(name) ON DELETE CASCADE,
        PRIMARY KEY (alias, index_name)
      ) STRICT;
    `);
  }

  #statement(key: string, sql: () => string): Database.Statement {
    let statement = this.#statements.get(key);
    if (statement === undefined) {
      statement = this.#db.prepare(sql());
      this.#statements.set(key, statement);
    }
    return statement;
  }

  #forgetStatements(index: string): void {
    for (const key of this.#statements.keys()) if (key.startsWith(`${index}\u0000`)) this.#statements.delete(key);
    this.#spellLookups.delete(index);
  }

  #indexExists(name: string): boolean {
    return this.#statement('exists', () => 'SELECT 1 FROM search_indices WHERE name = ?').get(name) !== undefined;
  }

  #aliasExists(name: string): boolean {
    return this.#statement('alias-exists', () => 'SELECT 1 FROM search_aliases WHERE alias = ?').get(name) !== undefined;
  }

  /**
   * The index a name denotes: the index itself, or the one index its alias points at; remembered until the database
   * changes. Call inside a read.
   */
  #resolve(name: string): string {
    return this.#remembered(`\u0000resolve\u0000${name}`, () => {
      if (this.#indexExists(name)) return name;
      const rows = this.#statement('resolve', () => 'SELECT index_name FROM search_aliases WHERE alias = ? ORDER BY index_name')
        .pluck()
        .all(name) as string[];
      if (rows.length === 0) throw ERRORS.SEARCH_NOT_READY(name);
      if (rows.length > 1) {
        throw ERRORS.ALIAS_AMBIGUOUS(`alias '${name}' points at ${rows.length} indices; the embedded engine searches one`);
      }
      return rows[0] as string;
    });
  }

  #aliased(index: string): boolean {
    return this.#statement('aliased', () => 'SELECT 1 FROM search_aliases WHERE index_name = ?').get(index) !== undefined;
  }

  /**
   * Opens the build transaction for `index` (committing another index's first). FTS5's automerge is off inside it:
   * merging segments while they are still being written is wasted work, as forceMerge merges them all in one pass.
   */
  #beginBuild(index: string): void {
    if (this.#build?.index === index) return;
    this.#endBuild();
    this.#db.exec('BEGIN IMMEDIATE');
    this.#build = { index, documents: 0 };
    this.#setMerging(index, BUILD_MERGING);
  }

  /** Commits the open build transaction, if any; then FTS5 merges the index's segments on later writes again. */
  #endBuild(): void {
    const build = this.#build;
    if (build === undefined) return;
    this.#build = undefined;
    if (!this.#db.inTransaction) return;
    this.#db.exec('COMMIT');
    // After the commit: FTS5 writes pending entries as a segment at commit time and would merge it with automerge on.
    if (this.#indexExists(build.index)) this.#setMerging(build.index, FTS5_DEFAULT_MERGING);
  }

  #setMerging(index: string, merging: Merging): void {
    const { fts, titles } = tablesOf(index);
    // FTS5 takes configuration values as literals only; these are integers.
    for (const table of [fts, titles]) {
      this.#db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('automerge', ${merging.automerge})`);
      this.#db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('crisismerge', ${merging.crisismerge})`);
    }
  }

  /** Runs `read` on one consistent snapshot: the alias lookup and the queries see the same database state. */
  #read<T>(read: () => T): T {
    this.#snapshot = { ranges: new Map() };
    try {
      return this.#readTransaction(read) as T;
    } finally {
      this.#snapshot = undefined;
    }
  }

  async health(): Promise<Health> {
    this.#db.prepare('SELECT 1').get();
    return 'green';
  }

  async createIndex(name: string): Promise<void> {
    if (!validIndexName(name)) throw ERRORS.INDEX_NAME_INVALID(name);
    this.#endBuild();
    const tables = tablesOf(name);
    const prefix = this.#prefixIndex.length === 0 ? '' : `, prefix='${this.#prefixIndex.join(' ')}'`;
    this.#forget();
    this.#db.transaction(() => {
      if (this.#indexExists(name) || this.#aliasExists(name)) {
        throw indexExists(name);
      }
      this.#db.exec(`
        CREATE TABLE ${tables.docs} (
          rowid INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          url TEXT NOT NULL,
          title TEXT NOT NULL,
          title_key TEXT NOT NULL,
          locale TEXT NOT NULL,
          locale_key TEXT NOT NULL,
          slug TEXT NOT NULL,
          slug_key TEXT NOT NULL,
          popularity REAL NOT NULL
        ) STRICT;
        CREATE INDEX ${quoteIdentifier(`ix_${name}_title_key`)} ON ${tables.docs} (title_key);
        CREATE VIRTUAL TABLE ${tables.fts} USING fts5(
          title, summary, body, tokenize = '${FTS_TOKENIZER}'${prefix}
        );
        CREATE VIRTUAL TABLE ${tables.titles} USING fts5(title, tokenize = '${FTS_TOKENIZER}');
        CREATE TABLE ${tables.prefixes} (prefix TEXT NOT NULL, doc INTEGER NOT NULL, PRIMARY KEY (prefix, doc)) STRICT, WITHOUT ROWID;
        CREATE VIRTUAL TABLE ${tables.vocab} USING fts5vocab(${quoteIdentifier(`ix_${name}_fts`)}, 'row');
      `);
      // FTS5 takes configuration values as literals only; #ftsHashBytes is an integer.
      this.#db.exec(`INSERT INTO ${tables.fts} (${tables.fts}, rank) VALUES ('hashsize', ${this.#ftsHashBytes})`);
      this.#db.prepare('INSERT INTO search_indices (name, created_at) VALUES (?, ?)').run(name, new Date().toISOString());
    })();
  }

  async bulk(index: string, documents: readonly IndexedDocument[]): Promise<BulkItemResult[]> {
    return this.#write(index, documents.length, (writer) => writer.write(documents));
  }

  async deleteDocuments(index: string, ids: readonly string[]): Promise<DeleteItemResult[]> {
    return this.#write(index, ids.length, (writer) => writer.delete(ids));
  }

  /**
   * Runs one write of `documents` documents to `index` in a transaction. An index no alias points at shares the
   * build transaction (see buildTransactionDocuments) and has its spelling tables rebuilt by the next refresh or force
   * merge. A live index commits at once, with its spelling tables brought up to date in the same transaction (see
   * TermChanges), so that the suggestions and completions of the next read know the new words and no longer the
   * removed ones; when they are missing, or left stale by this connection's earlier writes, they are rebuilt whole.
   */
  #write<T>(index: string, documents: number, write: (writer: DocumentWriter) => T): T {
    if (!this.#indexExists(index)) throw indexNotFound(index);
    const live = this.#aliased(index);
    if (live) this.#endBuild();
    else {
      this.#beginBuild(index);
      this.#spellStale.add(index);
    }
    const tables = tablesOf(index);
    const statement: IndexStatement = (name, sql) => this.#statement(`${index}\u0000${name}`, sql);
    let rebuilt = false;
    try {
      const result = this.#db.transaction(() => {
        rebuilt = live && (this.#spellStale.has(index) || !hasSpellIndex(this.#db, index));
        const changes = live && !rebuilt ? new TermChanges(this.#db) : undefined;
        const writer = new DocumentWriter(statement, index, changes);
        const result = write(writer);
        if (rebuilt) rebuildSpellIndex(this.#db, index, tables.vocab, this.#db.prepare(`SELECT count(*) FROM ${tables.docs}`).pluck().get() as number);
        else changes?.applyTo(index, tables.vocab, writer.added);
        return result;
      })();
      if (rebuilt) {
        this.#spellStale.delete(index);
        this.#spellLookups.delete(index);
      }
      if (this.#build !== undefined && (this.#build.documents += documents) >= this.#buildTransactionDocuments) this.#endBuild();
      return result;
    } finally {
      // What this connection remembered may have changed, and its own writes do not move its data_version.
      this.#forget();
    }
  }

  async refresh(index: string): Promise<void> {
    this.#endBuild();
    if (!this.#indexExists(index)) throw indexNotFound(index);
    this.#refreshSpelling(index);
  }

  /** Rebuilds the "did you mean" index from the vocabulary when documents were written since the last rebuild. */
  #refreshSpelling(index: string): void {
    if (!this.#spellStale.has(index) && hasSpellIndex(this.#db, index)) return;
    const tables = tablesOf(index);
    this.#db.transaction(() => rebuildSpellIndex(this.#db, index, tables.vocab, this.#db.prepare(`SELECT count(*) FROM ${tables.docs}`).pluck().get() as number))();
    this.#spellLookups.delete(index);
    this.#spellStale.delete(index);
    this.#forget();
  }

  async updateAliases(actions: readonly AliasAction[]): Promise<void> {
    this.#endBuild();
    this.#forget();
    this.#db.transaction(() => {
      for (const action of actions) {
        if ('add' in action) {
          const { index, alias } = action.add;
          if (!this.#indexExists(index)) throw indexNotFound(index);
          if (!validIndexName(alias)) throw ERRORS.INDEX_NAME_INVALID(alias);
          if (this.#indexExists(alias)) {
            throw ERRORS.INVALID_ALIAS(`'${alias}' is an index name and cannot be an alias`);
          }
          this.#db.prepare('INSERT OR IGNORE INTO search_aliases (alias, index_name) VALUES (?, ?)').run(alias, index);
        } else {
          const { index, alias } = action.remove;
          if (!this.#indexExists(index)) throw indexNotFound(index);
          const removed = this.#db.prepare('DELETE FROM search_aliases WHERE alias = ? AND index_name = ?').run(alias, index);
          if (removed.changes === 0) {
            throw ERRORS.ALIAS_NOT_FOUND(`alias '${alias}' does not point at '${index}'`);
          }
        }
      }
    })();
  }

  async listIndices(prefix: string): Promise<IndexInfo[]> {
    return this.#read(() => {
      const names = this.#db
        .prepare("SELECT name FROM search_indices WHERE substr(name, 1, length(?)) = ? ORDER BY name")
        .pluck()
        .all(prefix, prefix) as string[];
      return names.map((name) => ({
        name,
        aliases: this.#db.prepare('SELECT alias FROM search_aliases WHERE index_name = ? ORDER BY alias').pluck().all(name) as string[],
        docCount: this.#db.prepare(`SELECT count(*) FROM ${tablesOf(name).docs}`).pluck().get() as number,
      }));
    });
  }

  async deleteIndex(name: string): Promise<void> {
    const tables = tablesOf(name);
    this.#endBuild();
    this.#forget();
    this.#db.transaction(() => {
      if (!this.#indexExists(name)) throw indexNotFound(name);
      this.#db.prepare('DELETE FROM search_aliases WHERE index_name = ?').run(name);
      this.#db.prepare('DELETE FROM search_indices WHERE name = ?').run(name);
      this.#db.exec(`DROP TABLE ${tables.vocab}; DROP TABLE ${tables.fts}; DROP TABLE ${tables.titles}; DROP TABLE ${tables.prefixes}; DROP TABLE ${tables.docs};`);
      dropSpellIndex(this.#db, name);
    })();
    this.#forgetStatements(name);
  }

  async forceMerge(name: string): Promise<void> {
    this.#endBuild();
    if (!this.#indexExists(name)) throw indexNotFound(name);
    const { fts, titles } = tablesOf(name);
    this.#db.prepare(`INSERT INTO ${fts} (${fts}) VALUES ('optimize')`).run();
    this.#db.prepare(`INSERT INTO ${titles} (${titles}) VALUES ('optimize')`).run();
    this.#refreshSpelling(name);
    this.#db.pragma('wal_checkpoint(PASSIVE)');
  }

  /**
   * The MATCH of `table` (the index's FTS table by default) and the filters on its documents row `d`. Queries join
   * `CROSS JOIN` so the FTS walk drives: left to itself, the planner may satisfy `ORDER BY rowid` by scanning the
   * documents table in rowid order and probing FTS5 once per document, which reads the whole index.
   */
  #filterSql(table: string, filter: DocFilter): string {
    return `${table} MATCH ? AND ${filter.sql} AND ${table}.rowid >= CAST(? AS INTEGER) AND ${table}.rowid <= CAST(? AS INTEGER)`;
  }

  /**
   * The rowid ranges a query walks (see static-rank.ts): the partition of each of its locales, or every partition the
   * index holds when it names none, in rowid order. Every statement of
   * #filterSql takes a range; walks of several ranges are merged by static rank (mergeWalks).
   */
  #ranges(index: string, locales: readonly string[] | undefined): RowidRange[] {
    const key = `${index}\u0000${(locales ?? []).join('\u0000').toLowerCase()}`;
    const known = this.#snapshot?.ranges.get(key);
    if (known !== undefined) return known;
    const ranges = this.#rangesOf(index, locales);
    this.#snapshot?.ranges.set(key, ranges);
    return ranges;
  }

  #rangesOf(index: string, locales: readonly string[] | undefined): RowidRange[] {
    if (locales !== undefined && locales.length > 0) {
      return [...new Set(locales.map((locale) => localePartition(locale.toLowerCase())))].sort((a, b) => a - b).map(partitionRange);
    }
    const firstFrom = this.#statement(`${index}\u0000first-from`, () => `SELECT rowid FROM ${tablesOf(index).docs} WHERE rowid >= ? ORDER BY rowid LIMIT 1`).pluck();
    return this.#remembered(`${index}\u0000partitions`, () => {
      const ranges: RowidRange[] = [];
      let rowid = firstFrom.get(PARTITIONED_BASE) as number | undefined;
      while (rowid !== undefined) {
        const range = partitionRange(partitionOf(rowid));
        ranges.push(range);
        rowid = firstFrom.get(range[1] + 1) as number | undefined;
      }
      return ranges;
    });
  }

  /**
   * Top-k retrieval over static-rank postings (rowid = descending popularity, see static-rank.ts): instead of scoring
   * every match, the candidates are the documents whose exact title is the query, the first TITLE_CANDIDATES title
   * matches (from the small title table), and — when those do not fill the page — the first BODY_CANDIDATES matches
   * of the whole expression plus the first PHRASE_CANDIDATES whole-phrase matches, each walked in rowid order so FTS5
   * stops early. Only the candidates get a bm25 score; they are ranked by the sort, and only the page is read and
   * highlighted. A document past every cut-off (an unpopular page matching only in its body a query with many
   * matches) can be missed: that is the approximation, in exchange for a cost bounded by the cut-offs.
   */
  async search(query: SearchQuery): Promise<SearchResult> {
    const sort = query.sort ?? 'best';
    const size = clampInteger(query.size, 10, 1, 100);
    const from = clampInteger(query.from, 0, 0, 10_000);
    const totalUpTo = clampInteger(query.totalUpTo, TOTAL_CAP, 1, 10_000);
    const highlight = query.highlight === undefined || query.highlight === false ? undefined : query.highlight === true ? {} : query.highlight;
    return this.#read(() => {
      const index = this.#resolve(query.index);
      const plan = this.#plan(index, query.text);
      const expression = searchExpression(plan);
      if (expression === undefined || this.#cannotMatch(index, plan)) return { documents: [], total: { value: 0, relation: 'eq' } };
      const tables = tablesOf(index);
      const filter = docFilter(query.locales, query.slugPrefixes);
      const filters = filter.parameters;
      const ranges = this.#ranges(index, query.locales);
      /** The first `limit` rows of a rowid-ordered statement over every range, in static-rank order. */
      const walk = <T>(read: (range: RowidRange) => T[], limit: number, rowidOf: (row: T) => number): T[] => mergeWalks(ranges.map(read), limit, rowidOf);
      const rowOf = (row: RankedRow) => row.rowid;
      const titleKey = foldForPrefix(query.text);
      const wanted = from + size;
      const candidates = new Map<number, RankedRow>();
      // What the walks tell of the total: the documents they found match the query within the filters (unlike those
      // of the exact-title lookup, found by title key), and a walk of every match that ended before its limit found
      // them all. A page filled by title matches says nothing of the body matches: the total is then counted.
      const matching = new Set<number>();
      let everyMatch: number | undefined;
      const scoredWalk = (score: string) =>
        this.#rankedRead(`${index}\u0000walk\u0000${score}\u0000${filter.shape}`, () =>
          `SELECT ${tables.fts}.rowid AS rowid, d.popularity AS popularity,
                  ${score} + (d.title_key = ?) * ${EXACT_TITLE_BOOST} AS score
           FROM ${tables.fts} CROSS JOIN ${tables.docs} d ON d.rowid = ${tables.fts}.rowid
           WHERE ${this.#filterSql(tables.fts, filter)}
           ORDER BY ${tables.fts}.rowid ${BOUND_LIMIT}`,
        );
      if (sort === 'popularity') {
        const textRank = this.#textRank(index, plan);
        const walks = ranges.map(([low, high]) => scoredWalk(textRank.sql)([...textRank.parameters, titleKey, expression, ...filters, low, high, wanted]));
        for (const row of mergeWalks(walks, wanted, rowOf).slice(from)) candidates.set(row.rowid, row);
        for (const rows of walks) for (const row of rows) matching.add(row.rowid);
        if (walks.every((rows) => rows.length < wanted)) everyMatch = matching.size;
      } else {
        // As in the body, a query of common words scores its title matches without bm25: they come in popularity order,
        // the exact title first, and no IDF is read from posting lists that hold most of the titles.
        const titleScore = plan.common ? '0' : `-bm25(${tables.titles})`;
        const titleExpression = plan.common ? (countExpression(plan.words, plan.prefixLast, plan.expansions) as string) : expression;
        const titleRows = this.#rankedRead(`${index}\u0000titles\u0000${titleScore}\u0000${filter.shape}`, () =>
          `SELECT ${tables.titles}.rowid AS rowid, d.popularity AS popularity,
                  ${titleScore} + ${TITLE_MATCH_BOOST} + (d.title_key = ?) * ${EXACT_TITLE_BOOST} AS score
           FROM ${tables.titles} CROSS JOIN ${tables.docs} d ON d.rowid = ${tables.titles}.rowid
           WHERE ${this.#filterSql(tables.titles, filter)}
           ORDER BY ${tables.titles}.rowid ${BOUND_LIMIT}`,
        );
        const titleMatches = walk((range) => titleRows([titleKey, titleExpression, ...filters, ...range, TITLE_CANDIDATES]), TITLE_CANDIDATES, rowOf);
        for (const row of titleMatches) {
          candidates.set(row.rowid, row);
          matching.add(row.rowid);
        }
        if (titleMatches.length === TITLE_CANDIDATES) {
          const exact = this.#statement(`${index}\u0000exact-title\u0000${filter.shape}`, () =>
            `SELECT d.rowid FROM ${tables.docs} d WHERE d.title_key = ? AND ${filter.sql} ORDER BY d.rowid ${BOUND_LIMIT}`,
          ).pluck().all(titleKey, ...filters, wanted) as number[];
          // Documents of one title key have the same title words, so the same title bm25: one is scored (each bm25
          // statement reads the whole posting list of every query word for its IDF) and its score given to all.
          const missing = exact.filter((rowid) => !candidates.has(rowid));
          const exactTitle = new Set(exact);
          const scoredExact = titleMatches.find((row) => exactTitle.has(row.rowid)) ?? (missing.length === 0 ? undefined : this.#statement(`${index}\u0000title-score\u0000${titleScore}`, () =>
            `SELECT ${tables.titles}.rowid AS rowid, d.popularity AS popularity,
                    ${titleScore} + ${TITLE_MATCH_BOOST + EXACT_TITLE_BOOST} AS score
             FROM ${tables.titles} CROSS JOIN ${tables.docs} d ON d.rowid = ${tables.titles}.rowid
             WHERE ${tables.titles} MATCH ? AND ${tables.titles}.rowid = CAST(? AS INTEGER)`,
          ).get(titleExpression, missing[0]) as RankedRow | undefined);
          if (scoredExact !== undefined) {
            const popularity = this.#statement(`${index}\u0000popularity`, () => `SELECT popularity FROM ${tables.docs} WHERE rowid = ?`).pluck();
            for (const rowid of missing) candidates.set(rowid, { rowid, popularity: popularity.get(rowid) as number, score: scoredExact.score });
          }
        }
        if (candidates.size < wanted) {
          // Computed here, as a page that title matches fill needs no text score.
          const textRank = this.#textRank(index, plan);
          // Body matches of a query of common words only are ordered by static rank alone, with no bm25 (see QueryPlan.common).
          const bodyRank = plan.common ? { sql: '0', parameters: [] } : textRank;
          const bodyExpression = plan.common ? (countExpression(plan.words, plan.prefixLast, plan.expansions) as string) : expression;
          // A partition that needs no documents filter is walked in FTS5 alone, popularity taken from the rowid: the
          // documents row per match cost a third of the walk. Its exact-title boost is not needed here: every document
          // whose whole title is the query is already a candidate, from the title matches or the exact-title lookup.
          const bareWalk = this.#rankedRead(
            `${index}\u0000bare-walk\u0000${bodyRank.sql}`,
            () => `SELECT rowid, ${bodyRank.sql} AS score FROM ${tables.fts} WHERE ${this.#filterSql(tables.fts, NO_FILTER)} ORDER BY rowid ${BOUND_LIMIT}`,
            'rowid',
          );
          const filteredWalk = scoredWalk(bodyRank.sql);
          const bodyWalks = ranges.map((range) =>
            this.#filterNeeded(index, query, range)
              ? filteredWalk([...bodyRank.parameters, titleKey, bodyExpression, ...filters, ...range, BODY_CANDIDATES])
              : bareWalk([...bodyRank.parameters, bodyExpression, ...range, BODY_CANDIDATES]),
          );
          const bodyMatches = mergeWalks(bodyWalks, BODY_CANDIDATES, rowOf);
          for (const row of bodyMatches) {
            if (!candidates.has(row.rowid)) candidates.set(row.rowid, row);
            matching.add(row.rowid);
          }
          if (bodyMatches.length < BODY_CANDIDATES) everyMatch = bodyMatches.length;
          const phrase = everyMatch === undefined && !plan.common ? phraseExpression(plan) : undefined;
          if (phrase !== undefined) {
            const phraseWalk = this.#statement(`${index}\u0000phrase\u0000${filter.shape}`, () =>
              `SELECT ${tables.fts}.rowid FROM ${tables.fts} CROSS JOIN ${tables.docs} d ON d.rowid = ${tables.fts}.rowid WHERE ${this.#filterSql(tables.fts, filter)} ORDER BY ${tables.fts}.rowid ${BOUND_LIMIT}`,
            ).pluck();
            const phraseRows = walk((range) => phraseWalk.all(phrase, ...filters, ...range, PHRASE_CANDIDATES) as number[], PHRASE_CANDIDATES, (rowid) => rowid);
            for (const rowid of phraseRows) matching.add(rowid);
            // One statement scores them all: bm25 computes its IDF once per statement (reading every posting list of the
            // query), so the rowids are a filter on the walk (`+` keeps it from FTS5, which would restart per rowid).
            const unscored = phraseRows.filter((rowid) => !candidates.has(rowid)).sort((a, b) => a - b);
            if (unscored.length > 0) {
              const scored = this.#rankedRead(`${index}\u0000score-listed\u0000${textRank.sql}`, () =>
                `SELECT ${tables.fts}.rowid AS rowid, d.popularity AS popularity,
                        ${textRank.sql} + (d.title_key = ?) * ${EXACT_TITLE_BOOST} AS score
                 FROM ${tables.fts} CROSS JOIN ${tables.docs} d ON d.rowid = ${tables.fts}.rowid
                 WHERE ${tables.fts} MATCH ? AND ${tables.fts}.rowid >= CAST(? AS INTEGER) AND ${tables.fts}.rowid <= CAST(? AS INTEGER)
                   AND +${tables.fts}.rowid IN (SELECT value FROM json_each(?))
                 LIMIT ${PHRASE_CANDIDATES}`,
              );
              const scoredRows = scored([...textRank.parameters, titleKey, expression, unscored[0], unscored[unscored.length - 1], JSON.stringify(unscored)]);
              for (const row of scoredRows) candidates.set(row.rowid, row);
            }
          }
        }
      }
      const ranked = sort === 'popularity' ? rankCandidates([...candidates.values()], sort) : rankCandidates([...candidates.values()], sort).slice(from, wanted);
      const documents = this.#readHits(index, ranked, plan, highlight);
      // More known matches than totalUpTo answer the total without counting.
      const seen = everyMatch ?? (matching.size > totalUpTo ? matching.size : undefined);
      const total = seen ?? this.#countIn(index, countExpression(plan.words, plan.prefixLast, plan.expansions) as string, query, totalUpTo + 1);
      return { documents, total: total > totalUpTo ? { value: totalUpTo, relation: 'gte' } : { value: total, relation: 'eq' } };
    });
  }

  /**
   * The hits of ranked rows, highlighted when asked. Highlighting reads the stored text and marks the query's words:
   * FTS5's highlight() would run the whole expression again for the row and tokenize every column it marks, however
   * little of a long body is shown. A body is read up to BODY_BEGINNING bytes (cut as bytes: substr() of text counts
   * characters through the whole body), and the rest only when the beginning's fragments may not be the whole body's.
   * sitestack_fragments and sitestack_marked answer from the stored UTF-8 where they can (see nativeHighlight); JS
   * highlights the rest.
   */
  #readHits(index: string, ranked: readonly RankedRow[], plan: QueryPlan, highlight: HighlightOptions | undefined): SearchHit[] {
    const tables = tablesOf(index);
    const columns = 'd.id, d.url, d.title, d.locale, d.slug, d.popularity, f.summary';
    const where = `FROM ${tables.docs} d CROSS JOIN ${tables.fts} f ON f.rowid = d.rowid WHERE d.rowid = ?`;
    if (highlight === undefined) {
      const read = this.#statement(`${index}\u0000read`, () => `SELECT ${columns} ${where}`);
      return ranked.map((rank) => hitOf(read.get(rank.rowid) as SearchRow, rank.score));
    }
    const matcher = termMatcher(plan);
    const options: FragmentOptions = { fragments: highlight.fragments, length: highlight.fragmentLength };
    const { count, length } = fragmentSettings(options);
    // The first pass stops once every word is shown only where no unfinished word is marked by its prefix.
    const shownTerms = matcher.prefixes === undefined ? matcher.terms : undefined;
    const beginning = `CAST(substr(CAST(f.body AS BLOB), 1, ${BODY_BEGINNING}) AS TEXT) AS body, length(CAST(f.body AS BLOB)) > ${BODY_BEGINNING} AS long`;
    const readBody = this.#statement(`${index}\u0000read-body`, () => `SELECT ${columns}, ${beginning} ${where}`);
    const native = this.nativeHighlight && count <= NATIVE_FRAGMENTS_MAX;
    const read = native
      ? this.#statement(`${index}\u0000read-fragments`, () =>
          `SELECT ${columns}, ${NATIVE_FRAGMENTS_FUNCTION}(f.body, ${BODY_BEGINNING}, ?, ?, ?, ?, ?, ?) AS fragments,
                  ${NATIVE_MARKED_FUNCTION}(d.title, ?, ?) AS markedTitle ${where}`)
      : readBody;
    const terms = [...matcher.terms].join(NATIVE_SEPARATOR);
    const prefixes = (matcher.prefixes ?? []).join(NATIVE_SEPARATOR);
    const parameters = native ? [terms, prefixes, shownTerms === undefined ? 0 : 1, count, length, NEW_WORDS_WITHIN, terms, prefixes] : [];
    // A body the native function left to JS: its beginning alone, the hit's other columns are read already.
    const readBeginning = this.#statement(`${index}\u0000beginning`, () => `SELECT ${beginning} FROM ${tables.fts} f WHERE f.rowid = ?`);
    const wholeBody = this.#statement(`${index}\u0000body`, () => `SELECT body FROM ${tables.fts} WHERE rowid = ?`).pluck();
    const bodyFragments = (rowid: number, row: SearchRow): string[] => {
      if (typeof row.fragments === 'string') return nativeFragments(row.fragments);
      const beginningRow = row.body === undefined ? (readBeginning.get(rowid) as Pick<SearchRow, 'body' | 'long'>) : row;
      // SQLite gives NULL for the beginning of an empty body (substr of an empty BLOB).
      const body = beginningRow.body ?? '';
      const long = beginningRow.long;
      return long !== 1
        ? fragmentsOf(matchWords(body, matcher), options, shownTerms)
        : (fragmentsOfBeginning(matchWords(beginningOf(body, body.length - 1), matcher), options, shownTerms) ??
            fragmentsOf(matchWords(wholeBody.get(rowid) as string, matcher), options, shownTerms));
    };
    return ranked.map((rank) => {
      const row = read.get(...parameters, rank.rowid) as SearchRow;
      const title = typeof row.markedTitle === 'string' ? nativeMarked(row.markedTitle) : titleOf(matchWords(row.title, matcher));
      return { ...hitOf(row, rank.score), highlight: { title, body: bodyFragments(rank.rowid, row) } };
    });
  }

  /**
   * Reads the candidates a statement selects as rowid, popularity and score, in that order (or rowid and score, with
   * `popularity: 'rowid'`: each candidate's popularity is then its rowid's, see popularityOf). better-sqlite3 builds
   * every row in C++ one property or element at a time, through V8's slow paths; where the native functions are
   * loaded, sitestack_doubles packs a walk into one BLOB of doubles instead, about 1,400 instructions less per row.
   * The statement must end in a LIMIT: SQLite would otherwise flatten it into the packing aggregate, where FTS5's
   * ranking functions cannot run.
   */
  #rankedRead(key: string, sql: () => string, popularity: 'selected' | 'rowid' = 'selected'): (parameters: readonly unknown[]) => RankedRow[] {
    const columns = popularity === 'selected' ? 3 : 2;
    const rowOf = (values: ArrayLike<number>, at: number): RankedRow => {
      const rowid = values[at] as number;
      return columns === 3
        ? { rowid, popularity: values[at + 1] as number, score: values[at + 2] as number }
        : { rowid, popularity: popularityOf(rowid), score: values[at + 1] as number };
    };
    if (!this.#nativeLoaded) {
      const statement = this.#statement(key, sql).raw();
      return (parameters) => (statement.all(...parameters) as number[][]).map((row) => rowOf(row, 0));
    }
    const names = columns === 3 ? 'rowid, popularity, score' : 'rowid, score';
    const packed = this.#statement(`${key}\u0000packed`, () => `SELECT ${NATIVE_DOUBLES_FUNCTION}(${names}) FROM (${sql()})`).pluck();
    return (parameters) => {
      const values = nativeDoubles(packed.get(...parameters) as Buffer);
      const rows: RankedRow[] = [];
      for (let at = 0; at < values.length; at += columns) rows.push(rowOf(values, at));
      return rows;
    };
  }

  /** Matches of the expression within the filters, counted up to `cap`. */
  #countIn(index: string, expression: string, query: QueryFilter, cap = Number.MAX_SAFE_INTEGER): number {
    const tables = tablesOf(index);
    const filter = docFilter(query.locales, query.slugPrefixes);
    const filtered = this.#statement(`${index}\u0000count\u0000${filter.shape}`, () =>
      `SELECT count(*) FROM (
         SELECT 1 FROM ${tables.fts} CROSS JOIN ${tables.docs} d ON d.rowid = ${tables.fts}.rowid WHERE ${this.#filterSql(tables.fts, filter)} ${BOUND_LIMIT}
       )`,
    ).pluck();
    const unfiltered = this.#statement(`${index}\u0000count-range`, () =>
      `SELECT count(*) FROM (SELECT 1 FROM ${tables.fts} WHERE ${this.#filterSql(tables.fts, NO_FILTER)} ${BOUND_LIMIT})`,
    ).pluck();
    let total = 0;
    for (const range of this.#ranges(index, query.locales)) {
      if (total >= cap) break;
      const [low, high] = range;
      total += (this.#filterNeeded(index, query, range)
        ? filtered.get(expression, ...filter.parameters, low, high, cap - total)
        : unfiltered.get(expression, low, high, cap - total)) as number;
    }
    return total;
  }

  #matchesAny(index: string, expression: string, query: Omit<QueryFilter, 'text'>): boolean {
    const tables = tablesOf(index);
    const filter = docFilter(query.locales, query.slugPrefixes);
    const filtered = this.#statement(`${index}\u0000exists\u0000${filter.shape}`, () =>
      `SELECT 1 FROM ${tables.fts} CROSS JOIN ${tables.docs} d ON d.rowid = ${tables.fts}.rowid WHERE ${this.#filterSql(tables.fts, filter)} LIMIT 1`,
    );
    const unfiltered = this.#statement(`${index}\u0000exists-range`, () => `SELECT 1 FROM ${tables.fts} WHERE ${this.#filterSql(tables.fts, NO_FILTER)} LIMIT 1`);
    return this.#ranges(index, query.locales).some((range) =>
      (this.#filterNeeded(index, query, range) ? filtered.get(expression, ...filter.parameters, ...range) : unfiltered.get(expression, ...range)) !== undefined,
    );
  }

  /**
   * Whether a walk of `range` must still check the documents filter: not when the query has no filter, nor when the
   * range is the partition of one of its locales and holds that locale only (no other locale of the index hashes
   * there). Counting then reads FTS5 alone, without a documents row per match.
   */
  #filterNeeded(index: string, query: Omit<QueryFilter, 'text'>, range: RowidRange): boolean {
    if ((query.slugPrefixes?.length ?? 0) > 0) return true;
    if (query.locales === undefined || query.locales.length === 0) return false;
    const partition = partitionOf(range[0]);
    const here = [...new Set(query.locales.map((locale) => locale.toLowerCase()))].filter((locale) => localePartition(locale) === partition);
    return here.length !== 1 || !this.#holdsOnly(index, range, here[0] as string);
  }

  /** Whether every document of `range` has locale `localeKey`; remembered until the database changes. */
  #holdsOnly(index: string, range: RowidRange, localeKey: string): boolean {
    return this.#remembered(`${index}\u0000only\u0000${range[0]}\u0000${localeKey}`, () =>
      this.#statement(`${index}\u0000other-locale`, () =>
        `SELECT 1 FROM ${tablesOf(index).docs} WHERE rowid >= ? AND rowid <= ? AND locale_key <> ? LIMIT 1`,
      ).get(range[0], range[1], localeKey) === undefined,
    );
  }

  /** Drops what is remembered until the database changes: this connection wrote, or another one committed. */
  #forget(): void {
    this.#rememberedValues.clear();
    this.#termDocuments.clear();
  }

  /** Forgets what was remembered when another connection committed since (data_version moved); once per read. */
  #checkVersion(): void {
    // This connection's own writes call #forget themselves: they do not move its data_version.
    const snapshot = this.#snapshot;
    if (snapshot?.version !== undefined) return;
    const version = this.#statement('data-version', () => 'PRAGMA data_version').pluck().get() as number;
    if (snapshot !== undefined) snapshot.version = version;
    if (version !== this.#rememberedVersion) {
      this.#forget();
      this.#rememberedVersion = version;
    }
  }

  /** `compute()`, remembered under `key` until the database changes. */
  #remembered<T>(key: string, compute: () => T): T {
    this.#checkVersion();
    if (this.#rememberedValues.has(key)) return this.#rememberedValues.get(key) as T;
    const value = compute();
    this.#rememberedValues.set(key, value);
    return value;
  }

  /** Whether the index has its spelling tables (see sqlite-spell.ts); remembered until the database changes. */
  #hasSpelling(index: string): boolean {
    return this.#remembered(`${index}\u0000spelling`, () =>
      this.#statement('spell-exists', () => "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(`ix_${index}_spell_terms`) !== undefined,
    );
  }

  /** The words a text is matched by in this index (see planQuery): common words dropped, prefix on an unfinished last word. */
  #plan(index: string, text: string): QueryPlan {
    const tables = tablesOf(index);
    const spelling = this.#hasSpelling(index);
    const counted = spelling ? `SELECT documents FROM ${spellTables(index).stats}` : `SELECT count(*) FROM ${tables.docs}`;
    const documents = this.#remembered(`${index}\u0000documents\u0000${counted}`, () =>
      (this.#statement(`${index}\u0000documents\u0000${counted}`, () => counted).pluck().get() as number | undefined) ?? 0,
    );
    const plan = planQuery(tokenize(text), documents, (word) => this.#documentsHolding(index, word));
    const last = plan.words[plan.words.length - 1];
    if (!spelling || !plan.prefixLast || last === undefined) return plan;
    const prefix = foldForPrefix(last);
    const completions = this.#statement(`${index}\u0000completions`, () =>
      `SELECT term, docs FROM ${spellTables(index).terms} WHERE term >= ? AND term < ? ORDER BY docs DESC, term LIMIT ${PREFIX_EXPANSIONS}`,
    ).all(prefix, `${prefix}\u{10FFFF}`) as { term: string; docs: number }[];
    const postings = completions.reduce((sum, completion) => sum + completion.docs, 0);
    for (const completion of completions) this.#termDocuments.set(`${index}\u0000${completion.term}`, { documents: completion.docs });
    const common = plan.common || (documents >= COMMON_WORD_MIN_DOCUMENTS && postings > documents * COMMON_WORD_SHARE);
    return { ...plan, common, expansions: completions.map((completion) => completion.term) };
  }

  /**
   * How many documents hold a word (folded as the index folds it), or undefined when it is not a term of the index:
   * from the spelling statistics when the index has them, else from the vocabulary. Remembered until the database
   * changes (see #termDocuments).
   */
  #documentsHolding(index: string, word: string): number | undefined {
    this.#checkVersion();
    const term = foldForPrefix(word);
    const key = `${index}\u0000${term}`;
    const remembered = this.#termDocuments.get(key);
    if (remembered !== undefined) return remembered.documents;
    const statistics = this.#hasSpelling(index) ? `SELECT docs FROM ${spellTables(index).terms} WHERE term = ?` : `SELECT doc FROM ${tablesOf(index).vocab} WHERE term = ?`;
    const documents = this.#statement(`${index}\u0000frequency\u0000${statistics}`, () => statistics).pluck().get(term) as number | undefined;
    this.#termDocuments.set(key, { documents });
    return documents;
  }

  /**
   * The weighted bm25 of a plan's search expression on the index's FTS table, as SQL and the parameters it takes
   * (bound before the statement's own). With the native function loaded and spelling statistics to take each word's
   * document count from (and a phrase's, see exactPhraseCounts), sitestack_bm25; otherwise SQLite's bm25(), which
   * counts them by scanning.
   */
  #textRank(index: string, plan: QueryPlan): { sql: string; parameters: unknown[] } {
    const { fts } = tablesOf(index);
    const weights = this.#weights.join(', ');
    if (!this.nativeRank || !this.#hasSpelling(index)) return { sql: `-bm25(${fts}, ${weights})`, parameters: [] };
    const counts = searchExpressionPhrases(plan).map(({ words, prefix }) => {
      // A prefix phrase holds every completion: the function counts it. A phrase of several words is its rarest
      // word's count unless asked to count exactly (see exactPhraseCounts).
      if (prefix || (words.length > 1 && this.#exactPhraseCounts)) return -1;
      const wordCounts = words.map((word) => this.#documentsHolding(index, word));
      return wordCounts.every((count) => count !== undefined) ? Math.min(...(wordCounts as number[])) : -1;
    });
    return { sql: `-${NATIVE_RANK_FUNCTION}(${fts}, ${weights}, ?)`, parameters: [phraseCounts(counts)] };
  }

  /**
   * Whether a plan matches nothing because a word every match must hold is in no document: most misspelt queries.
   * The spelling statistics say which words the index lacks; FTS5 confirms it (an index written to while no alias
   * pointed at it has them rebuilt only by refresh), which costs a tenth of the walks a search would run to find nothing.
   */
  #cannotMatch(index: string, plan: QueryPlan): boolean {
    if (!this.#hasSpelling(index)) return false;
    const { fts } = tablesOf(index);
    const holds = this.#statement(`${index}\u0000holds`, () => `SELECT 1 FROM ${fts} WHERE ${fts} MATCH ? LIMIT 1`);
    return requiredWords(plan).some((word) => this.#documentsHolding(index, word) === undefined && holds.get(countExpression([word], false)) === undefined);
  }

  #countExpressionOf(index: string, text: string): string {
    const plan = this.#plan(index, text);
    return countExpression(plan.words, plan.prefixLast, plan.expansions) as string;
  }

  async count(query: QueryFilter): Promise<number> {
    return this.#read(() => {
      const index = this.#resolve(query.index);
      const plan = this.#plan(index, query.text);
      const expression = countExpression(plan.words, plan.prefixLast, plan.expansions);
      return expression === undefined || this.#cannotMatch(index, plan) ? 0 : this.#countIn(index, expression, query);
    });
  }

  /**
   * "Did you mean": each query word the vocabulary does not hold gets its nearest vocabulary words (edit distance ≤ 2,
   * looked up in the spelling index, built by refresh/forceMerge and kept up to date by writes to a live index); they
   * are spliced into the whole query, ranked by distance then word frequency, and each alternative is counted with
   * the query's filters, up to SUGGESTION_TOTAL_CAP. Only alternatives that match are returned, best first. A query
   * whose words are all known suggests nothing.
   */
  async suggest(query: SuggestQuery): Promise<Suggestion[]> {
    // A word of marks only (a lone combining sign) folds to nothing: it can be neither matched nor corrected.
    const typed = tokenize(query.text).filter((word) => foldForPrefix(word) !== '');
    const words = typed.map((word) => foldForPrefix(word));
    const size = clampInteger(query.size, 3, 1, 10);
    return this.#read(() => {
      const index = this.#resolve(query.index);
      if (words.length === 0 || !this.#hasSpelling(index)) return [];
      let lookup = this.#spellLookups.get(index);
      if (lookup === undefined) {
        lookup = new SpellLookup(this.#db, index);
        this.#spellLookups.set(index, lookup);
      }
      const filters = { index, locales: query.locales, slugPrefixes: query.slugPrefixes };
      const candidates = new Map<number, Candidate[]>();
      words.forEach((word, position) => {
        if (!spellable(word) || this.#documentsHolding(index, word) !== undefined) return;
        const asPrefix = position === words.length - 1 && countExpression([word])?.endsWith('*') === true;
        if (!(asPrefix && lookup.knownPrefix(word))) candidates.set(position, lookup.candidates(word));
      });
      let alternatives: Alternative[];
      if (candidates.size > 0) alternatives = spliceAlternatives(words, candidates, CANDIDATES_PER_WORD, SUGGESTION_ALTERNATIVES);
      else {
        // Every word is known: a query that matches is correct; one that matches nothing may hide a typo that made
        // another real word, so each word in turn is replaced by its neighbours.
        const matches = query.knownTotal === undefined ? this.#matchesAny(index, this.#countExpressionOf(index, words.join(' ')), filters) : query.knownTotal > 0;
        if (matches) return [];
        words.forEach((word, position) => {
          if (spellable(word)) candidates.set(position, lookup.candidates(word));
        });
        alternatives = singleChanges(words, candidates, CANDIDATES_PER_WORD).slice(0, SUGGESTION_ALTERNATIVES * 2);
      }
      const suggestions: Suggestion[] = [];
      for (const alternative of alternatives) {
        const text = alternative.words.map((word, position) => (word === words[position] ? typed[position] : word)).join(' ');
        const total = this.#countIn(index, this.#countExpressionOf(index, text), { ...filters, text }, SUGGESTION_TOTAL_CAP + 1);
        if (total > SUGGESTION_TOTAL_CAP) suggestions.push({ text, total: SUGGESTION_TOTAL_CAP, relation: 'gte' });
        else if (total > 0) suggestions.push({ text, total, relation: 'eq' });
        if (suggestions.length === size) break;
      }
      return suggestions;
    });
  }

  /**
   * Title prefixes of up to FILED_PREFIX_LENGTH characters are read from the prefix table in rowid (static rank)
   * order, stopping at `size` matches whatever the number of titles sharing a short prefix; longer prefixes, shared
   * by few titles, are a range of the title key index.
   */
  async autocomplete(query: AutocompleteQuery): Promise<AutocompleteMatch[]> {
    const prefix = foldForPrefix(query.prefix);
    const size = clampInteger(query.size, 10, 1, 100);
    return this.#read(() => {
      const index = this.#resolve(query.index);
      if (prefix === '') return [];
      const tables = tablesOf(index);
      const filter = docFilter(query.locales);
      const ranges = this.#ranges(index, query.locales);
      const titleOf = (match: AutocompleteMatch & { rowid: number }) => match.rowid;
      const complete = (statement: Database.Statement, head: unknown[]) =>
        mergeWalks(ranges.map(([low, high]) => statement.all(...head, ...filter.parameters, low, high, size) as (AutocompleteMatch & { rowid: number })[]), size, titleOf)
          .map(({ title, url, locale }) => ({ title, url, locale }));
      if (Array.from(prefix).length <= FILED_PREFIX_LENGTH) {
        // The prefix table alone gives each partition's first rowids; the documents are read for the merged winners only.
        const filtered = this.#statement(`${index}\u0000autocomplete-filed\u0000${filter.shape}`, () =>
          `SELECT p.doc FROM ${tables.prefixes} p CROSS JOIN ${tables.docs} d ON d.rowid = p.doc
           WHERE p.prefix = ? AND ${filter.sql} AND p.doc >= ? AND p.doc <= ? ORDER BY p.doc ${BOUND_LIMIT}`,
        ).pluck();
        const unfiltered = this.#statement(`${index}\u0000autocomplete-prefix`, () =>
          `SELECT doc FROM ${tables.prefixes} WHERE prefix = ? AND doc >= ? AND doc <= ? ORDER BY doc ${BOUND_LIMIT}`,
        ).pluck();
        const walks = ranges.map((range) =>
          (this.#filterNeeded(index, { index, locales: query.locales }, range)
            ? filtered.all(prefix, ...filter.parameters, ...range, size)
            : unfiltered.all(prefix, ...range, size)) as number[],
        );
        const readMatch = this.#statement(`${index}\u0000autocomplete-read`, () => `SELECT title, url, locale FROM ${tables.docs} WHERE rowid = ?`);
        return mergeWalks(walks, size, (rowid) => rowid).map((rowid) => readMatch.get(rowid) as AutocompleteMatch);
      }
      return complete(this.#statement(`${index}\u0000autocomplete\u0000${filter.shape}`, () =>
        // The title key range is short; left to itself, the planner would walk the whole partition in rowid order.
        `SELECT d.rowid, d.title, d.url, d.locale FROM ${tables.docs} d INDEXED BY ${quoteIdentifier(`ix_${index}_title_key`)}
         WHERE d.title_key >= ? AND d.title_key < ? AND ${filter.sql} AND d.rowid >= ? AND d.rowid <= ?
         ORDER BY d.rowid ${BOUND_LIMIT}`,
      ), [prefix, `${prefix}\u{10FFFF}`]);
    });
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#endBuild();
    this.#statements.clear();
    if (this.#db.open) this.#db.close();
  }
}

/** The documents filter of a query: SQL on the documents row `d`, its parameters, and its shape (which SQL, for the statement cache). */
interface DocFilter {
  shape: string;
  sql: string;
  parameters: unknown[];
}

/**
 * Locale and slug-prefix filters (case-insensitive), written for what the query holds: a lone locale or prefix is a
 * plain comparison, since a json_each list costs a temporary table per statement run.
 */
function docFilter(locales: readonly string[] | undefined, slugPrefixes?: readonly string[]): DocFilter {
  const parts: string[] = [];
  const parameters: unknown[] = [];
  let shape = '';
  const localeKeys = [...new Set((locales ?? []).map((locale) => locale.toLowerCase()))];
  if (localeKeys.length === 1) {
    parts.push('d.locale_key = ?');
    parameters.push(localeKeys[0]);
    shape += 'l';
  } else if (localeKeys.length > 1) {
    parts.push('d.locale_key IN (SELECT value FROM json_each(?))');
    parameters.push(JSON.stringify(localeKeys));
    shape += 'L';
  }
  const prefixes = [...new Set((slugPrefixes ?? []).map((prefix) => prefix.toLowerCase()))];
  if (prefixes.length === 1) {
    parts.push('substr(d.slug_key, 1, ?) = ?');
    parameters.push(Array.from(prefixes[0] as string).length, prefixes[0]);
    shape += 's';
  } else if (prefixes.length > 1) {
    parts.push('EXISTS (SELECT 1 FROM json_each(?) p WHERE substr(d.slug_key, 1, length(p.value)) = p.value)');
    parameters.push(JSON.stringify(prefixes));
    shape += 'S';
  }
  return { shape, sql: parts.length === 0 ? '1' : parts.join(' AND '), parameters };
}

/** A span of rowids, inclusive: one locale partition (see static-rank.ts). */
type RowidRange = readonly [number, number];

const NO_FILTER: DocFilter = { shape: '', sql: '1', parameters: [] };

/** The first `limit` rows of several rowid-ordered walks (one per range), in static-rank order. */
function mergeWalks<T>(walks: readonly T[][], limit: number, rowidOf: (row: T) => number): T[] {
  if (walks.length === 1) return walks[0] as T[];
  return walks
    .flat()
    .sort((a, b) => staticRank(rowidOf(a)) - staticRank(rowidOf(b)))
    .slice(0, limit);
}

/** The hit of a read row, without highlighting. */
function hitOf(row: SearchRow, score: number): SearchHit {
  return { id: row.id, url: row.url, title: row.title, summary: row.summary, locale: row.locale, slug: row.slug, popularity: row.popularity, score };
}

/** The words a plan matches, as highlighting marks them: folded like the index folds them, an unexpanded prefix as a prefix. */
function termMatcher(plan: QueryPlan): TermMatcher {
  const words = plan.words.map((word) => foldForPrefix(word));
  const terms = new Set([...words, ...(plan.expansions ?? [])]);
  const last = words[words.length - 1];
  return plan.prefixLast && plan.expansions === undefined && last !== undefined ? { terms, prefixes: [last] } : { terms };
}
