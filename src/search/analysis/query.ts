import { termsOfWord, wordsOf } from './terms.js';

/** At most this many terms of a query are used. */
export const MAX_QUERY_TERMS = 32;

/** A term of a query and the word it was typed as (the word itself, or the term when its word gave several). */
export interface QueryTerm {
  term: string;
  typed: string;
}

/**
 * The terms of what a user typed, in order, at most MAX_QUERY_TERMS, with the words they were typed as: the text is
 * read no further. A term never holds quotes, operators or spaces, so it can be quoted into any engine's query syntax
 * safely.
 */
export function queryWords(text: string): QueryTerm[] {
  const found: QueryTerm[] = [];
  for (const word of wordsOf(text)) {
    const terms = termsOfWord(word.text);
    for (const term of terms) {
      found.push({ term, typed: terms.length === 1 ? word.text : term });
      if (found.length === MAX_QUERY_TERMS) return found;
    }
  }
  return found;
}

/** The terms of queryWords. */
export function queryTerms(text: string): string[] {
  return queryWords(text).map((word) => word.term);
}
