import type { Connection } from './connection.js';
import { partitionsOf } from './schema.js';
import { PARTITIONED_BASE, localePartition, partitionOf, partitionRange, type RowidRange } from './static-rank.js';
import { partitionTablesOf, tablesOf } from './tables.js';

/**
 * What reads the full-text tables of every partition of an index (see schema.ts): which partitions have them, the
 * rowid ranges a query walks among them, and the vocabulary of the whole index as the sum of theirs.
 */

/** The partitions of an index that have their full-text tables, ascending; remembered until the database changes. */
export function indexPartitions(connection: Connection, index: string): readonly number[] {
  return connection.remembered(`${index}\u0000partitions-with-tables`, () => partitionsOf(connection.db, index));
}

/**
 * SQL of how many documents of the index hold a term (the parameter `@term`): the sum over the partitions' vocabulary
 * tables, no row when none holds it.
 */
export function vocabularyCountSql(index: string, partitions: readonly number[]): string {
  const counts = partitions.map((partition) => `SELECT doc FROM ${partitionTablesOf(index, partition).vocab} WHERE term = @term`);
  if (counts.length <= 1) return counts[0] ?? 'SELECT NULL WHERE @term IS NULL';
  return `SELECT sum(doc) FROM (${counts.join(' UNION ALL ')}) HAVING count(*) > 0`;
}

/**
 * SQL of every term of the index with the documents holding it (`term`, `doc`), summed over the partitions, in term
 * order; terms starting with the parameter `@marker` are left out.
 */
export function vocabularyRowsSql(index: string, partitions: readonly number[]): string {
  const rows = partitions.map((partition) => `SELECT term, doc FROM ${partitionTablesOf(index, partition).vocab} WHERE substr(term, 1, 1) <> @marker`);
  if (rows.length <= 1) return rows[0] ?? 'SELECT NULL AS term, NULL AS doc WHERE @marker IS NULL';
  return `SELECT term, sum(doc) AS doc FROM (${rows.join(' UNION ALL ')}) GROUP BY term ORDER BY term`;
}

/** Whether a document of one of `partitions` matches an FTS5 expression: FTS5 stops at the first. */
export function somePartitionMatches(connection: Connection, index: string, partitions: readonly number[], expression: string): boolean {
  return partitions.some((partition) => {
    const { fts } = partitionTablesOf(index, partition);
    return connection.statement(`${index}\u0000holds\u0000${partition}`, () => `SELECT 1 FROM ${fts} WHERE ${fts} MATCH ? LIMIT 1`).get(expression) !== undefined;
  });
}

/**
 * The rowid ranges a query walks (see static-rank.ts): the partition of each of its locales, or every partition the
 * index holds when it names none, in rowid order; only partitions that hold documents, as only they have full-text
 * tables (see rangeTables). Every statement of filterSql takes a range; walks of several ranges are merged by static
 * rank (mergeWalks).
 */
export function rowidRanges(connection: Connection, index: string, locales: readonly string[] | undefined): RowidRange[] {
  const key = `${index}\u0000${(locales ?? []).join('\u0000').toLowerCase()}`;
  const known = connection.snapshotRanges?.get(key);
  if (known !== undefined) return known;
  const ranges = partitionRanges(connection, index, locales);
  connection.snapshotRanges?.set(key, ranges);
  return ranges;
}

function partitionRanges(connection: Connection, index: string, locales: readonly string[] | undefined): RowidRange[] {
  if (locales !== undefined && locales.length > 0) {
    const held = new Set(indexPartitions(connection, index));
    return [...new Set(locales.map((locale) => localePartition(locale.toLowerCase())))].filter((partition) => held.has(partition)).sort((a, b) => a - b).map(partitionRange);
  }
  const firstFrom = connection.statement(`${index}\u0000first-from`, () => `SELECT rowid FROM ${tablesOf(index).docs} WHERE rowid >= ? ORDER BY rowid LIMIT 1`).pluck();
  return connection.remembered(`${index}\u0000partitions`, () => {
    const ranges: RowidRange[] = [];
    let rowid = firstFrom.get(PARTITIONED_BASE) as number | undefined;
    while (rowid !== undefined) {
      const range = partitionRange(partitionOf(rowid));
      ranges.push(range);
      rowid = firstFrom.get(range[1] + 1) as number | undefined;
    }
    return ranges;
  });
}
