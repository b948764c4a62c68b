import { accessSync, constants, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ERRORS } from '../error-codes.js';

/** Files of DATA_DIR that a server opens for writing: SQLite databases with their journals, and the secrets file. */
const WRITTEN = /\.sqlite(-wal|-shm|-journal)?$|^secrets\.json$/;

function check(path: string, mode: number, what: string): void {
  try {
    accessSync(path, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw ERRORS.DATA_DIR_UNUSABLE(`DATA_DIR: ${what} ${path}`, code, "make it this user's to read and write, or set DATA_DIR to another directory");
  }
}

/**
 * Makes DATA_DIR when it is missing and checks, before any server opens a store in it, that this user can read and
 * write it and the databases already there: SQLite's own failure (`unable to open database file`) names no file.
 */
export function ensureDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    // "Create it as this user" would send the operator after permissions when the path names a file.
    if (code === 'EEXIST') throw ERRORS.DATA_DIR_UNUSABLE(`DATA_DIR: ${dataDir} is a file, not a directory`, code, 'set DATA_DIR to a directory');
    if (code === 'ENOTDIR') {
      throw ERRORS.DATA_DIR_UNUSABLE(`DATA_DIR: cannot create ${dataDir}`, code, 'a part of its path is a file; set DATA_DIR to a directory');
    }
    throw ERRORS.DATA_DIR_UNUSABLE(`DATA_DIR: cannot create ${dataDir}`, code, 'create it as this user, or set DATA_DIR to a writable directory');
  }
  if (!statSync(dataDir).isDirectory()) throw ERRORS.DATA_DIR_UNUSABLE(`DATA_DIR: ${dataDir} is not a directory`, 'ENOTDIR', 'set DATA_DIR to a directory');
  check(dataDir, constants.R_OK | constants.W_OK | constants.X_OK, 'cannot read and write the directory');
  for (const name of readdirSync(dataDir)) {
    if (WRITTEN.test(name)) check(join(dataDir, name), constants.R_OK | constants.W_OK, 'cannot read and write');
  }
}
