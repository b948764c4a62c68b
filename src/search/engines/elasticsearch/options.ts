/** The Elasticsearch engine's options, and the node and credentials `SEARCH_URL` gives. No I/O. */
import type { BaseConnection } from '@elastic/elasticsearch';
import { ERRORS } from '../../../error-codes.js';
import type { Logger } from '../../../log.js';
import type { IndexShape } from './schema.js';

/** Options of the Elasticsearch engine. */
export interface ElasticsearchEngineOptions {
  /** The cluster address without credentials, e.g. `https://es.example:9200`. */
  node: string;
  /** Basic-auth credentials (from `SEARCH_URL`'s user and password); never logged. */
  auth?: { username: string; password: string };
  /** Shards and replicas of the indices the engine creates. @default { shards: 1, replicas: 1 } */
  index?: IndexShape;
  /** How long a search, count, suggestion or autocomplete request may take before it is answered as unavailable. @default 3000 */
  readTimeoutMs?: number;
  /** How long a write (bulk, alias change, index creation) may take per attempt. @default 60000 */
  writeTimeoutMs?: number;
  /** How long a force merge may take; it returns only when the merge is done. @default 600000 */
  mergeTimeoutMs?: number;
  /** Further attempts of a read after a connection error, timeout, 429 or 502–504. @default 1 */
  readRetries?: number;
  /** Further attempts of a write (and of each bulk item the cluster rejected with 429). @default 5 */
  writeRetries?: number;
  /** First backoff delay; it doubles per attempt, with jitter, up to `maxBackoffMs`. @default 200 */
  backoffMs?: number;
  /** @default 10000 */
  maxBackoffMs?: number;
  /**
   * Largest answer read from the cluster, in bytes, compressed or not (the client's `maxResponseSize` and
   * `maxCompressedResponseSize`): a Content-Length above it, or a body growing past it, ends the request, which fails
   * as SEARCH_ENGINE_ERROR (502). Search answers are a few KB; bulk answers of a full batch a few MB. @default 33554432
   */
  maxResponseBytes?: number;
  /**
   * Locales whose languages' stemmed fields a search without a locale filter matches, besides English (a site's
   * other locales); a search with a locale filter stems in its locales' languages. @default ['en']
   */
  stemLocales?: readonly string[];
  /** A connection class to use instead of HTTP — the tests pass `@elastic/elasticsearch-mock`'s. */
  Connection?: typeof BaseConnection;
  logger?: Logger;
}

export const ELASTICSEARCH_ENGINE_DEFAULTS = {
  readTimeoutMs: 3_000,
  writeTimeoutMs: 60_000,
  mergeTimeoutMs: 600_000,
  readRetries: 1,
  writeRetries: 5,
  backoffMs: 200,
  maxBackoffMs: 10_000,
  maxResponseBytes: 32 * 1024 * 1024,
} as const satisfies Partial<ElasticsearchEngineOptions>;

/** `http(s)://USER:PASSWORD@HOST:PORT` → the node address and the credentials apart, so neither log nor error shows them. */
export function elasticsearchOptionsFromUrl(url: string): Pick<ElasticsearchEngineOptions, 'node' | 'auth'> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw ERRORS.SEARCH_URL_INVALID('a valid http(s) URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw ERRORS.SEARCH_URL_INVALID('http(s) for Elasticsearch', parsed.protocol);
  }
  const auth =
    parsed.username === '' && parsed.password === ''
      ? undefined
      : { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
  parsed.username = '';
  parsed.password = '';
  const node = parsed.toString().replace(/\/+$/, '');
  return auth === undefined ? { node } : { node, auth };
}
