import { groupsOf } from './terms.js';

/** At most this many words of a query are used. */
export const MAX_QUERY_TERMS = 32;

/** A word of a query: its term, the parts it splits into (see split.ts), and the text it was typed as. */
export interface QueryTerm {
  term: string;
  /** The terms after the whole, as the text gives them after an identifier's whole; empty for a plain word. */
  parts: string[];
  typed: string;
  /** Where it was typed (UTF-16 offsets in the query, `end` exclusive). */
  start: number;
  end: number;
}

/**
 * The words of what a user typed, in order, at most MAX_QUERY_TERMS, each a group of the analysis (a plain word, or an
 * identifier with its parts): the text is read no further. A term never holds quotes, operators or spaces, so it can be
 * quoted into any engine's query syntax safely.
 */
export function queryWords(text: string): QueryTerm[] {
  return groupsOf(text, MAX_QUERY_TERMS).map((group) => ({ term: group.whole, parts: group.parts, typed: text.slice(group.start, group.end), start: group.start, end: group.end }));
}

/**
 * Words of a query written back as a query (a correction, a suggestion), each as `wordText` gives it: after a space,
 * or glued to the word before when they were glued as typed (words cut from a run of Chinese or Japanese), so that a
 * correction never splits what the reader wrote as one.
 */
export function queryText(words: readonly QueryTerm[], wordText: (word: QueryTerm, at: number) => string): string {
  let text = '';
  words.forEach((word, at) => {
    const before = words[at - 1];
    text += (before === undefined || before.end === word.start ? '' : ' ') + wordText(word, at);
  });
  return text;
}

/** The terms of queryWords' words (their wholes). */
export function queryTerms(text: string): string[] {
  return queryWords(text).map((word) => word.term);
}
