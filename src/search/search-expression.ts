import { matchExpression } from './query-text.js';

/** The last word is matched as a prefix only from this many characters on: shorter prefixes expand to too many terms. */
export const MIN_PREFIX_LENGTH = 3;

function quote(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

/**
 * The FTS5 expression of a search: every word must match (the last one also as a prefix when it is long enough), and
 * two extra phrases that match a subset of the same documents add to their bm25 score: the exact last word (so `fetch`
 * outranks `fetching`) and the whole text as a phrase (so adjacent words outrank scattered ones). Words are quoted, so
 * no FTS5 syntax from the user reaches the engine. Undefined when there is no word.
 */
export function searchExpression(words: readonly string[]): string | undefined {
  if (words.length === 0) return undefined;
  const last = words[words.length - 1] as string;
  const prefixLast = Array.from(last).length >= MIN_PREFIX_LENGTH;
  const head = words.slice(0, -1).map(quote);
  const lastTerm = prefixLast ? `(${quote(last)} OR ${quote(last)}*)` : quote(last);
  const all = [...head, lastTerm].join(' AND ');
  if (words.length === 1) return all;
  const phrase = `${quote(words.join(' '))}${prefixLast ? '*' : ''}`;
  return `(${all}) OR ${phrase}`;
}

/** The expression of a count or a suggestion check: every word, exactly as `searchExpression` requires them. */
export function countExpression(words: readonly string[]): string | undefined {
  const last = words[words.length - 1];
  return matchExpression(words, { prefixLast: last !== undefined && Array.from(last).length >= MIN_PREFIX_LENGTH });
}
