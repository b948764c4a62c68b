import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { ERRORS } from '../../../error-codes.js';
import type { SpellLookup } from './spell-index.js';
import { SQLITE_ENGINE_DEFAULTS, type SqliteEngineOptions } from './options.js';
import type { RowidRange } from './static-rank.js';
import { useWriteAheadLog } from '../../../sqlite-schema.js';

/** Terms whose document counts a connection remembers across reads (about 100 bytes each). */
const TERM_MEMO_ENTRIES = 20_000;

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
   * How many documents hold each term looked up (see documentsHolding in text-plan.ts), by index, across reads: a query's
   * words are mostly words earlier queries asked for. Bounded, as the words asked for are not; dropped with the
   * remembered values.
   */
  readonly termDocuments = new LRUCache<string, { documents: number | undefined }>({ max: TERM_MEMO_ENTRIES });
  #rememberedVersion = -1;
  /** The "did you mean" lookup of each index suggestions were asked of, dropped when its spelling index is rebuilt. */
  readonly spellLookups = new Map<string, SpellLookup>();

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

  /** Drops the statements of an index (and its spelling lookup), or of every index. */
  forgetStatements(index?: string): void {
    if (index === undefined) this.#statements.clear();
    else {
      for (const key of this.#statements.keys()) if (key.startsWith(`${index}\u0000`)) this.#statements.delete(key);
      this.spellLookups.delete(index);
    }
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

/** Opens the database file (created with its directory when missing) with the pragmas the options ask for. */
export function openDatabase(options: SqliteEngineOptions): Database.Database {
  mkdirSync(dirname(options.path), { recursive: true });
  const pageBytes = options.pageBytes ?? SQLITE_ENGINE_DEFAULTS.pageBytes;
  if (!(Number.isInteger(pageBytes) && pageBytes >= 512 && pageBytes <= 65_536 && (pageBytes & (pageBytes - 1)) === 0)) {
    throw ERRORS.SEARCH_OPTIONS_INVALID('pageBytes', 'a power of two from 512 to 65536');
  }
  const db = new Database(options.path);
  // Takes effect on a new, empty file only, and must come before WAL mode writes the first page.
  db.pragma(`page_size = ${pageBytes}`);
  // Before WAL mode: a process opening the file as another creates it waits for the other's locks rather than fail.
  const busyTimeoutMs = options.busyTimeoutMs ?? SQLITE_ENGINE_DEFAULTS.busyTimeoutMs;
  db.pragma(`busy_timeout = ${Number.isSafeInteger(busyTimeoutMs) && busyTimeoutMs >= 0 ? busyTimeoutMs : SQLITE_ENGINE_DEFAULTS.busyTimeoutMs}`);
  useWriteAheadLog(db);
  db.pragma('synchronous = NORMAL');
  db.pragma(`cache_size = -${Math.round((options.cacheMiB ?? SQLITE_ENGINE_DEFAULTS.cacheMiB) * 1024)}`);
  const mmapBytes = Math.round((options.mmapMiB ?? SQLITE_ENGINE_DEFAULTS.mmapMiB) * 1024 * 1024);
  db.pragma(`mmap_size = ${Number.isFinite(mmapBytes) && mmapBytes > 0 ? mmapBytes : 0}`);
  return db;
}

/**
 * Turns the memory map of `db` (see mmapMiB) off until the function returned is called. A build transaction and a
 * merge read pages of the whole index being written, once each: through the map every such page would stay in the
 * process's resident memory, where read() leaves it to the page cache. Searches map what they read again afterwards.
 */
export function withoutMemoryMap(db: Database.Database): () => void {
  const mapped = Number(db.pragma('mmap_size', { simple: true }));
  if (mapped <= 0) return () => undefined;
  db.pragma('mmap_size = 0');
  return () => {
    if (db.open) db.pragma(`mmap_size = ${mapped}`);
  };
}

/** Runs `run` with the memory map of `db` off (see withoutMemoryMap), and maps again after it, however it ends. */
export function unmapped<T>(db: Database.Database, run: () => T): T {
  const remap = withoutMemoryMap(db);
  try {
    return run();
  } finally {
    remap();
  }
}
