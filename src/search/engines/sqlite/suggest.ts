import { queryText, queryWords } from '../../analysis/index.js';
import { countExpression } from './search-expression.js';
import { compareCandidates, heldFirst, singleChanges, spellable, spliceAlternatives, type Alternative, type Candidate } from '../../policy/spelling.js';
import type { SuggestQuery, Suggestion } from '../types.js';
import { clampInteger } from '../validation.js';
import type { Connection } from './connection.js';
import { countExpressionOf, searchedPartitions } from './text-plan.js';
import { documentsHoldingIn, hasSpelling, spellLookup } from './held-terms.js';
import { countIn, matchesAny } from './walks.js';

/** Alternatives of a misspelt query counted at most, and candidates per word tried: each costs one count query. */
const SUGGESTION_ALTERNATIVES = 8;
const CANDIDATES_PER_WORD = 4;
/**
 * A suggestion's `total` counts matches up to this many, then answers this many with `relation: 'gte'` (the page shows
 * "20+"): an alternative made of common words would otherwise be counted through thousands of matches, several
 * alternatives per query. "Did you mean" needs to show that the alternative finds pages, not how many past a
 * screenful: counting up to 100 instead cost a misspelt query a third more instructions (3.28 M against 2.46 M on the
 * bench's one-typo queries).
 */
export const SUGGESTION_TOTAL_CAP = 20;

/**
 * "Did you mean": each query word the vocabulary does not hold gets its nearest vocabulary words (edit distance ≤ 2,
 * looked up in the spelling index, built by refresh/forceMerge and kept up to date by writes to a live index); they
 * are spliced into the whole query, ranked by distance then word frequency, and each alternative is counted with
 * the query's filters, up to SUGGESTION_TOTAL_CAP. Only alternatives that match are returned, best first. A query
 * whose words are all known suggests nothing.
 */
export function suggestIn(connection: Connection, index: string, query: SuggestQuery): Suggestion[] {
  const typedWords = queryWords(query.text);
  const words = typedWords.map((word) => word.term);
  const size = clampInteger(query.size, 3, 1, 10);
  if (words.length === 0 || !hasSpelling(connection, index)) return [];
  const lookup = spellLookup(connection, index);
  const filters = { index, locales: query.locales, slugPrefixes: query.slugPrefixes };
  // An alternative is counted as its words match, not as their own neighbours would.
  const asTyped = { locales: query.locales, corrections: false };
  // Words, neighbours and alternatives are those of the locales searched (see documentsHoldingIn).
  const partitions = searchedPartitions(connection, index, query.locales);
  const held = (word: string) => documentsHoldingIn(connection, index, partitions, word) !== undefined;
  const neighboursOf = (word: string) => heldFirst(lookup.candidates(word).sort(compareCandidates), CANDIDATES_PER_WORD, (candidate) => held(candidate.term));
  const candidates = new Map<number, Candidate[]>();
  words.forEach((word, position) => {
    if (!spellable(word) || held(word)) return;
    const asPrefix = position === words.length - 1 && countExpression([word])?.endsWith('*') === true;
    if (!(asPrefix && lookup.knownPrefix(word))) candidates.set(position, neighboursOf(word));
  });
  let alternatives: Alternative[];
  if (candidates.size > 0) alternatives = spliceAlternatives(words, candidates, CANDIDATES_PER_WORD, SUGGESTION_ALTERNATIVES);
  else {
    // Every word is known: a query that matches is correct; one that matches nothing may hide a typo that made
    // another real word, so each word in turn is replaced by its neighbours.
    const matches = query.knownTotal === undefined ? matchesAny(connection, index, countExpressionOf(connection, index, words.join(' '), asTyped), filters) : query.knownTotal > 0;
    if (matches) return [];
    words.forEach((word, position) => {
      if (spellable(word)) candidates.set(position, neighboursOf(word));
    });
    alternatives = singleChanges(words, candidates, CANDIDATES_PER_WORD).slice(0, SUGGESTION_ALTERNATIVES * 2);
  }
  const suggestions: Suggestion[] = [];
  for (const alternative of alternatives) {
    const text = queryText(typedWords, (word, position) => (alternative.words[position] === word.term ? word.typed : (alternative.words[position] ?? word.typed)));
    const total = countIn(connection, index, countExpressionOf(connection, index, text, asTyped), { ...filters, text }, SUGGESTION_TOTAL_CAP + 1);
    if (total > SUGGESTION_TOTAL_CAP) suggestions.push({ text, total: SUGGESTION_TOTAL_CAP, relation: 'gte' });
    else if (total > 0) suggestions.push({ text, total, relation: 'eq' });
    if (suggestions.length === size) break;
  }
  return suggestions;
}
