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
 * - Queries: `bool`, `match`, `match_phrase` (slop 0; scored as the sum of its words, not by phrase frequency),
 *   `multi_match` (`cross_fields` as the sum over words of the best field score),
 *   `terms`, `term`, `prefix`, `match_all`, `match_none`, `function_score` with `field_value_factor`. Others → 400.
 * - Scoring is BM25 (k1 1.2, b 0.75) over one shard's refreshed documents, without Lucene's lossy length norms.
 * - Highlighting: whole-field (`number_of_fragments: 0`) or fragments of about `fragment_size` characters around the
 *   matches, in document order; `encoder: html` escapes as Lucene's SimpleHTMLEncoder.
 * - Term suggester: Damerau–Levenshtein candidates with Lucene's `internal` score (1 − edits ÷ shorter length).
 * - Bulk actions `index` and `delete`. A bulk item for a missing index fails with `index_not_found_exception`, as
 *   with `action.auto_create_index: false`.
 * - Documents become searchable on `_refresh` only, as in Elasticsearch; there are no segments, so force merge
 *   changes nothing observable; one node, one shard, health as set by `setHealth`.
 */
import { createRequire } from 'node:module';
import type { BaseConnection, errors as ClientErrors } from '@elastic/elasticsearch';

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

interface Token {
  term: string;
  start: number;
  end: number;
  position: number;
}

type Json = Record<string, unknown>;
type Analyzer = (text: string) => Token[];

interface FieldMapping {
  type: 'text' | 'keyword' | 'float';
  analyzer: Analyzer;
  searchAnalyzer: Analyzer;
  normalize: (value: string) => string;
  indexed: boolean;
  norms: boolean;
  copyTo: string[];
}

interface IndexedField {
  tokens: Token[];
  frequencies: Map<string, number>;
  length: number;
  text: string;
}

interface StoredDoc {
  id: string;
  seq: number;
  source: Json;
  text: Map<string, IndexedField>;
  keywords: Map<string, string[]>;
  numbers: Map<string, number>;
}

interface FakeIndex {
  name: string;
  definition: Json;
  fields: Map<string, FieldMapping>;
  docs: Map<string, StoredDoc>;
  /** What search sees: the documents as of the last refresh. */
  visible: Map<string, StoredDoc>;
  aliases: Set<string>;
}

export type Fault = 'connection' | 'timeout' | { status: number; type?: string };

class EsError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    reason: string,
  ) {
    super(reason);
  }
}

const K1 = 1.2;
const B = 0.75;
const POSITION_GAP = 100;

const ASCII_EXTRA: Record<string, string> = { ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', đ: 'd', Đ: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'TH' };

function asciiFold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæÆøØœŒđĐłŁþÞ]/g, (character) => ASCII_EXTRA[character] ?? character);
}

const segmenter = new Intl.Segmenter('en', { granularity: 'word' });

function standardTokenizer(text: string): Token[] {
  const tokens: Token[] = [];
  for (const segment of segmenter.segment(text)) {
    if (segment.isWordLike !== true) continue;
    // Lucene's max_token_length: longer runs are split every 255 characters.
    for (let at = 0; at < segment.segment.length; at += 255) {
      const piece = segment.segment.slice(at, at + 255);
      tokens.push({ term: piece, start: segment.index + at, end: segment.index + at + piece.length, position: tokens.length });
    }
  }
  return tokens;
}

type TokenFilter = (tokens: Token[]) => Token[];

function builtInFilter(name: string): TokenFilter | undefined {
  if (name === 'lowercase') return (tokens) => tokens.map((token) => ({ ...token, term: token.term.toLowerCase() }));
  if (name === 'asciifolding') return (tokens) => tokens.map((token) => ({ ...token, term: asciiFold(token.term) }));
  if (name === 'trim') return (tokens) => tokens.map((token) => ({ ...token, term: token.term.trim() }));
  return undefined;
}

function customFilter(name: string, definition: Json): TokenFilter {
  const type = definition['type'];
  if (type === 'edge_ngram') {
    const min = Number(definition['min_gram'] ?? 1);
    const max = Number(definition['max_gram'] ?? 2);
    return (tokens) =>
      tokens.flatMap((token) => {
        const characters = Array.from(token.term);
        const grams: Token[] = [];
        for (let length = min; length <= Math.min(max, characters.length); length++) grams.push({ ...token, term: characters.slice(0, length).join('') });
        return grams;
      });
  }
  const builtIn = typeof type === 'string' ? builtInFilter(type) : undefined;
  if (builtIn !== undefined) return builtIn;
  throw new EsError(400, 'illegal_argument_exception', `failed to find or create token filter [${name}] of type [${String(type)}]`);
}

class Analysis {
  readonly #filters = new Map<string, TokenFilter>();
  readonly #charFilters = new Map<string, (text: string) => string>();
  readonly analyzers = new Map<string, Analyzer>();
  readonly normalizers = new Map<string, (value: string) => string>();

  constructor(settings: Json) {
    const analysis = ((settings['analysis'] ?? (settings['index'] as Json | undefined)?.['analysis'] ?? {}) as Json);
    for (const [name, definition] of Object.entries((analysis['filter'] ?? {}) as Record<string, Json>)) this.#filters.set(name, customFilter(name, definition));
    for (const [name, definition] of Object.entries((analysis['char_filter'] ?? {}) as Record<string, Json>)) {
      if (definition['type'] !== 'pattern_replace') throw new EsError(400, 'illegal_argument_exception', `unknown char_filter type [${String(definition['type'])}] for [${name}]`);
      const pattern = new RegExp(String(definition['pattern']), 'gu');
      const replacement = String(definition['replacement'] ?? '');
      this.#charFilters.set(name, (text) => text.replace(pattern, replacement));
    }
    this.analyzers.set('standard', (text) => this.#filter('lowercase')(standardTokenizer(text)));
    this.analyzers.set('keyword', (text) => [{ term: text, start: 0, end: text.length, position: 0 }]);
    for (const [name, definition] of Object.entries((analysis['analyzer'] ?? {}) as Record<string, Json>)) {
      if (definition['type'] !== 'custom') throw new EsError(400, 'illegal_argument_exception', `analyzer [${name}]: only custom analyzers are supported by the fake`);
      const tokenizer = definition['tokenizer'];
      const tokenize: Analyzer =
        tokenizer === 'standard'
          ? standardTokenizer
          : tokenizer === 'keyword'
            ? (text) => [{ term: text, start: 0, end: text.length, position: 0 }]
            : (() => {
                throw new EsError(400, 'illegal_argument_exception', `failed to find tokenizer under [${String(tokenizer)}]`);
              })();
      const charFilters = ((definition['char_filter'] ?? []) as string[]).map((filter) => {
        const found = this.#charFilters.get(filter);
        if (found === undefined) throw new EsError(400, 'illegal_argument_exception', `failed to find char_filter under [${filter}]`);
        return found;
      });
      const filters = ((definition['filter'] ?? []) as string[]).map((filter) => this.#filter(filter));
      this.analyzers.set(name, (text) => {
        const filtered = charFilters.reduce((value, filter) => filter(value), text);
        return filters.reduce((tokens, filter) => filter(tokens), tokenize(filtered)).filter((token) => token.term !== '');
      });
    }
    for (const [name, definition] of Object.entries((analysis['normalizer'] ?? {}) as Record<string, Json>)) {
      const filters = ((definition['filter'] ?? []) as string[]).map((filter) => this.#filter(filter));
      this.normalizers.set(name, (value) => filters.reduce((tokens, filter) => filter(tokens), [{ term: value, start: 0, end: value.length, position: 0 }])[0]?.term ?? '');
    }
  }

  #filter(name: string): TokenFilter {
    const found = this.#filters.get(name) ?? builtInFilter(name);
    if (found === undefined) throw new EsError(400, 'illegal_argument_exception', `failed to find token filter under [${name}]`);
    return found;
  }

  analyzer(name: unknown): Analyzer {
    const found = this.analyzers.get(typeof name === 'string' ? name : 'standard');
    if (found === undefined) throw new EsError(400, 'mapper_parsing_exception', `analyzer [${String(name)}] has not been configured in mappings`);
    return found;
  }
}

function mapFields(mappings: Json, analysis: Analysis): Map<string, FieldMapping> {
  const fields = new Map<string, FieldMapping>();
  const add = (path: string, definition: Json) => {
    const type = definition['type'];
    if (type !== 'text' && type !== 'keyword' && type !== 'float') {
      throw new EsError(400, 'mapper_parsing_exception', `No handler for type [${String(type)}] declared on field [${path}] (fake supports text, keyword, float)`);
    }
    const analyzer = analysis.analyzer(definition['analyzer']);
    const normalizerName = definition['normalizer'];
    const normalize = typeof normalizerName === 'string' ? analysis.normalizers.get(normalizerName) : (value: string) => value;
    if (normalize === undefined) throw new EsError(400, 'mapper_parsing_exception', `normalizer [${String(normalizerName)}] not found for field [${path}]`);
    fields.set(path, {
      type,
      analyzer,
      searchAnalyzer: definition['search_analyzer'] === undefined ? analyzer : analysis.analyzer(definition['search_analyzer']),
      normalize,
      indexed: definition['index'] !== false,
      norms: definition['norms'] !== false,
      copyTo: ((definition['copy_to'] ?? []) as string[]).concat(),
    });
    for (const [name, sub] of Object.entries((definition['fields'] ?? {}) as Record<string, Json>)) add(`${path}.${name}`, sub);
  };
  for (const [name, definition] of Object.entries((mappings['properties'] ?? {}) as Record<string, Json>)) add(name, definition);
  return fields;
}

/** Elasticsearch's index-name rules. */
function indexNameProblem(name: string): string | undefined {
  if (name === '' || name === '.' || name === '..') return 'must not be empty, . or ..';
  if (name !== name.toLowerCase()) return 'must be lowercase';
  if (/^[-_+]/.test(name)) return "must not start with '_', '-', or '+'";
  if (/[\\/*?"<>| ,#:]/.test(name)) return 'must not contain the following characters [\\, /, *, ?, ", <, >, |,  , ,, #, :]';
  if (Buffer.byteLength(name) > 255) return 'index name is too long';
  return undefined;
}

function htmlEncode(text: string): string {
  return text.replace(/["&<>'/]/g, (character) => ({ '"': '&quot;', '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#x27;', '/': '&#x2F;' })[character] ?? character);
}

/** Damerau–Levenshtein (optimal string alignment) distance, by code points. */
function editDistance(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  const rows = Array.from({ length: left.length + 1 }, (_, i) => Array.from({ length: right.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= left.length; i++) {
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      const row = rows[i] as number[];
      const previous = rows[i - 1] as number[];
      let value = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) value = Math.min(value, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = value;
    }
  }
  return (rows[left.length] as number[])[right.length] as number;
}

function fieldOf(spec: Json): [string, unknown] {
  const entries = Object.entries(spec).filter(([key]) => key !== 'boost' && key !== '_name');
  if (entries.length !== 1) throw new EsError(400, 'parsing_exception', 'query must name exactly one field');
  return entries[0] as [string, unknown];
}

/** Query terms per field, for highlighting. */
type TermsByField = Map<string, Set<string>>;

interface SearchContext {
  index: FakeIndex;
  stats: Map<string, { docCount: number; totalLength: number; docFrequency: Map<string, number> }>;
}

function fieldStats(context: SearchContext, field: string) {
  let stats = context.stats.get(field);
  if (stats === undefined) {
    stats = { docCount: 0, totalLength: 0, docFrequency: new Map<string, number>() };
    for (const doc of context.index.visible.values()) {
      const indexed = doc.text.get(field);
      if (indexed === undefined) continue;
      stats.docCount++;
      stats.totalLength += indexed.length;
      for (const term of indexed.frequencies.keys()) stats.docFrequency.set(term, (stats.docFrequency.get(term) ?? 0) + 1);
    }
    context.stats.set(field, stats);
  }
  return stats;
}

function bm25(context: SearchContext, field: string, term: string, doc: StoredDoc): number {
  const indexed = doc.text.get(field);
  const frequency = indexed?.frequencies.get(term) ?? 0;
  if (indexed === undefined || frequency === 0) return 0;
  const stats = fieldStats(context, field);
  const documentFrequency = stats.docFrequency.get(term) ?? 0;
  const idf = Math.log(1 + (stats.docCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
  const averageLength = stats.totalLength / Math.max(1, stats.docCount);
  const mapping = context.index.fields.get(field);
  const lengthRatio = mapping?.norms === false ? 1 : indexed.length / averageLength;
  return (idf * frequency) / (frequency + K1 * (1 - B + B * lengthRatio));
}

function parseFieldBoost(spec: string): [string, number] {
  const [field, boost] = spec.split('^');
  return [field ?? spec, boost === undefined ? 1 : Number(boost)];
}

function textMapping(context: SearchContext, field: string): FieldMapping {
  const mapping = context.index.fields.get(field);
  if (mapping === undefined) throw new EsError(400, 'query_shard_exception', `no mapping found for field [${field}]`);
  return mapping;
}

const QUERY_KINDS = new Set(['match_all', 'match_none', 'bool', 'multi_match', 'match', 'match_phrase', 'terms', 'term', 'prefix', 'function_score']);

/** Refuses an unknown query anywhere in the tree, as Elasticsearch's parser does before it looks at any document. */
function checkQuery(query: Json): void {
  const [kind, raw] = Object.entries(query)[0] ?? [];
  if (kind === undefined || !QUERY_KINDS.has(kind)) throw new EsError(400, 'parsing_exception', `unknown query [${String(kind)}]`);
  const spec = (raw ?? {}) as Json;
  if (kind === 'function_score' && spec['query'] !== undefined) checkQuery(spec['query'] as Json);
  if (kind === 'bool') {
    for (const key of ['must', 'filter', 'should', 'must_not']) {
      const value = spec[key];
      if (value !== undefined) for (const clause of (Array.isArray(value) ? value : [value]) as Json[]) checkQuery(clause);
    }
  }
}

/** The score of `doc` under `query`, or undefined when it does not match. */
function evaluate(query: Json, doc: StoredDoc, context: SearchContext, highlightTerms?: TermsByField): number | undefined {
  const [kind, raw] = Object.entries(query)[0] ?? [];
  const spec = (raw ?? {}) as Json;
  const boost = typeof spec['boost'] === 'number' ? spec['boost'] : 1;
  const remember = (field: string, terms: Iterable<string>) => {
    if (highlightTerms === undefined) return;
    const set = highlightTerms.get(field) ?? new Set<string>();
    for (const term of terms) set.add(term);
    highlightTerms.set(field, set);
  };
  switch (kind) {
    case 'match_all':
      return boost;
    case 'match_none':
      return undefined;
    case 'bool': {
      const list = (key: string) => {
        const value = spec[key];
        return value === undefined ? [] : ((Array.isArray(value) ? value : [value]) as Json[]);
      };
      const must = list('must');
      const filter = list('filter');
      const should = list('should');
      let score = 0;
      for (const clause of must) {
        const value = evaluate(clause, doc, context, highlightTerms);
        if (value === undefined) return undefined;
        score += value;
      }
      for (const clause of filter) if (evaluate(clause, doc, context) === undefined) return undefined;
      for (const clause of list('must_not')) if (evaluate(clause, doc, context) !== undefined) return undefined;
      let matchedShould = 0;
      for (const clause of should) {
        const value = evaluate(clause, doc, context, highlightTerms);
        if (value !== undefined) {
          matchedShould++;
          score += value;
        }
      }
      const minimum = spec['minimum_should_match'] !== undefined ? Number(spec['minimum_should_match']) : must.length + filter.length === 0 && should.length > 0 ? 1 : 0;
      if (matchedShould < minimum) return undefined;
      return score * boost;
    }
    case 'multi_match': {
      if (spec['type'] !== 'cross_fields') throw new EsError(400, 'parsing_exception', `multi_match type [${String(spec['type'])}] is not supported by the fake`);
      const fields = ((spec['fields'] ?? []) as string[]).map(parseFieldBoost);
      const [firstField] = fields[0] ?? [''];
      const terms = [...new Set(textMapping(context, firstField).searchAnalyzer(String(spec['query'] ?? '')).map((token) => token.term))];
      if (terms.length === 0) return undefined;
      let score = 0;
      let matched = 0;
      for (const term of terms) {
        const best = Math.max(0, ...fields.map(([field, fieldBoost]) => bm25(context, field, term, doc) * fieldBoost));
        if (best > 0) matched++;
        score += best;
      }
      for (const [field] of fields) remember(field, terms);
      if (spec['operator'] === 'and' ? matched < terms.length : matched === 0) return undefined;
      return score * boost;
    }
    case 'match': {
      const [field, value] = fieldOf(spec);
      const options = (typeof value === 'object' && value !== null ? value : { query: value }) as Json;
      const terms = [...new Set(textMapping(context, field).searchAnalyzer(String(options['query'] ?? '')).map((token) => token.term))];
      if (terms.length === 0) return undefined;
      const scores = terms.map((term) => bm25(context, field, term, doc));
      const matched = scores.filter((score) => score > 0).length;
      remember(field, terms);
      if (options['operator'] === 'and' ? matched < terms.length : matched === 0) return undefined;
      return scores.reduce((sum, score) => sum + score, 0) * (typeof options['boost'] === 'number' ? options['boost'] : 1);
    }
    case 'match_phrase': {
      const [field, value] = fieldOf(spec);
      const options = (typeof value === 'object' && value !== null ? value : { query: value }) as Json;
      const tokens = textMapping(context, field).searchAnalyzer(String(options['query'] ?? ''));
      if (tokens.length === 0) return undefined;
      const indexed = doc.text.get(field);
      if (indexed === undefined) return undefined;
      const at = new Map<number, string>(indexed.tokens.map((token) => [token.position, token.term]));
      const first = tokens[0] as Token;
      const inRow = indexed.tokens.some(
        (start) => start.term === first.term && tokens.every((token) => at.get(start.position + token.position - first.position) === token.term),
      );
      if (!inRow) return undefined;
      remember(field, tokens.map((token) => token.term));
      const score = tokens.reduce((sum, token) => sum + bm25(context, field, token.term, doc), 0);
      return score * (typeof options['boost'] === 'number' ? options['boost'] : 1);
    }
    case 'terms':
    case 'term':
    case 'prefix': {
      const [field, value] = fieldOf(spec);
      const mapping = context.index.fields.get(field);
      if (mapping === undefined) return undefined;
      if (kind === 'prefix' && mapping.type === 'text') {
        // On a text field a prefix query matches indexed terms, with a constant score, as Elasticsearch's does.
        const target = String(typeof value === 'object' && value !== null ? (value as Json)['value'] : value);
        const terms = [...(doc.text.get(field)?.frequencies.keys() ?? [])].filter((term) => term.startsWith(target));
        const options = (typeof value === 'object' && value !== null ? value : {}) as Json;
        remember(field, terms);
        return terms.length > 0 ? (typeof options['boost'] === 'number' ? options['boost'] : 1) : undefined;
      }
      if (mapping.type !== 'keyword') throw new EsError(400, 'query_shard_exception', `the fake supports ${kind} queries on keyword fields only, not [${field}]`);
      const values = kind === 'terms' ? (value as unknown[]) : [typeof value === 'object' && value !== null ? (value as Json)['value'] : value];
      const wanted = values.map((item) => mapping.normalize(String(item)));
      const stored = doc.keywords.get(field) ?? [];
      const hit = stored.some((item) => wanted.some((target) => (kind === 'prefix' ? item.startsWith(target) : item === target)));
      const fieldBoost = kind !== 'terms' && typeof value === 'object' && value !== null && typeof (value as Json)['boost'] === 'number' ? ((value as Json)['boost'] as number) : boost;
      return hit ? fieldBoost : undefined;
    }
    case 'function_score': {
      const inner = evaluate((spec['query'] ?? { match_all: {} }) as Json, doc, context, highlightTerms);
      if (inner === undefined) return undefined;
      const values = ((spec['functions'] ?? []) as Json[]).map((fn) => {
        const factor = fn['field_value_factor'] as Json | undefined;
        if (factor === undefined || (factor['modifier'] ?? 'none') !== 'none') {
          throw new EsError(400, 'parsing_exception', 'the fake supports field_value_factor functions without modifier only');
        }
        const number = doc.numbers.get(String(factor['field'])) ?? (factor['missing'] as number | undefined);
        if (number === undefined) throw new EsError(400, 'illegal_argument_exception', `Missing value for field [${String(factor['field'])}]`);
        return number * Number(factor['factor'] ?? 1);
      });
      const combined = spec['score_mode'] === 'sum' ? values.reduce((a, b) => a + b, 0) : values.reduce((a, b) => a * b, 1);
      const mode = spec['boost_mode'] ?? 'multiply';
      if (mode === 'sum') return inner + combined;
      if (mode === 'replace') return combined;
      if (mode === 'multiply') return inner * combined;
      throw new EsError(400, 'parsing_exception', `boost_mode [${String(mode)}] is not supported by the fake`);
    }
    default:
      throw new EsError(400, 'parsing_exception', `unknown query [${String(kind)}]`);
  }
}

function highlightField(text: string, tokens: Token[], terms: Set<string>, options: Json, defaults: Json): string[] {
  const encode = (options['encoder'] ?? defaults['encoder']) === 'html' ? htmlEncode : (value: string) => value;
  const pre = (((options['pre_tags'] ?? defaults['pre_tags']) as string[] | undefined) ?? ['<em>'])[0] ?? '<em>';
  const post = (((options['post_tags'] ?? defaults['post_tags']) as string[] | undefined) ?? ['</em>'])[0] ?? '</em>';
  const matches = tokens.filter((token) => terms.has(token.term)).sort((a, b) => a.start - b.start);
  if (matches.length === 0) return [];
  const render = (start: number, end: number) => {
    let out = '';
    let at = start;
    for (const match of matches) {
      if (match.start < at || match.end > end) continue;
      out += encode(text.slice(at, match.start)) + pre + encode(text.slice(match.start, match.end)) + post;
      at = match.end;
    }
    return out + encode(text.slice(at, end));
  };
  const count = Number(options['number_of_fragments'] ?? defaults['number_of_fragments'] ?? 5);
  if (count === 0) return [render(0, text.length)];
  const size = Number(options['fragment_size'] ?? defaults['fragment_size'] ?? 100);
  const fragments: { start: number; end: number; hits: number }[] = [];
  for (const match of matches) {
    const last = fragments.at(-1);
    if (last !== undefined && match.end <= last.end) {
      last.hits++;
      continue;
    }
    let start = Math.max(0, match.start - Math.floor((size - (match.end - match.start)) / 2));
    while (start > 0 && !/\s/.test(text[start - 1] ?? '')) start--;
    let end = Math.min(text.length, Math.max(match.end, start + size));
    while (end < text.length && !/\s/.test(text[end] ?? '')) end++;
    fragments.push({ start, end, hits: 1 });
  }
  const chosen = [...fragments].sort((a, b) => b.hits - a.hits || a.start - b.start).slice(0, count).sort((a, b) => a.start - b.start);
  return chosen.map((fragment) => render(fragment.start, fragment.end).trim());
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
        const doc = this.#analyse(index, id, source ?? {});
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

  #analyse(index: FakeIndex, id: string, source: Json): StoredDoc {
    if (id === '' || Buffer.byteLength(id) > 512) throw new EsError(400, 'illegal_argument_exception', 'id must be 1 to 512 bytes');
    const doc: StoredDoc = { id, seq: ++this.#seq, source, text: new Map(), keywords: new Map(), numbers: new Map() };
    const texts = new Map<string, string[]>();
    const dynamic = ((index.definition['mappings'] ?? {}) as Json)['dynamic'];
    for (const [field, value] of Object.entries(source)) {
      const mapping = index.fields.get(field);
      if (mapping === undefined) {
        if (dynamic === 'strict') throw new EsError(400, 'strict_dynamic_mapping_exception', `[1:1] mapping set to strict, dynamic introduction of [${field}] within [_doc] is not allowed`);
        continue;
      }
      if (value === null) continue;
      if (mapping.type === 'float') {
        const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
        if (!Number.isFinite(number)) throw new EsError(400, 'document_parsing_exception', `failed to parse field [${field}] of type [float]`);
        doc.numbers.set(field, Math.fround(number));
        continue;
      }
      if (typeof value === 'object') throw new EsError(400, 'document_parsing_exception', `failed to parse field [${field}] of type [${mapping.type}]`);
      for (const target of [field, ...[...index.fields.keys()].filter((key) => key.startsWith(`${field}.`)), ...mapping.copyTo]) {
        texts.set(target, [...(texts.get(target) ?? []), String(value)]);
      }
    }
    for (const [field, values] of texts) {
      const mapping = index.fields.get(field) as FieldMapping;
      if (!mapping.indexed) continue;
      if (mapping.type === 'keyword') {
        doc.keywords.set(field, values.map((value) => mapping.normalize(value)));
        continue;
      }
      const tokens: Token[] = [];
      let position = 0;
      for (const value of values) {
        const analysed = mapping.analyzer(value);
        for (const token of analysed) tokens.push({ ...token, position: position + token.position });
        position += (analysed.at(-1)?.position ?? 0) + POSITION_GAP;
      }
      const frequencies = new Map<string, number>();
      for (const token of tokens) frequencies.set(token.term, (frequencies.get(token.term) ?? 0) + 1);
      doc.text.set(field, { tokens, frequencies, length: tokens.length, text: values.join(' ') });
    }
    return doc;
  }

  #matches(name: string, query: Json | undefined, highlight?: Map<string, TermsByField>): { doc: StoredDoc; score: number; index: FakeIndex }[] {
    const results: { doc: StoredDoc; score: number; index: FakeIndex }[] = [];
    if (query !== undefined) checkQuery(query);
    for (const index of this.#resolve(name)) {
      const context: SearchContext = { index, stats: new Map() };
      for (const doc of index.visible.values()) {
        const terms: TermsByField = new Map();
        const score = evaluate(query ?? { match_all: {} }, doc, context, terms);
        if (score === undefined) continue;
        results.push({ doc, score, index });
        highlight?.set(`${index.name}\u0000${doc.id}`, terms);
      }
    }
    return results;
  }

  #count(name: string, body: Json): Json {
    return { count: this.#matches(name, body['query'] as Json | undefined).length, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } };
  }

  #search(name: string, body: Json): Json {
    const highlightTerms = new Map<string, TermsByField>();
    const matches = this.#matches(name, body['query'] as Json | undefined, highlightTerms);
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
      const hit: Json = { _index: match.index.name, _id: match.doc.id, _score: withScores ? match.score : null, _source: source };
      if (!sortedByScore) hit['sort'] = keys.map((key) => value(match, key.field));
      if (highlight !== undefined) {
        const terms = highlightTerms.get(`${match.index.name}\u0000${match.doc.id}`) ?? new Map<string, Set<string>>();
        const fields: Json = {};
        for (const [field, options] of Object.entries((highlight['fields'] ?? {}) as Record<string, Json>)) {
          const indexed = match.doc.text.get(field);
          const wanted = terms.get(field);
          if (indexed === undefined || wanted === undefined) continue;
          const fragments = highlightField(indexed.text, indexed.tokens, wanted, options, highlight);
          if (fragments.length > 0) fields[field] = fragments;
        }
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
    const suggest = body['suggest'] as Record<string, Json> | undefined;
    if (suggest !== undefined) response['suggest'] = Object.fromEntries(Object.entries(suggest).map(([key, spec]) => [key, this.#termSuggest(name, spec)]));
    return response;
  }

  #termSuggest(name: string, spec: Json): Json[] {
    const term = spec['term'] as Json | undefined;
    if (term === undefined) throw new EsError(400, 'parsing_exception', 'the fake supports the term suggester only');
    const field = String(term['field']);
    const [index] = this.#resolve(name) as [FakeIndex];
    const mapping = index.fields.get(field);
    if (mapping === undefined) return [];
    const vocabulary = new Map<string, number>();
    for (const doc of index.visible.values()) for (const word of doc.text.get(field)?.frequencies.keys() ?? []) vocabulary.set(word, (vocabulary.get(word) ?? 0) + 1);
    const maxEdits = Number(term['max_edits'] ?? 2);
    const prefixLength = Number(term['prefix_length'] ?? 1);
    const minWordLength = Number(term['min_word_length'] ?? 4);
    const size = Number(term['size'] ?? 5);
    const mode = term['suggest_mode'] ?? 'missing';
    return mapping.searchAnalyzer(String(spec['text'] ?? '')).map((token) => {
      const characters = Array.from(token.term);
      const entry = { text: token.term, offset: token.start, length: token.end - token.start, options: [] as Json[] };
      if (characters.length < minWordLength || (mode === 'missing' && vocabulary.has(token.term))) return entry;
      const prefix = characters.slice(0, prefixLength).join('');
      const options: { text: string; score: number; freq: number }[] = [];
      for (const [candidate, frequency] of vocabulary) {
        if (candidate === token.term || !candidate.startsWith(prefix)) continue;
        const edits = editDistance(token.term, candidate);
        if (edits > maxEdits) continue;
        const score = 1 - edits / Math.min(characters.length, Array.from(candidate).length);
        if (score < 0.5) continue;
        options.push({ text: candidate, score, freq: frequency });
      }
      entry.options = options.sort((a, b) => b.score - a.score || b.freq - a.freq || (a.text < b.text ? -1 : 1)).slice(0, size);
      return entry;
    });
  }
}

function segment(path: string, position: number): string {
  return decodeURIComponent(path.split('/').filter((part) => part !== '')[position] ?? '');
}

function responseError(status: number, type: string, reason: string): ClientErrors.ResponseError {
  const body = { error: { type, reason, root_cause: [{ type, reason }] }, status };
  return new errors.ResponseError({ body, statusCode: status, headers: {}, warnings: null, meta: {} } as unknown as ConstructorParameters<typeof errors.ResponseError>[0]);
}
