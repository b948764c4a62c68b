import type Database from 'better-sqlite3';
import { dropSpellIndex } from './spell-index.js';
import { partitionTablesOf, quoteIdentifier, tablesOf } from './tables.js';
import { withoutMemoryMap, type Connection } from './connection.js';

/**
 * The engine's tables: the catalogue of indices and aliases, each index's tables, and build transactions. An index has
 * one documents table and, for each partition of its rowids (a locale's block, see static-rank.ts) that holds
 * documents, full-text tables of its own: FTS5's bm25 counts the documents holding each word of a query by reading
 * the word's whole posting list, so a query of one locale reads its own locale's lists, not every locale's. Scores
 * are the partition's, as Elasticsearch scores each shard by its own document counts.
 */

/**
 * How every FTS5 table of an index reads its text: as terms already analysed (see analysis/), joined by spaces. The
 * `ascii` tokenizer splits on ASCII spaces and punctuation only, which terms never hold, so FTS5 indexes exactly the
 * analysis module's terms and adds no rule of its own. The tables hold no copy of the text (the documents table
 * does), and rows are deleted by rowid. The stems of a document's terms (see analysis/stem.ts) stand in columns of
 * their own, so that phrases of words keep their positions and a stem-only match weighs less than the word itself.
 */
const FTS_TERMS = "tokenize = 'ascii', content = '', contentless_delete = 1";

/**
 * The layout of an index's tables this version writes and reads. An index of another layout (built by another
 * version) is listed as outdated and searched by no one until a full index run replaces it.
 */
export const INDEX_LAYOUT = 7;

/** The catalogue of indices and their aliases, shared by every index of the database. */
export function createCatalogue(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS search_indices (name TEXT PRIMARY KEY, created_at TEXT NOT NULL, layout INTEGER NOT NULL DEFAULT 1) STRICT;
    CREATE TABLE IF NOT EXISTS search_aliases (
      alias TEXT NOT NULL,
      index_name TEXT NOT NULL REFERENCES search_indices(name) ON DELETE CASCADE,
      PRIMARY KEY (alias, index_name)
    ) STRICT;
  `);
  // A catalogue written before layouts were recorded lists indices of the first layout.
  const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('search_indices') as string[];
  if (!columns.includes('layout')) db.exec('ALTER TABLE search_indices ADD COLUMN layout INTEGER NOT NULL DEFAULT 1');
}

/** Whether index `name` is of the layout this version reads. */
export function isCurrentLayout(connection: Connection, name: string): boolean {
  return connection.statement('layout', () => 'SELECT layout FROM search_indices WHERE name = ?').pluck().get(name) === INDEX_LAYOUT;
}

export function isIndex(connection: Connection, name: string): boolean {
  return connection.statement('exists', () => 'SELECT 1 FROM search_indices WHERE name = ?').get(name) !== undefined;
}

export function isAlias(connection: Connection, name: string): boolean {
  return connection.statement('alias-exists', () => 'SELECT 1 FROM search_aliases WHERE alias = ?').get(name) !== undefined;
}

/** How the full-text tables of an index's partitions are made (see SqliteEngineOptions). */
export interface FullTextOptions {
  prefixIndex: readonly number[];
  ftsHashBytes: number;
}

/** Creates the tables of index `name` and files it in the catalogue, inside the caller's transaction. */
export function createIndexTables(db: Database.Database, name: string): void {
  const tables = tablesOf(name);
  db.exec(`
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
      popularity REAL NOT NULL,
      exact_key TEXT NOT NULL,
      summary TEXT NOT NULL,
      -- Last: a column after it would be read through the body's overflow pages by every walk that scores titles.
      -- Latin-1 bytes or UTF-8 text (see stored-text.ts).
      body ANY NOT NULL
    ) STRICT;
    CREATE INDEX ${quoteIdentifier(`ix_${name}_title_key`)} ON ${tables.docs} (title_key);
    CREATE INDEX ${quoteIdentifier(`ix_${name}_exact_key`)} ON ${tables.docs} (exact_key);
    CREATE TABLE ${tables.prefixes} (prefix TEXT NOT NULL, place INTEGER NOT NULL, doc INTEGER NOT NULL, PRIMARY KEY (prefix, place, doc)) STRICT, WITHOUT ROWID;
    CREATE TABLE ${tables.partitions} (partition INTEGER PRIMARY KEY) STRICT;
  `);
  db.prepare('INSERT INTO search_indices (name, created_at, layout) VALUES (?, ?, ?)').run(name, new Date().toISOString(), INDEX_LAYOUT);
}

/** The partitions of index `name` that have their full-text tables, in ascending order. */
export function partitionsOf(db: Database.Database, name: string): number[] {
  return db.prepare(`SELECT partition FROM ${tablesOf(name).partitions} ORDER BY partition`).pluck().all() as number[];
}

/**
 * Creates the full-text tables of one partition of index `name` (see FTS_TERMS), inside the caller's transaction, and
 * files the partition: the first write of a document of the partition's locale does.
 */
export function createPartitionTables(db: Database.Database, name: string, partition: number, options: FullTextOptions): void {
  const { fts, titles, vocab } = partitionTablesOf(name, partition);
  const prefix = options.prefixIndex.length === 0 ? '' : `, prefix='${options.prefixIndex.join(' ')}'`;
  db.exec(`
    CREATE VIRTUAL TABLE ${fts} USING fts5(
      title, summary, body, title_stems, text_stems, ${FTS_TERMS}${prefix}
    );
    CREATE VIRTUAL TABLE ${titles} USING fts5(title, title_stems, ${FTS_TERMS});
    CREATE VIRTUAL TABLE ${vocab} USING fts5vocab(${quoteIdentifier(`ix_${name}_fts_${partition}`)}, 'row');
  `);
  // FTS5 takes configuration values as literals only; ftsHashBytes is an integer.
  db.exec(`INSERT INTO ${fts} (${fts}, rank) VALUES ('hashsize', ${options.ftsHashBytes})`);
  db.prepare(`INSERT INTO ${tablesOf(name).partitions} (partition) VALUES (?)`).run(partition);
}

/**
 * Drops index `name`, its aliases and its tables, inside the caller's transaction; an index of an earlier layout too
 * (one full-text table for every partition, no catalogue of partitions).
 */
export function dropIndexTables(db: Database.Database, name: string): void {
  const tables = tablesOf(name);
  const catalogued = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(`ix_${name}_partitions`) !== undefined;
  const earlier = { fts: quoteIdentifier(`ix_${name}_fts`), titles: quoteIdentifier(`ix_${name}_titles`), vocab: quoteIdentifier(`ix_${name}_vocab`) };
  const fullText = [...(catalogued ? partitionsOf(db, name) : []).map((partition) => partitionTablesOf(name, partition)), earlier];
  // A vocabulary table reads its FTS5 table: it goes first. FTS5 drops its own shadow tables.
  for (const { fts, titles, vocab } of fullText) db.exec(`DROP TABLE IF EXISTS ${vocab}; DROP TABLE IF EXISTS ${fts}; DROP TABLE IF EXISTS ${titles};`);
  db.prepare('DELETE FROM search_aliases WHERE index_name = ?').run(name);
  db.prepare('DELETE FROM search_indices WHERE name = ?').run(name);
  db.exec(`DROP TABLE IF EXISTS ${tables.partitions}; DROP TABLE IF EXISTS ${tables.prefixes}; DROP TABLE IF EXISTS ${tables.docs};`);
  dropSpellIndex(db, name);
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

/** Sets FTS5's merging of one partition's full-text tables. */
function setMerging(db: Database.Database, name: string, partition: number, merging: Merging): void {
  const { fts, titles } = partitionTablesOf(name, partition);
  // FTS5 takes configuration values as literals only; these are integers.
  for (const table of [fts, titles]) {
    db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('automerge', ${merging.automerge})`);
    db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('crisismerge', ${merging.crisismerge})`);
  }
}

/**
 * The transaction shared by the writes to an index no alias points at (see buildTransactionDocuments in
 * SqliteEngineOptions), committed after `transactionDocuments` documents.
 */
export class BuildTransaction {
  readonly #connection: Connection;
  readonly #transactionDocuments: number;
  /** The index whose writes share the open build transaction, its documents so far, and what turns the memory map on again. */
  #build: { index: string; documents: number; remap: () => void } | undefined;

  constructor(connection: Connection, transactionDocuments: number) {
    this.#connection = connection;
    this.#transactionDocuments = transactionDocuments;
  }

  /**
   * Opens the build transaction for `index` (committing another index's first). FTS5's automerge is off inside it:
   * merging segments while they are still being written is wasted work, as forceMerge merges them all in one pass.
   */
  begin(index: string): void {
    if (this.#build?.index === index) return;
    this.end();
    // A build writes and reads pages of the whole new index: with the memory map, all would stay resident.
    const remap = withoutMemoryMap(this.#connection.db);
    try {
      this.#connection.db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      remap();
      throw error;
    }
    this.#build = { index, documents: 0, remap };
    this.#setMerging(index, BUILD_MERGING);
  }

  /** Commits the open build transaction, if any; then FTS5 merges the index's segments on later writes again. */
  end(): void {
    const build = this.#build;
    if (build === undefined) return;
    this.#build = undefined;
    const db = this.#connection.db;
    try {
      if (!db.inTransaction) return;
      db.exec('COMMIT');
      // After the commit: FTS5 writes pending entries as a segment at commit time and would merge it with automerge on.
      if (isIndex(this.#connection, build.index)) this.#setMerging(build.index, FTS5_DEFAULT_MERGING);
    } finally {
      build.remap();
    }
  }

  /** Gives the tables of a partition created inside the open build transaction of `index` its merging. */
  created(index: string, partition: number): void {
    if (this.#build?.index === index) setMerging(this.#connection.db, index, partition, BUILD_MERGING);
  }

  /** Counts `documents` more written in the open build transaction, if any, and commits it once they reach the cap. */
  written(documents: number): void {
    if (this.#build !== undefined && (this.#build.documents += documents) >= this.#transactionDocuments) this.end();
  }

  #setMerging(index: string, merging: Merging): void {
    for (const partition of partitionsOf(this.#connection.db, index)) setMerging(this.#connection.db, index, partition, merging);
  }
}
