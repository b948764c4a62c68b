import { foldPhrase, wordsOf } from '../analysis/index.js';

/**
 * Pure autocomplete policy, shared by both engines: where in a title a typed prefix may start. No I/O.
 *
 * A prefix matches from the start of any word of the title (the analysis module's words, so segmented words of
 * unspaced scripts too) and may run on into the words after it. Matches at the start of the title rank first, then
 * every other match, each by popularity.
 */

/**
 * The folded title from the start of each of its words after the title's own start (see foldPhrase), in order,
 * without repeats: a typed prefix matches the title later on when it begins one of them.
 */
export function laterWordStarts(title: string): string[] {
  const titleKey = foldPhrase(title);
  const starts = new Set<string>();
  for (const word of wordsOf(title)) {
    const start = foldPhrase(title.slice(word.start));
    if (start !== '' && start !== titleKey) starts.add(start);
  }
  return [...starts];
}
