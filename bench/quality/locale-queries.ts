import { foldWord } from './queries.js';

/**
 * Query rules for a corpus of many languages, by general rules only: a word of a title, and a two-word phrase of a
 * body, both cut by `Intl.Segmenter` (word granularity) in the page's locale, so Chinese and Japanese text gives words
 * as a reader picks them, independently of the search engine's own analysis. Pure.
 */

export interface Word {
  text: string;
  /** Code-unit offset in the text it was cut from. */
  index: number;
}

const segmenters = new Map<string, Intl.Segmenter>();

/**
 * The word-like segments of `text` in `locale`. Cut into lines of at most 1,000 characters (at a blank where there is
 * one) first: each segment V8 returns holds a fresh copy of its whole input, so one long text would exhaust the heap.
 */
export function segmentWords(text: string, locale: string): Word[] {
  let segmenter = segmenters.get(locale);
  if (segmenter === undefined) {
    segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, segmenter);
  }
  const words: Word[] = [];
  for (const piece of text.matchAll(/[^\n]{1,1000}(?=\s|$)|[^\n]{1,1000}/g)) {
    for (const { segment, index, isWordLike } of segmenter.segment(piece[0])) {
      if (isWordLike === true) words.push({ text: segment, index: piece.index + index });
    }
  }
  return words;
}

export type ScriptClass = 'Latin' | 'Cyrillic' | 'other';

/** Latin or Cyrillic by a word's first letter; `other` for every script else (Han, Kana, Hangul …). */
export function scriptOf(word: string): ScriptClass {
  const letter = /\p{L}/u.exec(word)?.[0] ?? '';
  if (/\p{Script=Latin}/u.test(letter)) return 'Latin';
  if (/\p{Script=Cyrillic}/u.test(letter)) return 'Cyrillic';
  return 'other';
}

/** The script most of these words are written in (its title words tell a locale's script apart from names in it). */
export function dominantScript(words: Iterable<string>): ScriptClass {
  const counts = new Map<ScriptClass, number>();
  for (const word of words) if (/\p{L}/u.test(word)) counts.set(scriptOf(word), (counts.get(scriptOf(word)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'Latin';
}

/** A word worth a query: two characters or more, with a letter, in the locale's script. */
function qualifies(word: string, script: ScriptClass): boolean {
  return Array.from(word).length >= 2 && /\p{L}/u.test(word) && scriptOf(word) === script;
}

/**
 * One word of the title, in the locale's script, that at most `maxTitles` titles of the locale hold (`titlesWith`
 * counts them, folded), so that the page can be among the first results at all; undefined when none.
 */
export function titleWordQuery(
  title: string,
  locale: string,
  script: ScriptClass,
  titlesWith: (folded: string) => number,
  random: () => number,
  maxTitles = 3,
): string | undefined {
  const words = [...new Set(segmentWords(title, locale).map((word) => word.text))].filter(
    (word) => qualifies(word, script) && titlesWith(foldWord(word)) <= maxTitles,
  );
  return words[Math.floor(random() * words.length)];
}

/**
 * Two-word phrases of the text as written: neighbouring words in the locale's script with nothing but blanks between
 * them (`内容 を`… is not one; `目录内容` and `Liste der` are), in random order.
 */
export function bodyPhrases(text: string, locale: string, script: ScriptClass, random: () => number): string[] {
  const words = segmentWords(text, locale);
  const phrases: string[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const first = words[i] as Word;
    const second = words[i + 1] as Word;
    if (!qualifies(first.text, script) || !qualifies(second.text, script)) continue;
    const gap = text.slice(first.index + first.text.length, second.index);
    if (/^\s*$/.test(gap)) phrases.push(text.slice(first.index, second.index + second.text.length).replace(/\s+/g, ' '));
  }
  for (let i = phrases.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [phrases[i], phrases[j]] = [phrases[j] as string, phrases[i] as string];
  }
  return phrases;
}

/** Lower-case letters of the words (folded), for typos in the locale's own alphabet. */
export function alphabetOf(words: Iterable<string>): string {
  const letters = new Set<string>();
  for (const word of words) for (const character of foldWord(word)) if (/\p{L}/u.test(character)) letters.add(character);
  return [...letters].sort().join('');
}
