import { countExpression } from './search-expression.js';
import { SpellLookup, spellTables } from './spell-index.js';
import { indexPartitions, somePartitionMatches, vocabularyCountSql } from './partitions.js';
import { partitionTablesOf } from './tables.js';
import type { Connection } from './connection.js';

/**
 * What an index holds, asked of it while a query is planned: whether and how many documents hold a term, in the
 * partitions searched or in their titles, and the spelling lookup of its vocabulary. Remembered until the database
 * changes (see Connection.termDocuments).
 */

/** Whether the index has its spelling tables (see spell-index.ts); remembered until the database changes. */
export function hasSpelling(connection: Connection, index: string): boolean {
  return connection.remembered(`${index}\u0000spelling`, () =>
    connection.statement('spell-exists', () => "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(`ix_${index}_spell_terms`) !== undefined,
  );
}


/**
 * Whether a document of one of `partitions` holds a term (stems included, which the spelling statistics leave out).
 * FTS5 stops at the first document; the vocabulary table would count them all, reading the term's whole position list.
 */
export function vocabularyHolds(connection: Connection, index: string, partitions: readonly number[], term: string): boolean {
  connection.checkVersion();
  const key = `${index}\u0000vocabulary\u0000${partitions.join(' ')}\u0000${term}`;
  const remembered = connection.termDocuments.get(key);
  if (remembered !== undefined) return remembered.documents !== undefined;
  const expression = countExpression([term], false);
  const holds = expression !== undefined && somePartitionMatches(connection, index, partitions, expression);
  connection.termDocuments.set(key, { documents: holds ? 1 : undefined });
  return holds;
}

/**
 * How many documents of the index hold a term (see documentsHolding) when a document of `partitions` holds it, else
 * undefined: a word of another locale's pages is no word of a query of this one, nor a neighbour it may mean.
 */
export function documentsHoldingIn(connection: Connection, index: string, partitions: readonly number[], term: string): number | undefined {
  const documents = documentsHolding(connection, index, term);
  if (documents === undefined || partitions.length >= indexPartitions(connection, index).length) return documents;
  return vocabularyHolds(connection, index, partitions, term) ? documents : undefined;
}

/**
 * How many documents hold a term, or undefined when it is not a term of the index:
 * from the spelling statistics when the index has them, else from the vocabulary. Remembered until the database
 * changes (see Connection.termDocuments).
 */
export function documentsHolding(connection: Connection, index: string, term: string): number | undefined {
  connection.checkVersion();
  const key = `${index}\u0000${term}`;
  const remembered = connection.termDocuments.get(key);
  if (remembered !== undefined) return remembered.documents;
  const statistics = hasSpelling(connection, index) ? `SELECT docs FROM ${spellTables(index).terms} WHERE term = @term` : vocabularyCountSql(index, indexPartitions(connection, index));
  const documents = connection.statement(`${index}\u0000frequency\u0000${statistics}`, () => statistics).pluck().get({ term }) as number | undefined;
  connection.termDocuments.set(key, { documents });
  return documents;
}

/**
 * Whether a title of one of `partitions` holds every word of `words`, each as itself or as one of its `alternatives`
 * (see countExpression): the title tables are small, their posting lists short.
 */
export function titleHolds(connection: Connection, index: string, partitions: readonly number[], words: readonly string[], alternatives?: readonly (readonly string[] | undefined)[]): boolean {
  connection.checkVersion();
  const expression = countExpression(words, false, undefined, alternatives) as string;
  const key = `${index}\u0000title\u0000${partitions.join(' ')}\u0000${expression}`;
  const remembered = connection.termDocuments.get(key);
  if (remembered !== undefined) return remembered.documents !== undefined;
  const holds = partitions.some((partition) => {
    const { titles } = partitionTablesOf(index, partition);
    return connection.statement(`${index}\u0000title-holds\u0000${partition}`, () => `SELECT 1 FROM ${titles} WHERE ${titles} MATCH ? LIMIT 1`).get(expression) !== undefined;
  });
  connection.termDocuments.set(key, { documents: holds ? 1 : undefined });
  return holds;
}

/** The index's spelling lookup, prepared once per connection. */
export function spellLookup(connection: Connection, index: string): SpellLookup {
  let lookup = connection.spellLookups.get(index);
  if (lookup === undefined) {
    lookup = new SpellLookup(connection.db, index);
    connection.spellLookups.set(index, lookup);
  }
  return lookup;
}
