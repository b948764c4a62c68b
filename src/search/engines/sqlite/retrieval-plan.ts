import { phraseExpression, planCountExpression, type QueryPlan } from './search-expression.js';
import { rankCandidates, staticRank, type RankedSort } from './static-rank.js';

/**
 * Top-k retrieval over static-rank postings (rowid = descending popularity, see static-rank.ts): instead of scoring
 * every match, the candidates are the documents whose exact title is the query, the first TITLE_CANDIDATES title
 * matches (from the small title table), and — when those do not fill the page — the first BODY_CANDIDATES matches
 * of the whole expression plus the first PHRASE_CANDIDATES whole-phrase matches, each walked in rowid order so FTS5
 * stops early. Only the candidates get a bm25 score; they are ranked by the sort, and only the page is read and
 * highlighted. A document past every cut-off (an unpopular page matching only in its body a query with many
 * matches) can be missed: that is the approximation, in exchange for a cost bounded by the cut-offs.
 *
 * This file decides which walks run, merges what they find and says what it tells of the total, without SQLite;
 * search.ts runs the walks.
 */

/**
 * Added to the text score of a document whose whole title is the query (folded): more than popularity can add
 * (`popularity * 10` ≤ 10), so the page a user names by its title comes first.
 */
export const EXACT_TITLE_BOOST = 25;
/**
 * Added besides when the title is the query as typed, signs included (folded): more than popularity can add, so that
 * `clang` ranks the page titled so above `clang++`, whose words are the same.
 */
export const LITERAL_TITLE_BOOST = 15;
/** The SQL of both boosts of a documents row `d`, given the query's exact key and its folded text, in that order. */
export const EXACT_TITLE_SCORE = `((d.exact_key = ?) * ${EXACT_TITLE_BOOST} + (d.title_key = ?) * ${LITERAL_TITLE_BOOST})`;
/**
 * A document whose title holds every query word scores this plus the bm25 of its title alone (from the title table),
 * ranking it above documents matching in the summary or body only (scored by the weighted bm25 of all columns). Body
 * matches are read only when title matches do not fill the page: ranking every body match of a common word is what
 * makes a full-text query slow.
 */
export const TITLE_MATCH_BOOST = 50;
/** Title matches taken as candidates, most popular first (see search). */
export const TITLE_CANDIDATES = 100;
/** Matches of the whole expression taken as candidates, most popular first, when title matches do not fill the page. */
export const BODY_CANDIDATES = 200;
/** Whole-phrase matches added to those, so adjacent words are found past the body cut-off. */
export const PHRASE_CANDIDATES = 50;
/** `total` counts matches up to this many by default (see SearchQuery.totalUpTo), then answers `gte`. */
export const TOTAL_CAP = 1000;

export interface RankedRow {
  rowid: number;
  popularity: number;
  score: number;
}

/** The first `limit` rows of several rowid-ordered walks (one per range), in static-rank order. */
export function mergeWalks<T>(walks: readonly T[][], limit: number, rowidOf: (row: T) => number): T[] {
  if (walks.length === 1) return walks[0] as T[];
  return walks
    .flat()
    .sort((a, b) => staticRank(rowidOf(a)) - staticRank(rowidOf(b)))
    .slice(0, limit);
}

export const rowidOfRanked = (row: RankedRow): number => row.rowid;

/** What the walks of one search found. */
export interface Retrieval {
  /** The documents to rank, with their scores. */
  readonly candidates: Map<number, RankedRow>;
  /**
   * What the walks tell of the total: the documents they found match the query within the filters (unlike those
   * of the exact-title lookup, found by title key), and a walk of every match that ended before its limit found
   * them all (`everyMatch`). A page filled by title matches says nothing of the body matches: the total is then counted.
   */
  readonly matching: Set<number>;
  everyMatch: number | undefined;
}

export function newRetrieval(): Retrieval {
  return { candidates: new Map(), matching: new Set(), everyMatch: undefined };
}

/** What a walk matches: for a query of common words, whose walks score nothing (see QueryPlan.common), its count expression. */
export function walkedExpression(plan: QueryPlan, expression: string): string {
  return plan.common ? (planCountExpression(plan) as string) : expression;
}

/** Sort by popularity: the page of the merged walks of every match, which score no title apart. */
export function takePopularityWalks(retrieval: Retrieval, walks: readonly RankedRow[][], from: number, wanted: number): void {
  for (const row of mergeWalks(walks, wanted, rowidOfRanked).slice(from)) retrieval.candidates.set(row.rowid, row);
  for (const rows of walks) for (const row of rows) retrieval.matching.add(row.rowid);
  if (walks.every((rows) => rows.length < wanted)) retrieval.everyMatch = retrieval.matching.size;
}

/** A title match as the title walk reads it: its ranking, its title's own bm25, and whether the title holds the dropped common words. */
export interface TitleMatch extends RankedRow {
  titleScore: number;
  holdsDropped: boolean;
}

/**
 * A title that also holds the query's dropped common words (see QueryPlan.dropped) scores its title bm25 twice, as
 * the words scored again with the common ones would: `get elements by class name` prefers the page named so. Checked
 * on the title's words rather than by FTS5, whose bm25 would read the common words' whole posting lists for their IDF.
 */
export function withDroppedWords(match: TitleMatch): RankedRow {
  return { rowid: match.rowid, popularity: match.popularity, score: match.holdsDropped ? match.score + match.titleScore : match.score };
}

/** Takes the title matches; answers whether they reached TITLE_CANDIDATES, so exact titles must be looked up apart. */
export function takeTitleMatches(retrieval: Retrieval, titleMatches: readonly RankedRow[]): boolean {
  for (const row of titleMatches) {
    retrieval.candidates.set(row.rowid, row);
    retrieval.matching.add(row.rowid);
  }
  return titleMatches.length === TITLE_CANDIDATES;
}

/**
 * The documents whose title is the query that are not candidates yet, and a title match among `exact` whose score
 * they can take: documents of one title key have the same title words, so the same title bm25 (each bm25 statement
 * reads the whole posting list of every query word for its IDF, so one is scored and its score given to all).
 */
export function exactTitleGaps(retrieval: Retrieval, titleMatches: readonly RankedRow[], exact: readonly number[]): { missing: number[]; scored: RankedRow | undefined } {
  const missing = exact.filter((rowid) => !retrieval.candidates.has(rowid));
  const exactTitle = new Set(exact);
  return { missing, scored: titleMatches.find((row) => exactTitle.has(row.rowid)) };
}

/** Takes the missing exact-title documents with the score of one of them. */
export function takeExactTitles(retrieval: Retrieval, missing: readonly number[], score: number, popularityOf: (rowid: number) => number): void {
  for (const rowid of missing) retrieval.candidates.set(rowid, { rowid, popularity: popularityOf(rowid), score });
}

/** Whether body matches are walked: only when the title matches do not fill the page. */
export function bodyWalkNeeded(retrieval: Retrieval, wanted: number): boolean {
  return retrieval.candidates.size < wanted;
}

/** Takes the body matches not taken as title matches; a merged walk short of BODY_CANDIDATES found every match. */
export function takeBodyMatches(retrieval: Retrieval, bodyWalks: readonly RankedRow[][]): void {
  const bodyMatches = mergeWalks(bodyWalks, BODY_CANDIDATES, rowidOfRanked);
  for (const row of bodyMatches) {
    if (!retrieval.candidates.has(row.rowid)) retrieval.candidates.set(row.rowid, row);
    retrieval.matching.add(row.rowid);
  }
  if (bodyMatches.length < BODY_CANDIDATES) retrieval.everyMatch = bodyMatches.length;
}

/** The whole-phrase expression walked after the body matches, or undefined: none when they found every match, nor for common words. */
export function phraseToWalk(retrieval: Retrieval, plan: QueryPlan): string | undefined {
  return retrieval.everyMatch === undefined && !plan.common ? phraseExpression(plan) : undefined;
}

/** Notes the phrase matches; answers those not yet candidates, in rowid order, to be scored by one statement. */
export function takePhraseMatches(retrieval: Retrieval, phraseRows: readonly number[]): number[] {
  for (const rowid of phraseRows) retrieval.matching.add(rowid);
  return phraseRows.filter((rowid) => !retrieval.candidates.has(rowid)).sort((a, b) => a - b);
}

export function takeScored(retrieval: Retrieval, rows: readonly RankedRow[]): void {
  for (const row of rows) retrieval.candidates.set(row.rowid, row);
}

/** The candidates of the page, in the sort's order (by popularity, the walks took the page already). */
export function rankedPage(retrieval: Retrieval, sort: RankedSort, from: number, wanted: number): RankedRow[] {
  const ranked = rankCandidates([...retrieval.candidates.values()], sort);
  return sort === 'popularity' ? ranked : ranked.slice(from, wanted);
}

/** The total the walks tell without counting: every match, or more known matches than totalUpTo; else undefined. */
export function knownTotal(retrieval: Retrieval, totalUpTo: number): number | undefined {
  return retrieval.everyMatch ?? (retrieval.matching.size > totalUpTo ? retrieval.matching.size : undefined);
}

export function totalOf(total: number, totalUpTo: number): { value: number; relation: 'eq' | 'gte' } {
  return total > totalUpTo ? { value: totalUpTo, relation: 'gte' } : { value: total, relation: 'eq' };
}
