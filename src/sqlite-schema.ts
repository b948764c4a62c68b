import type Database from 'better-sqlite3';
import { ERRORS } from './error-codes.js';

/**
 * Runs every schema step the file has not seen yet; `PRAGMA user_version` records how many have run. Each step runs
 * in an immediate transaction that reads the version again once it holds the write lock, so processes opening one new
 * file at once (fronts started together in one data folder) run each step exactly once instead of failing on the
 * tables another made. The connection's busy timeout must already be set, for the others to wait for that lock.
 */
export function migrateSchema(db: Database.Database, migrations: readonly string[], database: string): number {
  for (;;) {
    const ran = db.transaction((): boolean => {
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version > migrations.length) throw ERRORS.SCHEMA_TOO_NEW(database, version, migrations.length);
      if (version === migrations.length) return false;
      db.exec(migrations[version] ?? '');
      db.pragma(`user_version = ${version + 1}`);
      return true;
    }).immediate();
    if (!ran) return migrations.length;
  }
}

/**
 * Puts the file in WAL mode. SQLite answers SQLITE_BUSY at once, without waiting on the busy timeout, when another
 * connection is changing the journal mode of the same new file, so processes created together retry for a while.
 */
export function useWriteAheadLog(db: Database.Database, waitMs = 5_000): void {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= until) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}
