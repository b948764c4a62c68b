/**
 * Pure text policy shared by the engines: how user text becomes words, how words become a safe full-text expression,
 * how titles are keyed for prefix lookups, and how highlight fragments are escaped. No I/O.
 */

/** Words of at most this many characters are kept; longer runs are cut (no real word is longer). */
export const MAX_WORD_LENGTH = 64;
/** At most this many words of a query are used. */
export const MAX_QUERY_WORDS = 32;

const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/**
 * Splits user text into the words the full-text engine indexes: runs of letters, digits and marks, everything else a
 * separator. Case is kept (the engines fold it). The result never contains quotes, operators or whitespace, so a word
 * can be quoted safely.
 */
export function tokenize(text: string): string[] {
  const words: string[] = [];
  for (const match of text.normalize('NFC').matchAll(WORD)) {
    words.push(Array.from(match[0]).slice(0, MAX_WORD_LENGTH).join(''));
    if (words.length === MAX_QUERY_WORDS) break;
  }
  return words;
}

export interface MatchExpressionOptions {
  /** Match the last word as a prefix (`"word"*`), for search-as-you-type. @default false */
  prefixLast?: boolean;
}

/**
 * An FTS5 MATCH expression requiring every word: each word is a quoted string, so no FTS5 syntax (operators, column
 * filters, NEAR, `*`, `^`) from the user ever reaches the engine. Returns undefined when there is no word.
 */
export function matchExpression(words: readonly string[], options: MatchExpressionOptions = {}): string | undefined {
  if (words.length === 0) return undefined;
  const quoted = words.map((word) => `"${word.replaceAll('"', '""')}"`);
  if (options.prefixLast === true) quoted[quoted.length - 1] += '*';
  return quoted.join(' ');
}

/** A title or query folded for prefix comparison: diacritics removed, lower case, single spaces. */
export function foldForPrefix(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
// eslint-disable-next-line no-control-regex -- as above
const HAS_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * Removes control characters (other than tab and line breaks) from text before it is stored. Text rarely holds any,
 * and testing for one costs half of a replace that finds none.
 */
export function withoutControlCharacters(text: string): string {
  return HAS_CONTROL.test(text) ? text.replace(CONTROL, ' ') : text;
}

