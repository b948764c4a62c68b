import { checkQuery, evaluate, type SearchContext } from './query.js';
import { EsError } from './types.js';
import type { Json, StoredDoc } from './types.js';

/** A document with the context of its index, which its filters are evaluated in. */
export interface ScopedDoc {
  doc: StoredDoc;
  context: SearchContext;
}

/**
 * A search's `aggs` in Elasticsearch's answer shape: `global` (top level only, as in Elasticsearch: every document of
 * the indices searched, whatever the query matches), `filter` and `filters` (keyed by name, or a list), each with
 * sub-aggregations. Any other kind is refused with 400. `matched` are the documents the query matched; `all` every
 * document searched.
 */
export function aggregate(specs: Json, matched: readonly ScopedDoc[], all: readonly ScopedDoc[], topLevel = true): Json {
  return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, aggregation(name, (spec ?? {}) as Json, matched, all, topLevel)]));
}

function aggregation(name: string, spec: Json, scope: readonly ScopedDoc[], all: readonly ScopedDoc[], topLevel: boolean): Json {
  const sub = (spec['aggs'] ?? spec['aggregations']) as Json | undefined;
  const kinds = Object.keys(spec).filter((key) => key !== 'aggs' && key !== 'aggregations' && key !== 'meta');
  if (kinds.length !== 1) throw new EsError(400, 'parsing_exception', `aggregation [${name}] must name exactly one type`);
  const kind = kinds[0] as string;
  const body = (spec[kind] ?? {}) as Json;
  const bucket = (docs: readonly ScopedDoc[]): Json => ({ doc_count: docs.length, ...(sub === undefined ? {} : aggregate(sub, docs, all, false)) });
  const matching = (filter: Json) => {
    checkQuery(filter);
    return scope.filter(({ doc, context }) => evaluate(filter, doc, context) !== undefined);
  };
  switch (kind) {
    case 'global':
      if (!topLevel) throw new EsError(400, 'aggregation_execution_exception', `Aggregation [${name}]: global aggregations can only be defined as top level aggregations`);
      return bucket(all);
    case 'filter':
      return bucket(matching(body));
    case 'filters': {
      const filters = body['filters'];
      if (Array.isArray(filters)) return { buckets: (filters as Json[]).map((filter) => bucket(matching(filter))) };
      return { buckets: Object.fromEntries(Object.entries((filters ?? {}) as Record<string, Json>).map(([key, filter]) => [key, bucket(matching(filter))])) };
    }
    default:
      throw new EsError(400, 'parsing_exception', `the fake does not support aggregation type [${kind}] of [${name}]`);
  }
}
