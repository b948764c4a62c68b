import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import type { RowidRange } from './retrieval-plan.js';

/** Terms whose document counts a connection remembers across reads (about 100 bytes each). */
export const TERM_MEMO_ENTRIES = 20_000;

/**
 * One database connection of the engine, with its prepared statements, its read transactions and what it remembers
 * between them: every part of the engine reads and writes through it.
 */
export class Connection {
  readonly db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  /** Runs a function in a deferred transaction; made once, as better-sqlite3 builds several wrappers per transaction(). */
  readonly #readTransaction: (read: () => unknown) => unknown;
  /** What one read transaction looked up once and may ask again (its snapshot does not change while it runs). */
  #snapshot: { version?: number; ranges: Map<string, RowidRange[]> } | undefined;
  /**
   * What remembered() computed (alias targets, whether spelling tables exist, document counts, partitions of an index,
   * partitions holding one locale), valid for this database version.
   */
  readonly #rememberedValues = new Map<string, unknown>();
  /**
   * How many documents hold each term looked up (see documentsHolding in terms.ts), by index, across reads: a query's
   * words are mostly words earlier queries asked for. Bounded, as the words asked for are not; dropped with the
   * remembered values.
   */
  readonly termDocuments = new LRUCache<string, { documents: number | undefined }>({ max: TERM_MEMO_ENTRIES });
  #rememberedVersion = -1;

  constructor(db: Database.Database) {
    this.db = db;
    this.#readTransaction = db.transaction((read: () => unknown) => read()).deferred;
  }

  statement(key: string, sql: () => string): Database.Statement {
    let statement = this.#statements.get(key);
    if (statement === undefined) {
      statement = this.db.prepare(sql());
      this.#statements.set(key, statement);
    }
    return statement;
  }

  forgetStatements(index?: string): void {
    if (index === undefined) this.#statements.clear();
    else for (const key of this.#statements.keys()) if (key.startsWith(`${index}\u0000`)) this.#statements.delete(key);
  }

  /** Runs `read` on one consistent snapshot: the alias lookup and the queries see the same database state. */
  read<T>(read: () => T): T {
    this.#snapshot = { ranges: new Map() };
    try {
      return this.#readTransaction(read) as T;
    } finally {
      this.#snapshot = undefined;
    }
  }

  /** The rowid ranges the running read has looked up, by index and locales (see rangesOf in walks.ts). */
  get snapshotRanges(): Map<string, RowidRange[]> | undefined {
    return this.#snapshot?.ranges;
  }

  /** Drops what is remembered until the database changes: this connection wrote, or another one committed. */
  forget(): void {
    this.#rememberedValues.clear();
    this.termDocuments.clear();
  }

  /** Forgets what was remembered when another connection committed since (data_version moved); once per read. */
  checkVersion(): void {
    // This connection's own writes call forget themselves: they do not move its data_version.
    const snapshot = this.#snapshot;
    if (snapshot?.version !== undefined) return;
    const version = this.statement('data-version', () => 'PRAGMA data_version').pluck().get() as number;
    if (snapshot !== undefined) snapshot.version = version;
    if (version !== this.#rememberedVersion) {
      this.forget();
      this.#rememberedVersion = version;
    }
  }

  /** `compute()`, remembered under `key` until the database changes. */
  remembered<T>(key: string, compute: () => T): T {
    this.checkVersion();
    if (this.#rememberedValues.has(key)) return this.#rememberedValues.get(key) as T;
    const value = compute();
    this.#rememberedValues.set(key, value);
    return value;
  }
}
