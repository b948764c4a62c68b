import { fuzzyExpansions } from './spelling.js';
import { EsError } from './types.js';
import type { FakeIndex, FieldMapping, Json, StoredDoc, Token } from './types.js';

const K1 = 1.2;
const B = 0.75;

function fieldOf(spec: Json): [string, unknown] {
  const entries = Object.entries(spec).filter(([key]) => key !== 'boost' && key !== '_name');
  if (entries.length !== 1) throw new EsError(400, 'parsing_exception', 'query must name exactly one field');
  return entries[0] as [string, unknown];
}

/** Query terms per field, for highlighting. */
export type TermsByField = Map<string, Set<string>>;

export interface SearchContext {
  index: FakeIndex;
  stats: Map<string, { docCount: number; totalLength: number; docFrequency: Map<string, number> }>;
  /** The expansions of each fuzzy clause's term, by field, term and options (see fuzzyExpansions). */
  expansions: Map<string, ReturnType<typeof fuzzyExpansions>>;
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

/** BM25 of a term in a field of a document; `documents` stands for the term's own document count when given. */
function bm25(context: SearchContext, field: string, term: string, doc: StoredDoc, documents?: number): number {
  const indexed = doc.text.get(field);
  const frequency = indexed?.frequencies.get(term) ?? 0;
  if (indexed === undefined || frequency === 0) return 0;
  const stats = fieldStats(context, field);
  const documentFrequency = documents ?? stats.docFrequency.get(term) ?? 0;
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

const QUERY_KINDS = new Set(['match_all', 'match_none', 'bool', 'constant_score', 'multi_match', 'match', 'match_phrase', 'terms', 'term', 'prefix', 'function_score']);

/** Refuses an unknown query anywhere in the tree, as Elasticsearch's parser does before it looks at any document. */
export function checkQuery(query: Json): void {
  const [kind, raw] = Object.entries(query)[0] ?? [];
  if (kind === undefined || !QUERY_KINDS.has(kind)) throw new EsError(400, 'parsing_exception', `unknown query [${String(kind)}]`);
  const spec = (raw ?? {}) as Json;
  if (kind === 'function_score' && spec['query'] !== undefined) checkQuery(spec['query'] as Json);
  if (kind === 'constant_score') checkQuery((spec['filter'] ?? {}) as Json);
  if (kind === 'bool') {
    for (const key of ['must', 'filter', 'should', 'must_not']) {
      const value = spec[key];
      if (value !== undefined) for (const clause of (Array.isArray(value) ? value : [value]) as Json[]) checkQuery(clause);
    }
  }
}

/** The expansions of a fuzzy clause's term in a field, once per search (see fuzzyExpansions). */
function fuzzyTerms(context: SearchContext, field: string, term: string, spec: Json): ReturnType<typeof fuzzyExpansions> {
  const key = JSON.stringify([field, term, spec['fuzziness'], spec['prefix_length'], spec['max_expansions']]);
  let expansions = context.expansions.get(key);
  if (expansions === undefined) {
    expansions = fuzzyExpansions(term, spec, fieldStats(context, field).docFrequency);
    context.expansions.set(key, expansions);
  }
  return expansions;
}

/** The score of `doc` under `query`, or undefined when it does not match. */
export function evaluate(query: Json, doc: StoredDoc, context: SearchContext, highlightTerms?: TermsByField): number | undefined {
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
      const type = spec['type'] ?? 'best_fields';
      if (type === 'phrase') {
        // The best field's match_phrase score.
        const fields = ((spec['fields'] ?? []) as string[]).map(parseFieldBoost);
        const scores = fields.flatMap(([field, fieldBoost]) => {
          const score = evaluate({ match_phrase: { [field]: { query: spec['query'] } } }, doc, context, highlightTerms);
          return score === undefined ? [] : [score * fieldBoost];
        });
        return scores.length === 0 ? undefined : Math.max(...scores) * boost;
      }
      if (type !== 'cross_fields' && type !== 'best_fields') throw new EsError(400, 'parsing_exception', `multi_match type [${String(type)}] is not supported by the fake`);
      if (type === 'cross_fields' && spec['fuzziness'] !== undefined) throw new EsError(400, 'parsing_exception', 'Fuzziness not allowed for type [cross_fields]');
      const fields = ((spec['fields'] ?? []) as string[]).map(parseFieldBoost);
      const [firstField] = fields[0] ?? [''];
      const terms = [...new Set(textMapping(context, firstField).searchAnalyzer(String(spec['query'] ?? '')).map((token) => token.term))];
      if (terms.length === 0) return undefined;
      if (type === 'best_fields') {
        // The best field's score; a fuzzy term scores each of its expansions the document holds.
        let best: number | undefined;
        for (const [field, fieldBoost] of fields) {
          const matchedTerms: string[] = [];
          const scores = terms.map((term) => {
            const expansions = spec['fuzziness'] === undefined ? [{ term, boost: 1, documents: undefined }] : fuzzyTerms(context, field, term, spec);
            const held = expansions.filter((expansion) => doc.text.get(field)?.frequencies.has(expansion.term) === true);
            matchedTerms.push(...held.map((expansion) => expansion.term));
            return held.reduce((sum, expansion) => sum + bm25(context, field, expansion.term, doc, expansion.documents) * expansion.boost, 0);
          });
          const matched = scores.filter((score) => score > 0).length;
          if (spec['operator'] === 'and' ? matched < terms.length : matched === 0) continue;
          remember(field, matchedTerms);
          best = Math.max(best ?? 0, scores.reduce((sum, score) => sum + score, 0) * fieldBoost);
        }
        return best === undefined ? undefined : best * boost;
      }
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
      if (kind === 'term' && mapping.type === 'text') {
        // On a text field a term query looks the indexed term up as given, unanalysed, scored by BM25.
        const options = (typeof value === 'object' && value !== null ? value : { value }) as Json;
        const term = String(options['value']);
        const score = bm25(context, field, term, doc);
        remember(field, [term]);
        return score > 0 ? score * (typeof options['boost'] === 'number' ? options['boost'] : 1) : undefined;
      }
      if (kind === 'terms' && mapping.type === 'text') {
        // On a text field a terms query looks the indexed terms up as given, unanalysed, with a constant score.
        const wanted = (value as unknown[]).map(String);
        const held = wanted.filter((term) => doc.text.get(field)?.frequencies.has(term) === true);
        remember(field, held);
        return held.length > 0 ? boost : undefined;
      }
      if (mapping.type !== 'keyword') throw new EsError(400, 'query_shard_exception', `the fake supports ${kind} queries on keyword fields only, not [${field}]`);
      const values = kind === 'terms' ? (value as unknown[]) : [typeof value === 'object' && value !== null ? (value as Json)['value'] : value];
      const wanted = values.map((item) => mapping.normalize(String(item)));
      const stored = doc.keywords.get(field) ?? [];
      const hit = stored.some((item) => wanted.some((target) => (kind === 'prefix' ? item.startsWith(target) : item === target)));
      const fieldBoost = kind !== 'terms' && typeof value === 'object' && value !== null && typeof (value as Json)['boost'] === 'number' ? ((value as Json)['boost'] as number) : boost;
      return hit ? fieldBoost : undefined;
    }
    case 'constant_score':
      // Its filter matches without scoring, as a bool filter does; the match scores the boost alone.
      return evaluate(spec['filter'] as Json, doc, context) === undefined ? undefined : boost;
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

