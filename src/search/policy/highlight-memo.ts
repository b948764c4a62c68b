/**
 * What a matcher (see highlight-matches.ts) found of words and runs, kept for the next text it reads: a search highlights the titles and bodies
 * of its hits with one matcher, and a Chinese or Japanese page repeats its words and its runs of words (each word's
 * terms are otherwise split out of it again, each run cut into words again). Pure functions of the characters and the
 * matcher. Each is forgotten when it holds KEPT_PER_MATCHER, so that a matcher reading long pages stays small.
 */
export interface MatcherMemo {
  /** Whether a word is marked. */
  words: Map<string, boolean>;
  /** The marked words of a run of word characters, as [start, end) offsets in it, one after another. */
  runs: Map<string, readonly number[]>;
}

const memos = new WeakMap<object, MatcherMemo>();
/** Words, and runs, a memo holds before it forgets them all. */
export const KEPT_PER_MATCHER = 4096;

/** The memo of a matcher (a TermMatcher of highlight-matches.ts), made when first asked; gone with the matcher. */
export function memoOf(matcher: object): MatcherMemo {
  let memo = memos.get(matcher);
  if (memo === undefined) {
    memo = { words: new Map(), runs: new Map() };
    memos.set(matcher, memo);
  }
  return memo;
}
