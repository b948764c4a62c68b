import type Database from 'better-sqlite3';
import { BOUND_LIMIT } from '../../../sqlite-limit.js';
import { FILED_PREFIX_LENGTH, PrefixPlace, localePartition, partitionOf, popularityOf, type RowidRange } from './static-rank.js';
import { rowidRanges } from './partitions.js';
import { partitionTablesOf, quoteIdentifier, tablesOf, type PartitionTables } from './tables.js';
import type { AutocompleteMatch, QueryFilter } from '../types.js';
import type { Connection } from './connection.js';
import { mergeWalks, type RankedRow } from './retrieval-plan.js';

/** The SQL of reads: the filters, ranked walks of the rowid ranges (see rowidRanges), counts, and autocomplete. */

/** The documents filter of a query: SQL on the documents row `d`, its parameters, and its shape (which SQL, for the statement cache). */
export interface DocFilter {
  shape: string;
  sql: string;
  parameters: unknown[];
}

/**
 * Locale and slug-prefix filters (case-insensitive), written for what the query holds: a lone locale or prefix is a
 * plain comparison, since a json_each list costs a temporary table per statement run.
 */
export function docFilter(locales: readonly string[] | undefined, slugPrefixes?: readonly string[]): DocFilter {
  const parts: string[] = [];
  const parameters: unknown[] = [];
  let shape = '';
  const localeKeys = [...new Set((locales ?? []).map((locale) => locale.toLowerCase()))];
  if (localeKeys.length === 1) {
    parts.push('d.locale_key = ?');
    parameters.push(localeKeys[0]);
    shape += 'l';
  } else if (localeKeys.length > 1) {
    parts.push('d.locale_key IN (SELECT value FROM json_each(?))');
    parameters.push(JSON.stringify(localeKeys));
    shape += 'L';
  }
  const prefixes = [...new Set((slugPrefixes ?? []).map((prefix) => prefix.toLowerCase()))];
  if (prefixes.length === 1) {
    parts.push('substr(d.slug_key, 1, ?) = ?');
    parameters.push(Array.from(prefixes[0] as string).length, prefixes[0]);
    shape += 's';
  } else if (prefixes.length > 1) {
    parts.push('EXISTS (SELECT 1 FROM json_each(?) p WHERE substr(d.slug_key, 1, length(p.value)) = p.value)');
    parameters.push(JSON.stringify(prefixes));
    shape += 'S';
  }
  return { shape, sql: parts.length === 0 ? '1' : parts.join(' AND '), parameters };
}

export const NO_FILTER: DocFilter = { shape: '', sql: '1', parameters: [] };

/**
 * The MATCH of `table` (the index's FTS table by default) and the filters on its documents row `d`. Queries join
 * `CROSS JOIN` so the FTS walk drives: left to itself, the planner may satisfy `ORDER BY rowid` by scanning the
 * documents table in rowid order and probing FTS5 once per document, which reads the whole index.
 */
export function filterSql(table: string, filter: DocFilter): string {
  return `${table} MATCH ? AND ${filter.sql} AND ${table}.rowid >= CAST(? AS INTEGER) AND ${table}.rowid <= CAST(? AS INTEGER)`;
}

/** The full-text tables of the partition a rowid range covers (see rowidRanges). */
export function rangeTables(index: string, range: RowidRange): PartitionTables {
  return partitionTablesOf(index, partitionOf(range[0]));
}

/**
 * Reads the candidates a statement selects as rowid, popularity and score, in that order (or rowid and score, with
 * `popularity: 'rowid'`: each candidate's popularity is then its rowid's, see popularityOf). Rows are read raw, as
 * arrays: better-sqlite3 builds an object per row property by property.
 */
export function rankedRead(connection: Connection, key: string, sql: () => string, popularity: 'selected' | 'rowid' = 'selected'): (parameters: readonly unknown[]) => RankedRow[] {
  const statement = connection.statement(key, sql).raw();
  const rowOf = popularity === 'selected'
    ? ([rowid, rowPopularity, score]: number[]): RankedRow => ({ rowid: rowid as number, popularity: rowPopularity as number, score: score as number })
    : ([rowid, score]: number[]): RankedRow => ({ rowid: rowid as number, popularity: popularityOf(rowid as number), score: score as number });
  return (parameters) => (statement.all(...parameters) as number[][]).map(rowOf);
}

/** Matches of the expression within the filters, counted up to `cap`. */
export function countIn(connection: Connection, index: string, expression: string, query: QueryFilter, cap = Number.MAX_SAFE_INTEGER): number {
  const tables = tablesOf(index);
  const filter = docFilter(query.locales, query.slugPrefixes);
  let total = 0;
  for (const range of rowidRanges(connection, index, query.locales)) {
    if (total >= cap) break;
    const [low, high] = range;
    const { fts } = rangeTables(index, range);
    const partition = partitionOf(low);
    total += (filterNeeded(connection, index, query, range)
      ? connection.statement(`${index}\u0000count\u0000${filter.shape}\u0000${partition}`, () =>
          `SELECT count(*) FROM (
             SELECT 1 FROM ${fts} CROSS JOIN ${tables.docs} d ON d.rowid = ${fts}.rowid WHERE ${filterSql(fts, filter)} ${BOUND_LIMIT}
           )`,
        ).pluck().get(expression, ...filter.parameters, low, high, cap - total)
      : connection.statement(`${index}\u0000count-range\u0000${partition}`, () =>
          `SELECT count(*) FROM (SELECT 1 FROM ${fts} WHERE ${filterSql(fts, NO_FILTER)} ${BOUND_LIMIT})`,
        ).pluck().get(expression, low, high, cap - total)) as number;
  }
  return total;
}

export function matchesAny(connection: Connection, index: string, expression: string, query: Omit<QueryFilter, 'text'>): boolean {
  const tables = tablesOf(index);
  const filter = docFilter(query.locales, query.slugPrefixes);
  return rowidRanges(connection, index, query.locales).some((range) => {
    const { fts } = rangeTables(index, range);
    const partition = partitionOf(range[0]);
    const found = filterNeeded(connection, index, query, range)
      ? connection.statement(`${index}\u0000exists\u0000${filter.shape}\u0000${partition}`, () =>
          `SELECT 1 FROM ${fts} CROSS JOIN ${tables.docs} d ON d.rowid = ${fts}.rowid WHERE ${filterSql(fts, filter)} LIMIT 1`,
        ).get(expression, ...filter.parameters, ...range)
      : connection.statement(`${index}\u0000exists-range\u0000${partition}`, () => `SELECT 1 FROM ${fts} WHERE ${filterSql(fts, NO_FILTER)} LIMIT 1`).get(expression, ...range);
    return found !== undefined;
  });
}

/**
 * Whether a walk of `range` must still check the documents filter: not when the query has no filter, nor when the
 * range is the partition of one of its locales and holds that locale only (no other locale of the index hashes
 * there). Counting then reads FTS5 alone, without a documents row per match.
 */
export function filterNeeded(connection: Connection, index: string, query: Omit<QueryFilter, 'text'>, range: RowidRange): boolean {
  if ((query.slugPrefixes?.length ?? 0) > 0) return true;
  if (query.locales === undefined || query.locales.length === 0) return false;
  const partition = partitionOf(range[0]);
  const here = [...new Set(query.locales.map((locale) => locale.toLowerCase()))].filter((locale) => localePartition(locale) === partition);
  return here.length !== 1 || !holdsOnly(connection, index, range, here[0] as string);
}

/** Whether every document of `range` has locale `localeKey`; remembered until the database changes. */
export function holdsOnly(connection: Connection, index: string, range: RowidRange, localeKey: string): boolean {
  return connection.remembered(`${index}\u0000only\u0000${range[0]}\u0000${localeKey}`, () =>
    connection.statement(`${index}\u0000other-locale`, () =>
      `SELECT 1 FROM ${tablesOf(index).docs} WHERE rowid >= ? AND rowid <= ? AND locale_key <> ? LIMIT 1`,
    ).get(range[0], range[1], localeKey) === undefined,
  );
}

/**
 * Titles a typed prefix begins at any word of (see policy/autocomplete.ts): those it begins first, then the rest,
 * each most popular first. Prefixes of up to FILED_PREFIX_LENGTH characters are read from the prefix table in rowid
 * (static rank) order, stopping at `size` matches whatever the number of titles sharing a short prefix; longer
 * prefixes, shared by few titles, are a range of the title key index (at the title's start) and of the filed rests of
 * titles (at a later word).
 */
export function autocompleteIn(connection: Connection, index: string, prefix: string, size: number, locales: readonly string[] | undefined): AutocompleteMatch[] {
  const tables = tablesOf(index);
  const filter = docFilter(locales);
  const ranges = rowidRanges(connection, index, locales);
  const filed = Array.from(prefix).length <= FILED_PREFIX_LENGTH;
  const walk = (place: PrefixPlace, limit: number): number[] => {
    const walks = ranges.map((range) => {
      if (!filed) return rangeWalk(connection, index, place, filter).all(prefix, `${prefix}\u{10FFFF}`, ...filter.parameters, ...range, limit) as number[];
      // The prefix table alone gives each partition's first rowids; the documents are read for the merged winners only.
      return (filterNeeded(connection, index, { index, locales }, range)
        ? connection.statement(`${index}\u0000autocomplete-filed\u0000${filter.shape}`, () =>
            `SELECT p.doc FROM ${tables.prefixes} p CROSS JOIN ${tables.docs} d ON d.rowid = p.doc
             WHERE p.prefix = ? AND p.place = ? AND ${filter.sql} AND p.doc >= ? AND p.doc <= ? ORDER BY p.doc ${BOUND_LIMIT}`,
          ).pluck().all(prefix, place, ...filter.parameters, ...range, limit)
        : connection.statement(`${index}\u0000autocomplete-prefix`, () =>
            `SELECT doc FROM ${tables.prefixes} WHERE prefix = ? AND place = ? AND doc >= ? AND doc <= ? ORDER BY doc ${BOUND_LIMIT}`,
          ).pluck().all(prefix, place, ...range, limit)) as number[];
    });
    return mergeWalks(walks, limit, (rowid) => rowid);
  };
  const first = walk(PrefixPlace.TitleStart, size);
  // A title found at its start may be found again at a later word: enough later matches are read to fill the rest.
  const later = first.length < size ? walk(PrefixPlace.LaterWord, size).filter((rowid) => !first.includes(rowid)) : [];
  const readMatch = connection.statement(`${index}\u0000autocomplete-read`, () => `SELECT title, url, locale FROM ${tables.docs} WHERE rowid = ?`);
  return [...first, ...later].slice(0, size).map((rowid) => readMatch.get(rowid) as AutocompleteMatch);
}

/** The rowids of a range of title starts (the title key index) or of later word starts (the filed rests), in rowid order. */
function rangeWalk(connection: Connection, index: string, place: PrefixPlace, filter: DocFilter): Database.Statement {
  const tables = tablesOf(index);
  return connection.statement(`${index}\u0000autocomplete-range\u0000${place}\u0000${filter.shape}`, () =>
    place === PrefixPlace.TitleStart
      ? // The title key range is short; left to itself, the planner would walk the whole partition in rowid order.
        `SELECT d.rowid FROM ${tables.docs} d INDEXED BY ${quoteIdentifier(`ix_${index}_title_key`)}
         WHERE d.title_key >= ? AND d.title_key < ? AND ${filter.sql} AND d.rowid >= ? AND d.rowid <= ?
         ORDER BY d.rowid ${BOUND_LIMIT}`
      : `SELECT DISTINCT p.doc FROM ${tables.prefixes} p CROSS JOIN ${tables.docs} d ON d.rowid = p.doc
         WHERE p.prefix >= ? AND p.prefix < ? AND p.place = ${PrefixPlace.LaterWord} AND ${filter.sql} AND p.doc >= ? AND p.doc <= ?
         ORDER BY p.doc ${BOUND_LIMIT}`,
  ).pluck();
}
