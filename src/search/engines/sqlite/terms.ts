import { queryTerms } from '../../analysis/index.js';
import { COMMON_WORD_MIN_DOCUMENTS, COMMON_WORD_SHARE, countExpression, planQuery, requiredWords, type QueryPlan } from '../../search-expression.js';
import { spellTables } from './spell-index.js';
import { tablesOf } from './tables.js';
import type { Connection } from './connection.js';

/**
 * What a query's words are in an index: whether and how many documents hold them, the plan they are matched by, and
 * the text score of that plan.
 */

/**
 * An unfinished last word is matched as its most frequent completions in the vocabulary, at most this many (like
 * Elasticsearch's `max_expansions`): a rarer completion is found once typed in full.
 */
const PREFIX_EXPANSIONS = 16;

/** How the engine ranks text (see SqliteEngineOptions). */
export interface RankSettings {
  weights: readonly [number, number, number];
}

/** Whether the index has its spelling tables (see spell-index.ts); remembered until the database changes. */
export function hasSpelling(connection: Connection, index: string): boolean {
  return connection.remembered(`${index}\u0000spelling`, () =>
    connection.statement('spell-exists', () => "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(`ix_${index}_spell_terms`) !== undefined,
  );
}

/** The words a text is matched by in this index (see planQuery): common words dropped, prefix on an unfinished last word. */
export function planOf(connection: Connection, index: string, text: string): QueryPlan {
  const tables = tablesOf(index);
  const spelling = hasSpelling(connection, index);
  const counted = spelling ? `SELECT documents FROM ${spellTables(index).stats}` : `SELECT count(*) FROM ${tables.docs}`;
  const documents = connection.remembered(`${index}\u0000documents\u0000${counted}`, () =>
    (connection.statement(`${index}\u0000documents\u0000${counted}`, () => counted).pluck().get() as number | undefined) ?? 0,
  );
  const plan = planQuery(queryTerms(text), documents, (word) => documentsHolding(connection, index, word));
  const last = plan.words[plan.words.length - 1];
  if (!spelling || !plan.prefixLast || last === undefined) return plan;
  const prefix = last;
  const completions = connection.statement(`${index}\u0000completions`, () =>
    `SELECT term, docs FROM ${spellTables(index).terms} WHERE term >= ? AND term < ? ORDER BY docs DESC, term LIMIT ${PREFIX_EXPANSIONS}`,
  ).all(prefix, `${prefix}\u{10FFFF}`) as { term: string; docs: number }[];
  const postings = completions.reduce((sum, completion) => sum + completion.docs, 0);
  for (const completion of completions) connection.termDocuments.set(`${index}\u0000${completion.term}`, { documents: completion.docs });
  const common = plan.common || (documents >= COMMON_WORD_MIN_DOCUMENTS && postings > documents * COMMON_WORD_SHARE);
  return { ...plan, common, expansions: completions.map((completion) => completion.term) };
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
  const statistics = hasSpelling(connection, index) ? `SELECT docs FROM ${spellTables(index).terms} WHERE term = ?` : `SELECT doc FROM ${tablesOf(index).vocab} WHERE term = ?`;
  const documents = connection.statement(`${index}\u0000frequency\u0000${statistics}`, () => statistics).pluck().get(term) as number | undefined;
  connection.termDocuments.set(key, { documents });
  return documents;
}

/** The SQL of a search expression's text score on the index's FTS table: its weighted bm25, higher is better. */
export function textRankOf(rank: RankSettings, index: string): string {
  return `-bm25(${tablesOf(index).fts}, ${rank.weights.join(', ')})`;
}

/**
 * Whether a plan matches nothing because a word every match must hold is in no document: most misspelt queries.
 * The spelling statistics say which words the index lacks; FTS5 confirms it (an index written to while no alias
 * pointed at it has them rebuilt only by refresh), which costs a tenth of the walks a search would run to find nothing.
 */
export function cannotMatch(connection: Connection, index: string, plan: QueryPlan): boolean {
  if (!hasSpelling(connection, index)) return false;
  const { fts } = tablesOf(index);
  const holds = connection.statement(`${index}\u0000holds`, () => `SELECT 1 FROM ${fts} WHERE ${fts} MATCH ? LIMIT 1`);
  return requiredWords(plan).some((word) => documentsHolding(connection, index, word) === undefined && holds.get(countExpression([word], false)) === undefined);
}

export function countExpressionOf(connection: Connection, index: string, text: string): string {
  const plan = planOf(connection, index, text);
  return countExpression(plan.words, plan.prefixLast, plan.expansions) as string;
}
