import { foldPhrase, wordsOf } from '../analysis/index.js';

/**
 * Pure autocomplete policy, shared by both engines: where in a title a typed prefix may start. No I/O.
 *
 * A prefix matches from the start of any word of the title (the analysis module's words, so segmented words of
 * unspaced scripts too) and may run on into the words after it. Matches at the start of the title rank first, then
 * every other match, each by popularity.
 */

/** The longest prefix a reader may type, in code points: no start needs to be longer to be found. */
export const MAX_TYPED_PREFIX = 200;

/**
 * The words of a title, from its start, that a typed prefix may begin at. A title is a line, not a page: a "title"
 * of thousands of words (a parser's slip that made a page's text its title) would otherwise cost autocomplete rows
 * in proportion to the square of its length.
 */
export const MAX_TITLE_WORD_STARTS = 64;

/**
 * UTF-16 units of the title read for each start: enough for MAX_TYPED_PREFIX folded code points unless the text is
 * mostly blanks (which fold to one space) or decomposes into fewer characters than it has units.
 */
const READ_PER_START = MAX_TYPED_PREFIX * 4;

/**
 * The folded title from the start of each of its words after the title's own start (see foldPhrase), in order,
 * without repeats, each cut to MAX_TYPED_PREFIX code points: a typed prefix matches the title later on when it
 * begins one of them.
 */
export function laterWordStarts(title: string): string[] {
  const titleStart = cutToTypedPrefix(foldPhrase(title.slice(0, READ_PER_START)));
  const starts = new Set<string>();
  let words = 0;
  for (const word of wordsOf(title)) {
    if (++words > MAX_TITLE_WORD_STARTS) break;
    const start = cutToTypedPrefix(foldPhrase(title.slice(word.start, word.start + READ_PER_START)));
    if (start !== '' && start !== titleStart) starts.add(start);
  }
  return [...starts];
}

/** A folded text cut to MAX_TYPED_PREFIX code points. */
export function cutToTypedPrefix(folded: string): string {
  if (folded.length <= MAX_TYPED_PREFIX) return folded;
  return Array.from(folded).slice(0, MAX_TYPED_PREFIX).join('').trimEnd();
}
