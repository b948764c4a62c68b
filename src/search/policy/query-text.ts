/**
 * Pure query policy of the embedded engine: how terms (see analysis/) become a safe FTS5 expression, and what stored
 * text is cleaned of. No I/O.
 */

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

