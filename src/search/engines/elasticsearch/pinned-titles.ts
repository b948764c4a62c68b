import type { estypes } from '@elastic/elasticsearch';

/**
 * `query`, the clause of a word too short for a typo (typo-rules.ts pinnedTypoDistance), or when it has `neighbours`
 * also a title that the other words pin: one holding a neighbour and every one of `others`, the query's other words
 * (each as one of its terms), weighing `boost`. No I/O.
 */
export function orPinnedTitles(query: estypes.QueryDslQueryContainer, neighbours: readonly string[] | undefined, others: readonly (readonly string[])[], boost: number): estypes.QueryDslQueryContainer {
  if (neighbours === undefined || neighbours.length === 0) return query;
  const pinned = { bool: { must: [{ terms: { title: [...neighbours], boost } }], filter: others.map((terms) => ({ terms: { title: [...terms] } })) } };
  return { bool: { should: [query, pinned], minimum_should_match: 1 } };
}
