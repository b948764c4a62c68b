import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ERRORS } from '../../error-codes.js';
import { foldForPrefix, tokenize } from '../query-text.js';
import { countExpression } from '../search-expression.js';
import { singleChanges, spellable, spliceAlternatives, type Alternative, type Candidate } from '../spelling.js';
import { loadNativeFunctions } from './native-functions.js';
import { FTS_TOKENIZER, SpellLookup, TermChanges, dropSpellIndex, hasSpellIndex, rebuildSpellIndex } from './sqlite-spell.js';
import { quoteIdentifier, tablesOf } from './sqlite-tables.js';
import { Connection } from './sqlite/connection.js';
import { SQLITE_ENGINE_DEFAULTS, type SqliteEngineOptions } from './sqlite/options.js';
import { searchIndex, type SearchSettings } from './sqlite/search.js';
import { cannotMatch, countExpressionOf, documentsHolding, hasSpelling, planOf } from './sqlite/terms.js';
import { autocompleteIn, countIn, matchesAny } from './sqlite/walks.js';
import { DocumentWriter, type IndexStatement } from './sqlite-write.js';
import { clampInteger, indexExists, indexNotFound, validIndexName } from './validation.js';
import type { AliasAction, AutocompleteMatch, AutocompleteQuery, BulkItemResult, DeleteItemResult, Health, IndexInfo, IndexedDocument, QueryFilter, SearchEngine, SearchQuery, SearchResult, SuggestQuery, Suggestion } from './types.js';

export { SQLITE_ENGINE_DEFAULTS, sqlitePathFromUrl, type SqliteEngineOptions } from './sqlite/options.js';
export { BODY_BEGINNING } from './sqlite/hits.js';
export { BODY_CANDIDATES } from './sqlite/retrieval-plan.js';

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
 * A suggestion's `total` counts matches up to this many, then answers this many with `relation: 'gte'` (the page shows
 * "20+"): an alternative made of common words would otherwise be counted through thousands of matches, several
 * alternatives per query. "Did you mean" needs to show that the alternative finds pages, not how many past a
 * screenful: counting up to 100 instead cost a misspelt query a third more instructions (3.28 M against 2.46 M on the
 * bench's one-typo queries).
 */
export const SUGGESTION_TOTAL_CAP = 20;

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
  readonly #connection: Connection;
  /** What searches need to know of this connection's ranking and native functions. */
  readonly #settings: SearchSettings;
  readonly #prefixIndex: readonly number[];
  readonly #ftsHashBytes: number;
  readonly #spellLookups = new Map<string, SpellLookup>();
  /** Indices written to while no alias pointed at them since their spelling index was last rebuilt (by refresh or forceMerge). */
  readonly #spellStale = new Set<string>();
  readonly #buildTransactionDocuments: number;
  /** The index whose writes share the open build transaction (see buildTransactionDocuments), and its documents so far. */
  #build: { index: string; documents: number } | undefined;
  /** Whether sitestack_bm25 is loaded into this connection (see nativeRank). */
  readonly nativeRank: boolean;
  /** Whether sitestack_fragments and sitestack_marked are loaded into this connection (see nativeHighlight). */
  readonly nativeHighlight: boolean;

  constructor(options: SqliteEngineOptions) {
    this.#prefixIndex = options.prefixIndex ?? SQLITE_ENGINE_DEFAULTS.prefixIndex;
    this.#ftsHashBytes = Math.max(1024 * 1024, Math.trunc(options.ftsHashBytes ?? SQLITE_ENGINE_DEFAULTS.ftsHashBytes));
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
    this.#connection = new Connection(this.#db);
    const rank = options.nativeRank ?? SQLITE_ENGINE_DEFAULTS.nativeRank;
    const highlight = options.nativeHighlight ?? SQLITE_ENGINE_DEFAULTS.nativeHighlight;
    const nativeProblem = rank || highlight ? loadNativeFunctions(this.#db) : undefined;
    this.nativeRank = rank && nativeProblem === undefined;
    this.nativeHighlight = highlight && nativeProblem === undefined;
    this.#settings = {
      weights: options.columnWeights ?? SQLITE_ENGINE_DEFAULTS.columnWeights,
      nativeRank: this.nativeRank,
      exactPhraseCounts: options.exactPhraseCounts ?? SQLITE_ENGINE_DEFAULTS.exactPhraseCounts,
      nativeLoaded: (rank || highlight) && nativeProblem === undefined,
      nativeHighlight: this.nativeHighlight,
    };
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

  #forgetStatements(index: string): void {
    this.#connection.forgetStatements(index);
    this.#spellLookups.delete(index);
  }

  #indexExists(name: string): boolean {
    return this.#connection.statement('exists', () => 'SELECT 1 FROM search_indices WHERE name = ?').get(name) !== undefined;
  }

  #aliasExists(name: string): boolean {
    return this.#connection.statement('alias-exists', () => 'SELECT 1 FROM search_aliases WHERE alias = ?').get(name) !== undefined;
  }

  /**
   * The index a name denotes: the index itself, or the one index its alias points at; remembered until the database
   * changes. Call inside a read.
   */
  #resolve(name: string): string {
    return this.#connection.remembered(`\u0000resolve\u0000${name}`, () => {
      if (this.#indexExists(name)) return name;
      const rows = this.#connection.statement('resolve', () => 'SELECT index_name FROM search_aliases WHERE alias = ? ORDER BY index_name')
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
    return this.#connection.statement('aliased', () => 'SELECT 1 FROM search_aliases WHERE index_name = ?').get(index) !== undefined;
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

  async health(): Promise<Health> {
    this.#db.prepare('SELECT 1').get();
    return 'green';
  }

  async createIndex(name: string): Promise<void> {
    if (!validIndexName(name)) throw ERRORS.INDEX_NAME_INVALID(name);
    this.#endBuild();
    const tables = tablesOf(name);
    const prefix = this.#prefixIndex.length === 0 ? '' : `, prefix='${this.#prefixIndex.join(' ')}'`;
    this.#connection.forget();
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
    const statement: IndexStatement = (name, sql) => this.#connection.statement(`${index}\u0000${name}`, sql);
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
      this.#connection.forget();
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
    this.#connection.forget();
  }

  async updateAliases(actions: readonly AliasAction[]): Promise<void> {
    this.#endBuild();
    this.#connection.forget();
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
    return this.#connection.read(() => {
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
    this.#connection.forget();
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

  async count(query: QueryFilter): Promise<number> {
    return this.#connection.read(() => {
      const index = this.#resolve(query.index);
      const plan = planOf(this.#connection, index, query.text);
      const expression = countExpression(plan.words, plan.prefixLast, plan.expansions);
      return expression === undefined || cannotMatch(this.#connection, index, plan) ? 0 : countIn(this.#connection, index, expression, query);
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
    return this.#connection.read(() => {
      const index = this.#resolve(query.index);
      if (words.length === 0 || !hasSpelling(this.#connection, index)) return [];
      let lookup = this.#spellLookups.get(index);
      if (lookup === undefined) {
        lookup = new SpellLookup(this.#db, index);
        this.#spellLookups.set(index, lookup);
      }
      const filters = { index, locales: query.locales, slugPrefixes: query.slugPrefixes };
      const candidates = new Map<number, Candidate[]>();
      words.forEach((word, position) => {
        if (!spellable(word) || documentsHolding(this.#connection, index, word) !== undefined) return;
        const asPrefix = position === words.length - 1 && countExpression([word])?.endsWith('*') === true;
        if (!(asPrefix && lookup.knownPrefix(word))) candidates.set(position, lookup.candidates(word));
      });
      let alternatives: Alternative[];
      if (candidates.size > 0) alternatives = spliceAlternatives(words, candidates, CANDIDATES_PER_WORD, SUGGESTION_ALTERNATIVES);
      else {
        // Every word is known: a query that matches is correct; one that matches nothing may hide a typo that made
        // another real word, so each word in turn is replaced by its neighbours.
        const matches = query.knownTotal === undefined ? matchesAny(this.#connection, index, countExpressionOf(this.#connection, index, words.join(' ')), filters) : query.knownTotal > 0;
        if (matches) return [];
        words.forEach((word, position) => {
          if (spellable(word)) candidates.set(position, lookup.candidates(word));
        });
        alternatives = singleChanges(words, candidates, CANDIDATES_PER_WORD).slice(0, SUGGESTION_ALTERNATIVES * 2);
      }
      const suggestions: Suggestion[] = [];
      for (const alternative of alternatives) {
        const text = alternative.words.map((word, position) => (word === words[position] ? typed[position] : word)).join(' ');
        const total = countIn(this.#connection, index, countExpressionOf(this.#connection, index, text), { ...filters, text }, SUGGESTION_TOTAL_CAP + 1);
        if (total > SUGGESTION_TOTAL_CAP) suggestions.push({ text, total: SUGGESTION_TOTAL_CAP, relation: 'gte' });
        else if (total > 0) suggestions.push({ text, total, relation: 'eq' });
        if (suggestions.length === size) break;
      }
      return suggestions;
    });
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    return this.#connection.read(() => searchIndex(this.#connection, this.#settings, this.#resolve(query.index), query));
  }

  /**
   * Title prefixes of up to FILED_PREFIX_LENGTH characters are read from the prefix table in rowid (static rank)
   * order, stopping at `size` matches whatever the number of titles sharing a short prefix; longer prefixes, shared
   * by few titles, are a range of the title key index.
   */
  async autocomplete(query: AutocompleteQuery): Promise<AutocompleteMatch[]> {
    const prefix = foldForPrefix(query.prefix);
    const size = clampInteger(query.size, 10, 1, 100);
    return this.#connection.read(() => {
      const index = this.#resolve(query.index);
      return prefix === '' ? [] : autocompleteIn(this.#connection, index, prefix, size, query.locales);
    });
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#endBuild();
    this.#connection.forgetStatements();
    if (this.#db.open) this.#db.close();
  }
}
