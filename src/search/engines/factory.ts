import { ERRORS } from '../../error-codes.js';
import { ElasticsearchEngine, elasticsearchOptionsFromUrl, type ElasticsearchEngineOptions } from './elasticsearch/engine.js';
import { SqliteEngine, sqlitePathFromUrl, type SqliteEngineOptions } from './sqlite/engine.js';
import type { SearchEngine } from './types.js';

/**
 * The engine a `SEARCH_URL` names: `sqlite:<file>` → the embedded engine; `http(s)://USER:PASSWORD@HOST:PORT` →
 * Elasticsearch, with the credentials taken out of the address (they never appear in a log or an error).
 */
export function createEngine(
  url: string,
  sqliteOptions: Omit<SqliteEngineOptions, 'path'> = {},
  elasticsearchOptions: Omit<ElasticsearchEngineOptions, 'node' | 'auth'> = {},
): SearchEngine {
  if (url.startsWith('sqlite:')) return new SqliteEngine({ ...sqliteOptions, path: sqlitePathFromUrl(url) });
  if (/^https?:\/\//i.test(url)) return new ElasticsearchEngine({ ...elasticsearchOptions, ...elasticsearchOptionsFromUrl(url) });
  throw ERRORS.SEARCH_URL_INVALID('sqlite:<file> or an http(s) URL', url.replace(/\/\/[^@/]*@/, '//***@'));
}
