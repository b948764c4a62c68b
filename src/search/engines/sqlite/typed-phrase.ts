import { PHRASE_CANDIDATES, TITLE_MATCH_BOOST, withDroppedWords, type RankedRow, type Retrieval, type TitleMatch } from './retrieval-plan.js';
import type { QueryPlan } from './search-expression.js';

/**
 * How a query of two or more words ranks the documents holding it as typed, its words in a row. bm25 weighs such a
 * phrase by where it stands, so one in a long body scores less than the same words apart in a title; and a query
 * whose common words were dropped (see planQuery) finds titles holding only its rarer words, which an index too small
 * to drop words would not take as title matches. Both bury the page holding what was typed. So the typed phrase,
 * common words in place, is walked apart, and the ranking is: a title holding every word typed (as itself, a stem or
 * within its typo budget); then a document holding the words in a row; then the rest, titles holding only the rarer
 * words among them. Pure: search.ts runs the walk.
 */

/** Matches of the typed phrase taken, most popular first: more holders than a page shows need no more to rank first. */
export const TYPED_PHRASE_CANDIDATES = PHRASE_CANDIDATES;

/**
 * Added to the score of a document holding the typed phrase: more than popularity adds, so it outranks pages holding
 * the words apart, and less than a title match, which holds every word typed.
 */
export const TYPED_PHRASE_BOOST = TITLE_MATCH_BOOST / 2;

/**
 * Whether a title match holds every word typed: always, unless the plan dropped common words its title lacks (a title
 * holding the rarer words only, which an index too small to drop words would not take as a title match).
 */
export function holdsEveryWord(match: TitleMatch, dropped: readonly string[] | undefined): boolean {
  return dropped === undefined || dropped.length === 0 || match.holdsDropped;
}

/**
 * A title match as ranked: one holding only the rarer words scores its title bm25 without TITLE_MATCH_BOOST (one
 * holding the dropped words too scores it twice, see withDroppedWords).
 */
export function rankedTitleMatch(match: TitleMatch, dropped: readonly string[] | undefined): RankedRow {
  const row = withDroppedWords(match);
  return holdsEveryWord(match, dropped) ? row : { ...row, score: row.score - TITLE_MATCH_BOOST };
}

/**
 * Whether the typed phrase is walked: not for a query of common words only, whose walks score nothing (see
 * QueryPlan.common), nor when titles holding every word typed fill the page, as no holder ranks above them.
 */
export function typedPhraseWalked(plan: Pick<QueryPlan, 'typedPhrase' | 'common'>, fullTitles: number, wanted: number): boolean {
  return plan.typedPhrase !== undefined && !plan.common && fullTitles < wanted;
}

/**
 * Notes the typed-phrase holders as matches (they hold every word the plan requires); answers those that are not
 * candidates yet, in rowid order, to be scored by one statement before takeTypedPhrase.
 */
export function typedPhraseUnscored(retrieval: Retrieval, holders: readonly number[]): number[] {
  for (const rowid of holders) retrieval.matching.add(rowid);
  return holders.filter((rowid) => !retrieval.candidates.has(rowid)).sort((a, b) => a - b);
}

/**
 * Raises the candidates holding the typed phrase by TYPED_PHRASE_BOOST, once each, except the titles holding every
 * word typed (`fullTitles`): they rank above every holder already, among themselves by their title's bm25, which
 * scores the phrase where the title holds it.
 */
export function takeTypedPhrase(retrieval: Retrieval, holders: readonly number[], fullTitles: ReadonlySet<number>): void {
  for (const rowid of new Set(holders)) {
    if (fullTitles.has(rowid)) continue;
    const row = retrieval.candidates.get(rowid);
    if (row !== undefined) retrieval.candidates.set(rowid, { ...row, score: row.score + TYPED_PHRASE_BOOST });
  }
}
