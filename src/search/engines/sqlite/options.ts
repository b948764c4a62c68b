import { ERRORS } from '../../../error-codes.js';

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
   * The weight of a match by stem only (another form of the word: `measuring` for `measure`), as a share of the
   * column's weight: the word itself, which matches its stem as well, always scores above its other forms.
   * @default 0.5
   */
  stemWeight?: number;
  /**
   * Prefix lengths FTS5 keeps an extra index for (faster `word*` queries, slower writes); empty: none.
   * Prefix queries work without it, by scanning the term range.
   * @default []
   */
  prefixIndex?: readonly number[];
  /**
   * Memory FTS5 collects new index entries in before writing a segment, per full-text table (one per locale partition
   * that holds documents): larger means fewer segments to merge.
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
   * about 45 µs of system time per query. 0 reads every page with read(). A build transaction (see
   * buildTransactionDocuments), `forceMerge` and `deleteIndex` read with read() whatever the setting: they read pages
   * of the whole index once each, and mapped pages would all stay resident in the process; a search on the same
   * connection while a build transaction is open reads with read() too.
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
}

export const SQLITE_ENGINE_DEFAULTS = {
  columnWeights: [10, 3, 1] as const,
  stemWeight: 0.5,
  prefixIndex: [] as const,
  ftsHashBytes: 64 * 1024 * 1024,
  cacheMiB: 64,
  busyTimeoutMs: 10_000,
  mmapMiB: 1024,
  pageBytes: 16_384,
  buildTransactionDocuments: 10_000,
} satisfies Omit<Required<SqliteEngineOptions>, 'path'>;

/** `sqlite:<file>` (also `sqlite://<file>`) → the file path. */
export function sqlitePathFromUrl(url: string): string {
  if (!url.startsWith('sqlite:')) throw ERRORS.SEARCH_URL_INVALID('a sqlite: URL', url);
  const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
  if (path === '') throw ERRORS.SEARCH_URL_INVALID('sqlite:<file> naming a file', url);
  return path;
}
