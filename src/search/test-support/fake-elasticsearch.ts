/**
 * An in-memory Elasticsearch for tests, on `@elastic/elasticsearch-mock`: the real client, its serialisation and its
 * error handling run unchanged; only the socket is replaced by route handlers that keep indices, aliases and
 * documents in memory and answer in Elasticsearch's wire format (bodies, status codes, error types).
 *
 * It interprets what it is sent — the analysis settings and mappings of `PUT /<index>`, the query DSL of `_search`
 * and `_count` — rather than recognising particular requests, so the engine's contract tests exercise the engine's
 * real requests. Endpoints: `GET /_cluster/health`; `PUT|GET|DELETE /<index>`; `POST /<index>/_refresh`;
 * `POST /<index>/_forcemerge`; `POST /_aliases`; `GET /<pattern>/_alias`; `GET /_cat/indices/<pattern>`;
 * `POST [/<index>]/_bulk`; `POST /<index>/_search`; `POST /<index>/_count`.
 *
 * Limits (where it is not Elasticsearch):
 * - Analysis: tokenizers `standard` (Unicode word segmentation through `Intl.Segmenter`, close to Lucene's UAX #29
 *   tokenizer; CJK runs are segmented by dictionary rather than per ideograph) and `keyword`; char filter
 *   `pattern_replace`; token filters `lowercase`, `asciifolding` (Unicode decomposition, not Lucene's full table),
 *   `trim`, `edge_ngram`; normalizers of `lowercase` and `asciifolding`. Anything else is refused with 400,
 *   as Elasticsearch refuses an unknown component.
 * - Queries: `bool`, `constant_score`, `match`, `match_phrase` (slop 0; scored as the sum of its words, not by phrase frequency),
 *   `multi_match` (`cross_fields` as the sum over words of the best field score; `best_fields` with `fuzziness`
 *   expands each word to the stored terms of the field within its edits, as Lucene's FuzzyQuery, see spelling.ts),
 *   `terms`, `term`, `prefix`, `match_all`, `match_none`, `function_score` with `field_value_factor`. Others → 400.
 * - Aggregations: `global` (top level), `filter` and `filters`, with sub-aggregations; counts only. Others → 400.
 * - Scoring is BM25 (k1 1.2, b 0.75) over one shard's refreshed documents, without Lucene's lossy length norms.
 * - Highlighting: whole-field (`number_of_fragments: 0`) or fragments of about `fragment_size` characters around the
 *   matches, in document order; `encoder: html` escapes as Lucene's SimpleHTMLEncoder.
 * - Term suggester: Damerau–Levenshtein candidates with Lucene's `internal` score (1 − edits ÷ shorter length), the
 *   `missing`, `popular` and `always` modes, `max_term_freq` and both sorts, over the terms stored.
 * - Bulk actions `index` and `delete`. A bulk item for a missing index fails with `index_not_found_exception`, as
 *   with `action.auto_create_index: false`.
 * - Documents become searchable on `_refresh` only, as in Elasticsearch; there are no segments, so force merge
 *   changes nothing observable; one node, one shard, health as set by `setHealth`.
 */
import { createRequire } from 'node:module';
import type { BaseConnection, errors as ClientErrors } from '@elastic/elasticsearch';
import { Analysis, mapFields } from './fake-elasticsearch/analysis.js';
import { highlightHit } from './fake-elasticsearch/highlight.js';
import { storedDocument } from './fake-elasticsearch/documents.js';
import { aggregate, type ScopedDoc } from './fake-elasticsearch/aggregations.js';
import { checkQuery, evaluate } from './fake-elasticsearch/query.js';
import type { SearchContext, TermsByField } from './fake-elasticsearch/query.js';
import { termSuggest } from './fake-elasticsearch/spelling.js';
import { EsError } from './fake-elasticsearch/types.js';
import type { Fault, FakeIndex, Json, StoredDoc } from './fake-elasticsearch/types.js';

export type { Fault } from './fake-elasticsearch/types.js';

interface MockRequest {
  method: string;
  path: string;
  body: unknown;
  querystring: Record<string, string>;
}

interface ClientMock {
  add(pattern: { method: string | string[]; path: string | string[] }, resolver: (params: MockRequest) => unknown): ClientMock;
  getConnection(): typeof BaseConnection;
}

// The mock is a CommonJS module whose typings declare an ES default export; require() gives the class itself. Its
// error checks use `instanceof` against the CommonJS build of the client, so faults are made with those classes.
const require = createRequire(import.meta.url);
const Mock = require('@elastic/elasticsearch-mock') as new () => ClientMock;
const errors = (require('@elastic/elasticsearch') as { errors: typeof ClientErrors }).errors;

/** Elasticsearch's index-name rules. */
function indexNameProblem(name: string): string | undefined {
  if (name === '' || name === '.' || name === '..') return 'must not be empty, . or ..';
  if (name !== name.toLowerCase()) return 'must be lowercase';
  if (/^[-_+]/.test(name)) return "must not start with '_', '-', or '+'";
  if (/[\\/*?"<>| ,#:]/.test(name)) return 'must not contain the following characters [\\, /, *, ?, ", <, >, |,  , ,, #, :]';
  if (Buffer.byteLength(name) > 255) return 'index name is too long';
  return undefined;
}

/** An in-memory Elasticsearch behind the client's mock connection. */
export class FakeElasticsearch {
  readonly #mock = new Mock();
  readonly #indices = new Map<string, FakeIndex>();
  #health: 'green' | 'yellow' | 'red' = 'green';
  #seq = 0;
  readonly #faults: { path: RegExp; fault: Fault }[] = [];
  #rejectBulkItems = 0;
  /** Every request received, as `METHOD /path`, for assertions on retries. */
  readonly requests: string[] = [];

  constructor() {
    const route = (method: string | string[], path: string | string[], handler: (request: MockRequest) => unknown) => {
      this.#mock.add({ method, path }, (params) => this.#answer(params, handler));
    };
    route('GET', '/_cluster/health', () => ({ cluster_name: 'fake', status: this.#health, number_of_nodes: 1, number_of_data_nodes: 1, timed_out: false }));
    route('PUT', '/:index', ({ path, body }) => this.#createIndex(segment(path, 0), (body ?? {}) as Json));
    route(['GET', 'HEAD'], '/:index', ({ path }) => this.#getIndex(segment(path, 0)));
    route('DELETE', '/:index', ({ path }) => this.#deleteIndex(segment(path, 0)));
    route(['POST', 'GET'], '/:index/_refresh', ({ path }) => this.#refresh(segment(path, 0)));
    route('POST', '/:index/_forcemerge', ({ path }) => {
      this.#resolve(segment(path, 0));
      return { _shards: { total: 1, successful: 1, failed: 0 } };
    });
    route('POST', '/_aliases', ({ body }) => this.#updateAliases((body ?? {}) as Json));
    route('GET', '/:index/_alias', ({ path }) => this.#getAliases(segment(path, 0)));
    route('GET', ['/_cat/indices', '/_cat/indices/:index'], ({ path }) => this.#catIndices(path.split('/')[3] ?? '*'));
    route(['POST', 'PUT'], ['/_bulk', '/:index/_bulk'], ({ path, body }) => this.#bulk(path.startsWith('/_bulk') ? undefined : segment(path, 0), (body ?? []) as Json[]));
    route(['POST', 'GET'], '/:index/_search', ({ path, body }) => this.#search(segment(path, 0), (body ?? {}) as Json));
    route(['POST', 'GET'], '/:index/_count', ({ path, body }) => this.#count(segment(path, 0), (body ?? {}) as Json));
  }

  /** The connection class to give the client (`new Client({ Connection })`). */
  get Connection(): typeof BaseConnection {
    // The mock's connection has no close(); the client calls it when it closes.
    return class extends this.#mock.getConnection() {
      override async close(): Promise<void> {}
    };
  }

  setHealth(status: 'green' | 'yellow' | 'red'): void {
    this.#health = status;
  }

  /** The next `times` requests whose `METHOD /path` matches `path` fail with `fault`. */
  failNext(times: number, fault: Fault, path: RegExp = /./): void {
    for (let i = 0; i < times; i++) this.#faults.push({ path, fault });
  }

  /** The next `count` bulk items are rejected with 429 `es_rejected_execution_exception`, as a full write queue does. */
  rejectBulkItems(count: number): void {
    this.#rejectBulkItems = count;
  }

  #answer(
    params: MockRequest,
    handler: (request: MockRequest) => unknown,
  ): unknown {
    const line = `${params.method} ${params.path}`;
    this.requests.push(line);
    const faultAt = this.#faults.findIndex((item) => item.path.test(line));
    if (faultAt >= 0) {
      const { fault } = this.#faults.splice(faultAt, 1)[0] as { fault: Fault };
      if (fault === 'connection') return new errors.ConnectionError('connect ECONNREFUSED (fake)');
      if (fault === 'timeout') return new errors.TimeoutError('Request timed out (fake)');
      return responseError(fault.status, fault.type ?? (fault.status === 429 ? 'es_rejected_execution_exception' : 'unavailable'), 'injected fault');
    }
    try {
      return handler(params);
    } catch (error) {
      if (error instanceof EsError) return responseError(error.status, error.type, error.message);
      throw error;
    }
  }

  #resolve(name: string): FakeIndex[] {
    const index = this.#indices.get(name);
    if (index !== undefined) return [index];
    const aliased = [...this.#indices.values()].filter((item) => item.aliases.has(name));
    if (aliased.length === 0) throw new EsError(404, 'index_not_found_exception', `no such index [${name}]`);
    return aliased;
  }

  #aliasExists(name: string): boolean {
    return [...this.#indices.values()].some((index) => index.aliases.has(name));
  }

  #createIndex(name: string, body: Json): Json {
    const problem = indexNameProblem(name);
    if (problem !== undefined) throw new EsError(400, 'invalid_index_name_exception', `Invalid index name [${name}], ${problem}`);
    if (this.#indices.has(name)) throw new EsError(400, 'resource_already_exists_exception', `index [${name}] already exists`);
    if (this.#aliasExists(name)) throw new EsError(400, 'invalid_index_name_exception', `Invalid index name [${name}], already exists as alias`);
    const analysis = new Analysis((body['settings'] ?? {}) as Json);
    const fields = mapFields((body['mappings'] ?? {}) as Json, analysis);
    this.#indices.set(name, { name, definition: body, fields, docs: new Map(), visible: new Map(), aliases: new Set() });
    return { acknowledged: true, shards_acknowledged: true, index: name };
  }

  #getIndex(name: string): Json {
    return Object.fromEntries(
      this.#resolve(name).map((index) => [
        index.name,
        { aliases: Object.fromEntries([...index.aliases].map((alias) => [alias, {}])), mappings: index.definition['mappings'] ?? {}, settings: { index: { provided_name: index.name, ...((index.definition['settings'] ?? {}) as Json) } } },
      ]),
    );
  }

  #deleteIndex(name: string): Json {
    if (name.includes('*')) throw new EsError(400, 'illegal_argument_exception', 'Wildcard expressions or all indices are not allowed');
    if (!this.#indices.has(name)) {
      if (this.#aliasExists(name)) throw new EsError(400, 'illegal_argument_exception', `The provided expression [${name}] matches an alias, specify the corresponding concrete indices instead.`);
      throw new EsError(404, 'index_not_found_exception', `no such index [${name}]`);
    }
    this.#indices.delete(name);
    return { acknowledged: true };
  }

  #refresh(name: string): Json {
    for (const index of this.#resolve(name)) index.visible = new Map(index.docs);
    return { _shards: { total: 1, successful: 1, failed: 0 } };
  }

  #updateAliases(body: Json): Json {
    const actions = (body['actions'] ?? []) as Json[];
    const planned: (() => void)[] = [];
    const pending = new Map<string, Set<string>>([...this.#indices.values()].map((index) => [index.name, new Set(index.aliases)]));
    for (const action of actions) {
      const [kind, raw] = Object.entries(action)[0] ?? [];
      const spec = (raw ?? {}) as Json;
      const indexName = String(spec['index']);
      const alias = String(spec['alias']);
      const aliases = pending.get(indexName);
      if (aliases === undefined) throw new EsError(404, 'index_not_found_exception', `no such index [${indexName}]`);
      if (kind === 'add') {
        if (this.#indices.has(alias)) throw new EsError(400, 'invalid_alias_name_exception', `Invalid alias name [${alias}]: an index or data stream exists with the same name as the alias`);
        const problem = indexNameProblem(alias);
        if (problem !== undefined) throw new EsError(400, 'invalid_alias_name_exception', `Invalid alias name [${alias}]: ${problem}`);
        aliases.add(alias);
      } else if (kind === 'remove') {
        if (!aliases.has(alias) && spec['must_exist'] === true) throw new EsError(404, 'aliases_not_found_exception', `aliases [${alias}] missing`);
        aliases.delete(alias);
      } else {
        throw new EsError(400, 'x_content_parse_exception', `unknown alias action [${String(kind)}]`);
      }
    }
    for (const [name, aliases] of pending) planned.push(() => ((this.#indices.get(name) as FakeIndex).aliases = aliases));
    for (const apply of planned) apply();
    return { acknowledged: true, errors: false };
  }

  #matching(pattern: string): FakeIndex[] {
    const expression = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    return [...this.#indices.values()].filter((index) => expression.test(index.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  #getAliases(pattern: string): Json {
    const found = pattern.includes('*') ? this.#matching(pattern) : this.#resolve(pattern);
    return Object.fromEntries(found.map((index) => [index.name, { aliases: Object.fromEntries([...index.aliases].map((alias) => [alias, {}])) }]));
  }

  #catIndices(pattern: string): Json[] {
    const found = pattern.includes('*') ? this.#matching(pattern) : this.#resolve(pattern);
    return found.map((index) => ({ index: index.name, 'docs.count': String(index.visible.size), health: this.#health, status: 'open' }));
  }

  /**
   * `_bulk` as NDJSON lines: an `index` or `create` action is followed by its source line, a `delete` action stands
   * alone. A delete of an id the index does not hold answers 404 `not_found` without an error, as Elasticsearch does.
   */
  #bulk(defaultIndex: string | undefined, lines: Json[]): Json {
    const items: Json[] = [];
    for (let i = 0; i < lines.length; i++) {
      const [action, raw] = Object.entries(lines[i] ?? {})[0] ?? [];
      const meta = (raw ?? {}) as Json;
      const indexName = String(meta['_index'] ?? defaultIndex);
      const id = String(meta['_id'] ?? '');
      const item = (status: number, extra: Json) => items.push({ [String(action)]: { _index: indexName, _id: id, status, ...extra } });
      const source = action === 'index' || action === 'create' ? ((lines[++i] ?? {}) as Json) : undefined;
      if (action !== 'index' && action !== 'delete') {
        item(400, { error: { type: 'illegal_argument_exception', reason: `bulk action [${String(action)}] is not supported by the fake` } });
        continue;
      }
      if (this.#rejectBulkItems > 0) {
        this.#rejectBulkItems--;
        item(429, { error: { type: 'es_rejected_execution_exception', reason: 'rejected execution: write queue is full (fake)' } });
        continue;
      }
      const index = this.#indices.get(indexName);
      if (index === undefined) {
        item(404, { error: { type: 'index_not_found_exception', reason: `no such index [${indexName}]` } });
        continue;
      }
      const shards = { _shards: { total: 1, successful: 1, failed: 0 } };
      if (action === 'delete') {
        const found = index.docs.delete(id);
        item(found ? 200 : 404, { _version: 1, result: found ? 'deleted' : 'not_found', ...shards });
        continue;
      }
      try {
        const doc = storedDocument(index, id, source ?? {}, () => ++this.#seq);
        const replaced = index.docs.has(id);
        index.docs.set(id, doc);
        item(replaced ? 200 : 201, { result: replaced ? 'updated' : 'created', _version: 1, ...shards });
      } catch (error) {
        if (!(error instanceof EsError)) throw error;
        item(error.status, { error: { type: error.type, reason: error.message } });
      }
    }
    return { took: 1, errors: items.some((item) => (Object.values(item)[0] as Json)['error'] !== undefined), items };
  }

  /** The documents of the indices `name` resolves to, each in its index's context. */
  #scope(name: string): ScopedDoc[] {
    return this.#resolve(name).flatMap((index) => {
      const context: SearchContext = { index, stats: new Map(), expansions: new Map() };
      return [...index.visible.values()].map((doc) => ({ doc, context }));
    });
  }

  #matches(scope: readonly ScopedDoc[], query: Json | undefined, highlight?: Map<string, TermsByField>): (ScopedDoc & { score: number })[] {
    const results: (ScopedDoc & { score: number })[] = [];
    if (query !== undefined) checkQuery(query);
    for (const { doc, context } of scope) {
      const terms: TermsByField = new Map();
      const score = evaluate(query ?? { match_all: {} }, doc, context, terms);
      if (score === undefined) continue;
      results.push({ doc, score, context });
      highlight?.set(`${context.index.name}\u0000${doc.id}`, terms);
    }
    return results;
  }

  #count(name: string, body: Json): Json {
    return { count: this.#matches(this.#scope(name), body['query'] as Json | undefined).length, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } };
  }

  #search(name: string, body: Json): Json {
    const highlightTerms = new Map<string, TermsByField>();
    const scope = this.#scope(name);
    const matches = this.#matches(scope, body['query'] as Json | undefined, highlightTerms);
    const sort = ((body['sort'] ?? []) as (Json | string)[]).map((entry) => {
      const [field, raw] = typeof entry === 'string' ? [entry, {}] : (Object.entries(entry)[0] ?? ['_score', {}]);
      const order = typeof raw === 'string' ? raw : ((raw as Json)['order'] ?? (field === '_score' ? 'desc' : 'asc'));
      return { field, descending: order === 'desc' };
    });
    const sortedByScore = sort.length === 0;
    const keys = sortedByScore ? [{ field: '_score', descending: true }] : sort;
    const value = (match: { doc: StoredDoc; score: number }, field: string) => (field === '_score' ? match.score : (match.doc.numbers.get(field) ?? Number.NEGATIVE_INFINITY));
    matches.sort((a, b) => {
      for (const key of keys) {
        const difference = value(a, key.field) - value(b, key.field);
        if (difference !== 0) return key.descending ? -difference : difference;
      }
      return a.doc.seq - b.doc.seq;
    });
    const from = Number(body['from'] ?? 0);
    const size = Number(body['size'] ?? 10);
    if (from + size > 10_000) throw new EsError(400, 'illegal_argument_exception', 'Result window is too large, from + size must be less than or equal to: [10000]');
    const includes = body['_source'];
    const withScores = sortedByScore || body['track_scores'] === true;
    const highlight = body['highlight'] as Json | undefined;
    const hits = matches.slice(from, from + size).map((match) => {
      const source = Array.isArray(includes) ? Object.fromEntries(Object.entries(match.doc.source).filter(([key]) => (includes as string[]).includes(key))) : match.doc.source;
      const hit: Json = { _index: match.context.index.name, _id: match.doc.id, _score: withScores ? match.score : null, _source: source };
      if (!sortedByScore) hit['sort'] = keys.map((key) => value(match, key.field));
      if (highlight !== undefined) {
        const fields = highlightHit(match.doc, highlightTerms.get(`${match.context.index.name}\u0000${match.doc.id}`) ?? new Map<string, Set<string>>(), highlight);
        if (Object.keys(fields).length > 0) hit['highlight'] = fields;
      }
      return hit;
    });
    const track = body['track_total_hits'] ?? 10_000;
    const response: Json = {
      took: 1,
      timed_out: false,
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
      hits: {
        ...(track === false
          ? {}
          : { total: track === true || matches.length <= Number(track) ? { value: matches.length, relation: 'eq' } : { value: Number(track), relation: 'gte' } }),
        max_score: withScores && hits.length > 0 ? Math.max(...matches.map((match) => match.score)) : null,
        hits,
      },
    };
    const aggs = (body['aggs'] ?? body['aggregations']) as Json | undefined;
    if (aggs !== undefined) response['aggregations'] = aggregate(aggs, matches, scope);
    const suggest = body['suggest'] as Record<string, Json> | undefined;
    if (suggest !== undefined) response['suggest'] = Object.fromEntries(Object.entries(suggest).map(([key, spec]) => [key, this.#termSuggest(name, spec)]));
    return response;
  }

  #termSuggest(name: string, spec: Json): Json[] {
    if (spec['term'] === undefined) throw new EsError(400, 'parsing_exception', 'the fake supports the term suggester only');
    const field = String((spec['term'] as Json)['field']);
    const [index] = this.#resolve(name) as [FakeIndex];
    const mapping = index.fields.get(field);
    if (mapping === undefined) return [];
    const vocabulary = new Map<string, number>();
    for (const doc of index.visible.values()) for (const word of doc.text.get(field)?.frequencies.keys() ?? []) vocabulary.set(word, (vocabulary.get(word) ?? 0) + 1);
    return termSuggest(spec, mapping, vocabulary, index.visible.size);
  }
}

function segment(path: string, position: number): string {
  return decodeURIComponent(path.split('/').filter((part) => part !== '')[position] ?? '');
}

function responseError(status: number, type: string, reason: string): ClientErrors.ResponseError {
  const body = { error: { type, reason, root_cause: [{ type, reason }] }, status };
  return new errors.ResponseError({ body, statusCode: status, headers: {}, warnings: null, meta: {} } as unknown as ConstructorParameters<typeof errors.ResponseError>[0]);
}
