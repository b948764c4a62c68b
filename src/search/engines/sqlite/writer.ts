import { ERRORS } from '../../../error-codes.js';
import { TermChanges, hasSpellIndex, readVocabulary, rebuildSpellIndex, type Vocabulary } from './spell-index.js';
import { partitionTablesOf } from './tables.js';
import { DocumentWriter, type IndexStatement } from './documents.js';
import { vocabularyCountSql, vocabularyRowsSql } from './partitions.js';
import { readVocabularyInThread } from './vocabulary-reader.js';
import type { AliasAction } from '../types.js';
import { indexNotFound, validIndexName } from '../validation.js';
import { unmapped, type Connection } from './connection.js';
import { createPartitionTables, isCurrentLayout, isIndex, partitionsOf, type BuildTransaction, type FullTextOptions } from './schema.js';

/** The engine's writes: documents in their transactions, the spelling index they leave stale, merges and aliases. */
export class IndexWriter {
  readonly #connection: Connection;
  readonly #build: BuildTransaction;
  readonly #fullText: FullTextOptions;
  /** Indices written to while no alias pointed at them since their spelling index was last rebuilt (by refresh or forceMerge). */
  readonly #spellStale = new Set<string>();
  /** The database file, when there is one: forceMerge then reads the vocabulary on a thread of its own. */
  readonly #file: string | undefined;

  constructor(connection: Connection, build: BuildTransaction, fullText: FullTextOptions, file: string | undefined) {
    this.#connection = connection;
    this.#build = build;
    this.#fullText = fullText;
    this.#file = file;
  }

  #aliased(index: string): boolean {
    return this.#connection.statement('aliased', () => 'SELECT 1 FROM search_aliases WHERE index_name = ?').get(index) !== undefined;
  }

  /**
   * Runs one write of `documents` documents to `index` in a transaction. An index no alias points at shares the
   * build transaction (see buildTransactionDocuments) and has its spelling tables rebuilt by the next refresh or force
   * merge. A live index commits at once, with its spelling tables brought up to date in the same transaction (see
   * TermChanges), so that the suggestions and completions of the next read know the new words and no longer the
   * removed ones; when they are missing, or left stale by this connection's earlier writes, they are rebuilt whole.
   */
  write<T>(index: string, documents: number, write: (writer: DocumentWriter) => T): T {
    const connection = this.#connection;
    const db = connection.db;
    if (!isIndex(connection, index)) throw indexNotFound(index);
    if (!isCurrentLayout(connection, index)) throw ERRORS.SEARCH_INDEX_OUTDATED(index);
    const live = this.#aliased(index);
    if (live) this.#build.end();
    else {
      this.#build.begin(index);
      this.#spellStale.add(index);
    }
    const statement: IndexStatement = (name, sql) => connection.statement(`${index}\u0000${name}`, sql);
    let rebuilt = false;
    try {
      const result = db.transaction(() => {
        rebuilt = live && this.#spellingStale(index);
        const changes = live && !rebuilt ? new TermChanges(db) : undefined;
        const partitions = new Set(partitionsOf(db, index));
        const fullText = (partition: number) => {
          if (!partitions.has(partition)) {
            createPartitionTables(db, index, partition, this.#fullText);
            this.#build.created(index, partition);
            partitions.add(partition);
          }
          return partitionTablesOf(index, partition);
        };
        const writer = new DocumentWriter(statement, index, fullText, changes);
        const result = write(writer);
        const written = [...partitions].sort((a, b) => a - b);
        if (rebuilt) rebuildSpellIndex(db, index, readVocabulary(db, index, vocabularyRowsSql(index, written)));
        else changes?.applyTo(index, vocabularyCountSql(index, written), writer.added);
        return result;
      })();
      if (rebuilt) {
        this.#spellStale.delete(index);
        connection.spellLookups.delete(index);
      }
      this.#build.written(documents);
      return result;
    } finally {
      // What this connection remembered may have changed, and its own writes do not move its data_version.
      connection.forget();
    }
  }

  refresh(index: string): void {
    this.#build.end();
    if (!isIndex(this.#connection, index)) throw indexNotFound(index);
    this.#refreshSpelling(index);
  }

  /**
   * Merges the segments of every partition of index `name` into one (FTS5's optimize), and rebuilds its spelling
   * index when writes left it stale. Merging changes no term and no count, so a thread reads the vocabulary the
   * spelling index is made from meanwhile, on a connection of its own; its answer is used only when no write came in
   * between, from this connection (`total_changes()`, an index created or deleted too) or another (`data_version`),
   * and the vocabulary is read again here otherwise, or when the thread fails.
   */
  async forceMerge(name: string): Promise<void> {
    this.#build.end();
    if (!isIndex(this.#connection, name)) throw indexNotFound(name);
    const db = this.#connection.db;
    const partitions = partitionsOf(db, name);
    const stale = this.#spellingStale(name);
    const version = this.#dataVersion();
    const vocabulary =
      stale && this.#file !== undefined
        ? readVocabularyInThread({ path: this.#file, index: name, vocabularyRows: vocabularyRowsSql(name, partitions) }).catch(() => undefined)
        : undefined;
    // The merge reads every page of the index once, in order.
    unmapped(db, () => {
      for (const partition of partitions) {
        const { fts, titles } = partitionTablesOf(name, partition);
        db.prepare(`INSERT INTO ${fts} (${fts}) VALUES ('optimize')`).run();
        db.prepare(`INSERT INTO ${titles} (${titles}) VALUES ('optimize')`).run();
      }
    });
    // The merge is this connection's last change before the answer is awaited: any other since is a write that came.
    const changes = this.#totalChanges();
    if (stale) {
      const read = await vocabulary;
      if (!isIndex(this.#connection, name)) throw indexNotFound(name);
      const untouched = this.#dataVersion() === version && this.#totalChanges() === changes;
      this.#rebuildSpelling(name, untouched ? read : undefined);
    }
    // A write that came meanwhile may have opened a build transaction, inside which SQLite cannot checkpoint.
    if (!db.inTransaction) db.pragma('wal_checkpoint(PASSIVE)');
  }

  /** Moves when another connection commits. */
  #dataVersion(): number {
    return Number(this.#connection.db.pragma('data_version', { simple: true }));
  }

  /** Moves with every row this connection inserts, updates or deletes, an index created or deleted too. */
  #totalChanges(): number {
    return this.#connection.statement('total-changes', () => 'SELECT total_changes()').pluck().get() as number;
  }

  /** Whether the "did you mean" index of `index` is missing, or left stale by this connection's writes. */
  #spellingStale(index: string): boolean {
    return this.#spellStale.has(index) || !hasSpellIndex(this.#connection.db, index);
  }

  /** Rebuilds the "did you mean" index from the vocabulary when documents were written since the last rebuild. */
  #refreshSpelling(index: string): void {
    if (this.#spellingStale(index)) this.#rebuildSpelling(index, undefined);
  }

  /** Rebuilds the "did you mean" index from `vocabulary`, read here when not given. */
  #rebuildSpelling(index: string, vocabulary: Vocabulary | undefined): void {
    const db = this.#connection.db;
    db.transaction(() => rebuildSpellIndex(db, index, vocabulary ?? readVocabulary(db, index, vocabularyRowsSql(index, partitionsOf(db, index)))))();
    this.#connection.spellLookups.delete(index);
    this.#spellStale.delete(index);
    this.#connection.forget();
  }

  updateAliases(actions: readonly AliasAction[]): void {
    const connection = this.#connection;
    const db = connection.db;
    this.#build.end();
    connection.forget();
    db.transaction(() => {
      for (const action of actions) {
        if ('add' in action) {
          const { index, alias } = action.add;
          if (!isIndex(connection, index)) throw indexNotFound(index);
          if (!validIndexName(alias)) throw ERRORS.INDEX_NAME_INVALID(alias);
          if (isIndex(connection, alias)) {
            throw ERRORS.INVALID_ALIAS(alias);
          }
          db.prepare('INSERT OR IGNORE INTO search_aliases (alias, index_name) VALUES (?, ?)').run(alias, index);
        } else {
          const { index, alias } = action.remove;
          if (!isIndex(connection, index)) throw indexNotFound(index);
          const removed = db.prepare('DELETE FROM search_aliases WHERE alias = ? AND index_name = ?').run(alias, index);
          if (removed.changes === 0) {
            throw ERRORS.ALIAS_NOT_FOUND(alias, index);
          }
        }
      }
    })();
  }
}
