/**
 * How text becomes terms, for every part of search: indexing, query building, highlighting, spelling and
 * autocomplete all take their words and terms from here, and the Elasticsearch analyzers are generated from the same
 * definitions (see elasticsearch.ts). Pure: no I/O.
 *
 * - A word is a run of letters, digits and marks (`\p{L}`, `\p{N}`, `\p{M}`, private-use `\p{Co}`); every other
 *   character separates words.
 * - Folding decomposes text (NFKD: compatibility forms such as `ﬁ` and `①` become `fi` and `1`), drops every mark (so
 *   `é` is `e`) and lower-cases it.
 * - The terms of a text are the words of its folding, each cut to MAX_TERM_LENGTH characters. A word's terms are
 *   those of the word alone: usually one, but a compatibility form can decompose into several (`⑴` becomes `(1)`,
 *   two separators and a term) and a symbol into a term (`™` becomes `tm`).
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
// eslint-disable-next-line no-control-regex -- the class is the whole ASCII range
const NON_ASCII = /[^\u0000-\u007f]+/g;
/** A word of folded text, which holds no marks. */
const FOLDED_WORD = /[\p{L}\p{N}\p{Co}]+/gu;
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

/**
 * Text folded: decomposed (NFKD), marks dropped, lower-cased. Separators stay where they are. Only runs of non-ASCII
 * characters are decomposed: decomposing leaves ASCII as it is, and a whole decomposed text is a two-byte string, which
 * every later regular expression reads at several times the cost.
 */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  return ASCII.test(lower) ? lower : lower.replace(NON_ASCII, foldRun);
}

/** A run of non-ASCII characters folded; lower-cased again, as decomposing can give capitals (`ℌ` is `H`). */
function foldRun(run: string): string {
  return run.normalize('NFKD').replace(MARKS, '').toLowerCase();
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

/**
 * The terms of a text, in order, repeats kept (a term's position is its place in this list): the words of fold(text),
 * each cut. Read as segments — runs of ASCII letters and digits and non-ASCII characters, between which folding
 * changes nothing — so that only a segment holding a non-ASCII character is folded and split again: most text is
 * ASCII, and a folded whole text is a two-byte string that regular expressions read at several times the cost.
 */
export function termsOf(text: string): string[] {
  const lower = text.toLowerCase();
  const terms: string[] = [];
  let start = -1;
  let plain = true;
  for (let at = 0; at <= lower.length; at++) {
    const code = at < lower.length ? lower.charCodeAt(at) : 0x20;
    if (code >= 0x80 || (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) {
      if (start < 0) {
        start = at;
        plain = true;
      }
      if (code >= 0x80) plain = false;
    } else if (start >= 0) {
      const segment = lower.slice(start, at);
      if (plain) terms.push(segment.length > MAX_TERM_LENGTH ? cut(segment) : segment);
      else for (const term of foldedTerms(segment)) terms.push(term);
      start = -1;
    }
  }
  return terms;
}

/**
 * The terms of a segment holding a non-ASCII character, remembered: the same accented words come back in every
 * document, and folding one costs a hundred times more than reading a plain one. Forgotten all at once when full.
 */
const foldedSegments = new Map<string, readonly string[]>();
const FOLDED_SEGMENTS_KEPT = 50_000;

function foldedTerms(segment: string): readonly string[] {
  let terms = foldedSegments.get(segment);
  if (terms === undefined) {
    terms = (foldRun(segment).match(FOLDED_WORD) ?? []).map(cut);
    if (foldedSegments.size >= FOLDED_SEGMENTS_KEPT) foldedSegments.clear();
    // A copy as the key: a slice of a long segment would keep the whole text it was cut from alive.
    foldedSegments.set(` ${segment}`.slice(1), terms);
  }
  return terms;
}

/** The terms of one word: termsOf the word alone (none for a word of marks only). */
export function termsOfWord(word: string): string[] {
  return termsOf(word);
}

/** The terms of a text joined by single spaces: what a full-text engine indexes (see the note above). */
export function indexedText(text: string): string {
  return termsOf(text).join(' ');
}
