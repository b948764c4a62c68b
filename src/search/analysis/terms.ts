/**
 * How text becomes terms, for every part of search: indexing, query building, highlighting, spelling and
 * autocomplete all take their words and terms from here, and the Elasticsearch analyzers are generated from the same
 * definitions (see elasticsearch.ts). Pure: no I/O.
 *
 * - A word is a run of letters, digits and marks (`\p{L}`, `\p{N}`, `\p{M}`, private-use `\p{Co}`); every other
 *   character separates words.
 * - Folding decomposes text (NFKD: compatibility forms such as `ﬁ` and `①` become `fi` and `1`), drops every mark (so
 *   `é` is `e`) and lower-cases it.
 * - A word's terms are the words of its folding (usually one; a compatibility form can decompose into several, as
 *   `⑴` becomes `(1)`), each cut to MAX_TERM_LENGTH characters.
 *
 * Terms therefore hold letters, digits and private-use characters only: their only ASCII characters are `a`–`z` and
 * `0`–`9`, so terms joined by spaces are read back as the same terms by any tokenizer that splits on ASCII
 * punctuation and spaces alone (FTS5's `ascii`, Elasticsearch's `whitespace`).
 */

/** Terms longer than this many characters are cut (no real word is longer). */
export const MAX_TERM_LENGTH = 64;

/** A word, as a regular expression source (the same in JS and in Java, which Elasticsearch's pattern tokenizer uses). */
export const WORD_SOURCE = '[\\p{L}\\p{N}\\p{M}\\p{Co}]+';
const WORD = new RegExp(WORD_SOURCE, 'gu');
const WORD_CHARACTER = new RegExp(WORD_SOURCE.slice(0, -1), 'u');
const MARKS = /\p{M}/gu;
// eslint-disable-next-line no-control-regex -- the test is for the whole ASCII range
const ASCII = /^[\u0000-\u007f]*$/;
const ASCII_TERM = /[a-z0-9]+/g;
/** Runs of spaces and control characters, which a folded phrase makes one space (same source in JS and Java). */
export const SPACES_SOURCE = '[\\p{Z}\\p{Cc}]+';
const SPACES = new RegExp(SPACES_SOURCE, 'gu');

/** A word of a text, where it stands (UTF-16 offsets, `end` exclusive). */
export interface Word {
  text: string;
  start: number;
  end: number;
}

/** The words of a text, in order. */
export function* wordsOf(text: string): Generator<Word> {
  for (const match of text.matchAll(WORD)) yield { text: match[0], start: match.index, end: match.index + match[0].length };
}

/** Whether a character is part of a word. */
export function isWordCharacter(character: string | undefined): boolean {
  if (character === undefined) return false;
  const code = character.charCodeAt(0);
  if (code < 0x80) return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
  return WORD_CHARACTER.test(character);
}

/** Text folded: decomposed (NFKD), marks dropped, lower-cased. Separators stay where they are. */
export function fold(text: string): string {
  return ASCII.test(text) ? text.toLowerCase() : text.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/**
 * A title or typed prefix folded for comparison as a whole (the exact-title match, autocomplete): folded, with runs of
 * spaces and control characters made one space, trimmed.
 */
export function foldPhrase(text: string): string {
  return fold(text).replace(SPACES, ' ').trim();
}

function cut(term: string): string {
  return term.length <= MAX_TERM_LENGTH ? term : Array.from(term).slice(0, MAX_TERM_LENGTH).join('');
}

/** The terms of one word (see the rules above); none for a word of marks only. */
export function termsOfWord(word: string): string[] {
  if (ASCII.test(word)) return [cut(word.toLowerCase())];
  const terms: string[] = [];
  for (const match of fold(word).matchAll(WORD)) terms.push(cut(match[0]));
  return terms;
}

/** The terms of a text, in order, repeats kept (a term's position is its place in this list). */
export function termsOf(text: string): string[] {
  if (ASCII.test(text)) return (text.toLowerCase().match(ASCII_TERM) ?? []).map(cut);
  const terms: string[] = [];
  for (const match of text.matchAll(WORD)) {
    for (const term of termsOfWord(match[0])) terms.push(term);
  }
  return terms;
}

/** The terms of a text joined by single spaces: what a full-text engine indexes (see the note above). */
export function indexedText(text: string): string {
  return termsOf(text).join(' ');
}
