import { groupsOf } from './terms.js';

/** At most this many words of a query are used. */
export const MAX_QUERY_TERMS = 32;

/** A word of a query: its term, the parts it splits into (see split.ts), and the text it was typed as. */
export interface QueryTerm {
  term: string;
  /** The terms after the whole, as the text gives them after an identifier's whole; empty for a plain word. */
  parts: string[];
  typed: string;
}

/**
 * The words of what a user typed, in order, at most MAX_QUERY_TERMS, each a group of the analysis (a plain word, or an
 * identifier with its parts): the text is read no further. A term never holds quotes, operators or spaces, so it can be
 * quoted into any engine's query syntax safely.
 */
export function queryWords(text: string): QueryTerm[] {
  return groupsOf(text, MAX_QUERY_TERMS).map((group) => ({ term: group.whole, parts: group.parts, typed: text.slice(group.start, group.end) }));
}

/** The terms of queryWords' words (their wholes). */
export function queryTerms(text: string): string[] {
  return queryWords(text).map((word) => word.term);
}
