import { AppError } from '../../errors.js';
import { SqliteEngine, sqlitePathFromUrl, type SqliteEngineOptions } from './sqlite.js';
import type { SearchEngine } from './types.js';

/**
 * The engine a `SEARCH_URL` names: `sqlite:<file>` → the embedded engine; `http(s)://USER:PASSWORD@HOST:PORT` →
 * Elasticsearch (not available yet: a clear error rather than a silent fallback).
 */
export function createEngine(url: string, sqliteOptions: Omit<SqliteEngineOptions, 'path'> = {}): SearchEngine {
  if (url.startsWith('sqlite:')) return new SqliteEngine({ ...sqliteOptions, path: sqlitePathFromUrl(url) });
  if (/^https?:\/\//i.test(url)) {
    throw new AppError('SEARCH_ENGINE_UNAVAILABLE', 'the Elasticsearch engine is not available yet; use SEARCH_URL=sqlite:<file>', 501);
  }
  throw new AppError('SEARCH_URL_INVALID', `SEARCH_URL must be sqlite:<file> or an http(s) URL, got '${url.replace(/\/\/[^@/]*@/, '//***@')}'`, 500);
}
