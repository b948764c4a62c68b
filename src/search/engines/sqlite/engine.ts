import { ERRORS } from '../../../error-codes.js';
import { foldPhrase } from '../../analysis/index.js';
import { cutToTypedPrefix } from '../../policy/autocomplete.js';
import { planCountExpression } from './search-expression.js';
import { tablesOf } from './tables.js';
import { Connection, openDatabase, unmapped } from './connection.js';
import { SQLITE_ENGINE_DEFAULTS, type SqliteEngineOptions } from './options.js';
import { BuildTransaction, INDEX_LAYOUT, createCatalogue, createIndexTables, dropIndexTables, isAlias, isCurrentLayout, isIndex } from './schema.js';
import { searchIndex } from './search.js';
import { suggestIn } from './suggest.js';
import { cannotMatch, planOf, type RankSettings } from './text-plan.js';
import { autocompleteIn, countIn } from './walks.js';
import { IndexWriter } from './writer.js';
import { clampInteger, indexExists, indexNotFound, validIndexName } from '../validation.js';
import type { AliasAction, AutocompleteMatch, AutocompleteQuery, BulkItemResult, DeleteItemResult, Health, IndexInfo, IndexedDocument, QueryFilter, SearchEngine, SearchQuery, SearchResult, SuggestQuery, Suggestion } from '../types.js';

export { SQLITE_ENGINE_DEFAULTS, sqlitePathFromUrl, type SqliteEngineOptions } from './options.js';
export { BODY_BEGINNING } from './hits.js';
export { BODY_CANDIDATES } from './retrieval-plan.js';
export { SUGGESTION_TOTAL_CAP } from './suggest.js';

/**
 * The embedded engine: SQLite FTS5 through better-sqlite3. One FTS5 table (title, summary, body) plus one documents
 * table per index; aliases in a table, changed in one transaction. WAL mode lets readers on other connections keep
 * their snapshot while a writer builds a new index, and every read resolves its alias and queries inside one read
 * transaction, so it sees the old index or the new one, never a mix. Writes to an index no alias points at share
 * large transactions without segment merging (see buildTransactionDocuments): other connections see them after
 * `refresh`, as Elasticsearch shows bulk writes after a refresh. Writes to a live index (one an alias points at)
 * are seen at once, by suggestions and autocomplete too (see IndexWriter.write).
 */
export class SqliteEngine implements SearchEngine {
  readonly #connection: Connection;
  /** How searches rank text. */
  readonly #settings: RankSettings;
  readonly #build: BuildTransaction;
  readonly #writer: IndexWriter;

  constructor(options: SqliteEngineOptions) {
    const prefixIndex = options.prefixIndex ?? SQLITE_ENGINE_DEFAULTS.prefixIndex;
    const ftsHashBytes = Math.max(1024 * 1024, Math.trunc(options.ftsHashBytes ?? SQLITE_ENGINE_DEFAULTS.ftsHashBytes));
    const buildTransactionDocuments = Math.max(1, Math.trunc(options.buildTransactionDocuments ?? SQLITE_ENGINE_DEFAULTS.buildTransactionDocuments));
    if (!prefixIndex.every((length) => Number.isInteger(length) && length >= 1 && length <= 10)) {
      throw ERRORS.SEARCH_OPTIONS_INVALID('prefixIndex lengths', 'integers from 1 to 10');
    }
    const db = openDatabase(options);
    this.#connection = new Connection(db);
    this.#settings = { weights: options.columnWeights ?? SQLITE_ENGINE_DEFAULTS.columnWeights, stemWeight: options.stemWeight ?? SQLITE_ENGINE_DEFAULTS.stemWeight };
    createCatalogue(db);
    this.#build = new BuildTransaction(this.#connection, buildTransactionDocuments);
    this.#writer = new IndexWriter(this.#connection, this.#build, { prefixIndex, ftsHashBytes }, db.memory ? undefined : db.name);
  }

  /**
   * The index a name denotes: the index itself, or the one index its alias points at; remembered until the database
   * changes. Call inside a read.
   */
  #resolve(name: string): string {
    return this.#connection.remembered(`\u0000resolve\u0000${name}`, () => {
      if (isIndex(this.#connection, name)) return this.#current(name);
      const rows = this.#connection.statement('resolve', () => 'SELECT index_name FROM search_aliases WHERE alias = ? ORDER BY index_name')
        .pluck()
        .all(name) as string[];
      if (rows.length === 0) throw ERRORS.SEARCH_NOT_READY(name);
      if (rows.length > 1) {
        throw ERRORS.ALIAS_AMBIGUOUS(name, rows.length);
      }
      return this.#current(rows[0] as string);
    });
  }

  #current(index: string): string {
    if (!isCurrentLayout(this.#connection, index)) throw ERRORS.SEARCH_INDEX_OUTDATED(index);
    return index;
  }

  async health(): Promise<Health> {
    this.#connection.db.prepare('SELECT 1').get();
    return 'green';
  }

  async createIndex(name: string): Promise<void> {
    if (!validIndexName(name)) throw ERRORS.INDEX_NAME_INVALID(name);
    this.#build.end();
    this.#connection.forget();
    this.#connection.db.transaction(() => {
      if (isIndex(this.#connection, name) || isAlias(this.#connection, name)) {
        throw indexExists(name);
      }
      createIndexTables(this.#connection.db, name);
    })();
  }

  async bulk(index: string, documents: readonly IndexedDocument[]): Promise<BulkItemResult[]> {
    return this.#writer.write(index, documents.length, (writer) => writer.write(documents));
  }

  async deleteDocuments(index: string, ids: readonly string[]): Promise<DeleteItemResult[]> {
    return this.#writer.write(index, ids.length, (writer) => writer.delete(ids));
  }

  async refresh(index: string): Promise<void> {
    this.#writer.refresh(index);
  }

  async updateAliases(actions: readonly AliasAction[]): Promise<void> {
    this.#writer.updateAliases(actions);
  }

  async listIndices(prefix: string): Promise<IndexInfo[]> {
    const db = this.#connection.db;
    return this.#connection.read(() => {
      const indices = db
        .prepare('SELECT name, layout FROM search_indices WHERE substr(name, 1, length(?)) = ? ORDER BY name')
        .all(prefix, prefix) as { name: string; layout: number }[];
      return indices.map(({ name, layout }) => ({
        name,
        aliases: db.prepare('SELECT alias FROM search_aliases WHERE index_name = ? ORDER BY alias').pluck().all(name) as string[],
        docCount: db.prepare(`SELECT count(*) FROM ${tablesOf(name).docs}`).pluck().get() as number,
        ...(layout === INDEX_LAYOUT ? {} : { outdated: true as const }),
      }));
    });
  }

  async deleteIndex(name: string): Promise<void> {
    this.#build.end();
    this.#connection.forget();
    // Dropping tables reads every page of the index once, to free it: through the memory map all would stay resident.
    unmapped(this.#connection.db, () =>
      this.#connection.db.transaction(() => {
        if (!isIndex(this.#connection, name)) throw indexNotFound(name);
        dropIndexTables(this.#connection.db, name);
      })(),
    );
    this.#connection.forgetStatements(name);
  }

  async forceMerge(name: string): Promise<void> {
    await this.#writer.forceMerge(name);
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    return this.#connection.read(() => searchIndex(this.#connection, this.#settings, this.#resolve(query.index), query));
  }

  async count(query: QueryFilter): Promise<number> {
    return this.#connection.read(() => {
      const index = this.#resolve(query.index);
      const plan = planOf(this.#connection, index, query.text, { locales: query.locales });
      const expression = planCountExpression(plan);
      return expression === undefined || cannotMatch(this.#connection, index, plan) ? 0 : countIn(this.#connection, index, expression, query);
    });
  }

  async suggest(query: SuggestQuery): Promise<Suggestion[]> {
    return this.#connection.read(() => suggestIn(this.#connection, this.#resolve(query.index), query));
  }

  /**
   * Titles the prefix begins at any word of, those it begins first, each most popular first (see autocompleteIn).
   */
  async autocomplete(query: AutocompleteQuery): Promise<AutocompleteMatch[]> {
    const prefix = cutToTypedPrefix(foldPhrase(query.prefix));
    const size = clampInteger(query.size, 10, 1, 100);
    return this.#connection.read(() => {
      const index = this.#resolve(query.index);
      return prefix === '' ? [] : autocompleteIn(this.#connection, index, prefix, size, query.locales);
    });
  }

  async close(): Promise<void> {
    const db = this.#connection.db;
    if (db.open) this.#build.end();
    this.#connection.forgetStatements();
    if (db.open) db.close();
  }
}
