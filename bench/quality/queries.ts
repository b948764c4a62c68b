import { identifierParts, identifierSegments, isIdentifier, kindOf, otherForms } from '../corpus/quality-corpus.js';

/**
 * How the search-quality suite derives its queries from a page, by general rules only (no query is picked by hand):
 * the whole title; the title with one typo; the title with one word in another inflection that the page never uses;
 * and parts of a title that is a code identifier. Pure.
 */

/**
 * Text folded as a reader would compare words: compatibility forms decomposed, marks dropped, lower-cased, and the
 * typographic apostrophes written as `'` (French `d’une` and `d'une` are one word to a reader and to the engine).
 */
export function foldWord(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[\u2018\u2019\u02bc]/gu, "'").toLowerCase();
}

/**
 * Every word of a page's text, folded, and the parts of every word that is a code name (`getElementById` gives
 * `getelementbyid`, `get`, `element`, `by`, `id`): a word form counts as used by the page if it is any of these.
 */
export function pageWords(...texts: string[]): Set<string> {
  const words = new Set<string>();
  for (const text of texts) {
    for (const [word] of text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
      words.add(foldWord(word));
      for (const part of identifierParts(word)) words.add(foldWord(part));
    }
  }
  return words;
}

export type TypoKind = 'deletion' | 'transposition' | 'substitution' | 'insertion';

export interface TypoQuery {
  text: string;
  kind: TypoKind;
  /** The title's word as written, and as misspelt. */
  word: string;
  typo: string;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const isWordCharacter = (character: string | undefined) => character !== undefined && /[\p{L}\p{N}]/u.test(character);

/**
 * The title with one edit — deletion, transposition of two neighbours, substitution (a letter by a letter, a digit by a
 * digit) or insertion of a letter — in one of its space-separated words of 4 or more letters and digits (`rabin2` →
 * `rbin2`). An edit that leaves a word for which `known` holds (a word of the corpus, such as another inflection or
 * another page's name) is drawn again; undefined when the title has no such word or no edit qualifies in 20 draws.
 * Letters substituted or inserted come from `alphabet` (the locale's, for a Cyrillic or accented title).
 */
export function typoQuery(title: string, random: () => number, known: (folded: string) => boolean, alphabet: string = LETTERS): TypoQuery | undefined {
  const words = title.split(' ');
  const candidates = words
    .map((word, index) => ({ word, index, positions: Array.from(word).flatMap((character, at) => (isWordCharacter(character) ? [at] : [])) }))
    .filter(({ positions }) => positions.length >= 4);
  if (candidates.length === 0) return undefined;
  const draw = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  for (let attempt = 0; attempt < 20; attempt++) {
    const { word, index, positions } = draw(candidates);
    const characters = Array.from(word);
    const at = draw(positions);
    const kind = draw<TypoKind>(['deletion', 'transposition', 'substitution', 'insertion']);
    const original = characters[at] as string;
    if (kind === 'deletion') {
      characters.splice(at, 1);
    } else if (kind === 'transposition') {
      const next = characters[at + 1];
      if (!isWordCharacter(next) || foldWord(next as string) === foldWord(original)) continue;
      [characters[at], characters[at + 1]] = [next as string, original];
    } else if (kind === 'substitution') {
      const letters = (/\p{N}/u.test(original) ? DIGITS : alphabet).replace(foldWord(original), '');
      const replacement = draw(Array.from(letters));
      characters[at] = original === original.toUpperCase() && original !== original.toLowerCase() ? replacement.toUpperCase() : replacement;
    } else {
      characters.splice(at + (random() < 0.5 ? 0 : 1), 0, draw(Array.from(alphabet)));
    }
    const typo = characters.join('');
    if (foldWord(typo) === foldWord(word) || known(foldWord(typo))) continue;
    const text = [...words.slice(0, index), typo, ...words.slice(index + 1)].join(' ');
    return { text, kind, word, typo };
  }
  return undefined;
}

export interface WordFormQuery {
  text: string;
  word: string;
  form: string;
}

/**
 * The title with one of its words (an inflection of the English vocabulary of quality-words.ts) turned into another
 * inflection of the same word — plural or singular, -s, -ed, -ing — that `used` (the page's words, see pageWords)
 * does not hold. Undefined when no word of the title has such a form.
 */
export function wordFormQuery(title: string, used: ReadonlySet<string>, random: () => number): WordFormQuery | undefined {
  const words = title.split(' ');
  const choices = words.flatMap((word, index) =>
    /^\p{L}+$/u.test(word) ? otherForms(word).filter((form) => !used.has(form)).map((form) => ({ word, index, form })) : [],
  );
  const choice = choices[Math.floor(random() * choices.length)];
  if (choice === undefined) return undefined;
  const { word, index, form } = choice;
  const written = word.charAt(0) === word.charAt(0).toUpperCase() ? form.charAt(0).toUpperCase() + form.slice(1) : form;
  return { text: [...words.slice(0, index), written, ...words.slice(index + 1)].join(' '), word, form };
}

export type IdentifierRule = 'all parts' | 'lower-cased' | 'without the first part' | 'first and last names';

export interface IdentifierQuery {
  text: string;
  rule: IdentifierRule;
}

/**
 * Queries of the parts of a title that is a code identifier, lower-cased and separated by spaces, by its style:
 *
 * - every style: all its parts (`get element by id`, `array prototype map`, `svg 2 png`);
 * - camelCase and PascalCase: the name lower-cased (`getelementbyid`), and with 3 parts or more, all but the first
 *   (`element by id`);
 * - snake_case and `ns::name` of 3 parts or more: all but the first (`header value`, `unordered map`);
 * - dotted names of 3 names or more: the first and the last (`array map`, `os join`).
 *
 * Empty for a title that is not an identifier or has fewer than 2 parts. Queries are distinct.
 */
export function identifierQueries(title: string): IdentifierQuery[] {
  if (!isIdentifier(title)) return [];
  const parts = identifierParts(title);
  if (parts.length < 2) return [];
  const queries: IdentifierQuery[] = [{ text: parts.join(' '), rule: 'all parts' }];
  const kind = kindOf(title);
  if (kind === 'camelCase' || kind === 'PascalCase') queries.push({ text: title.toLowerCase(), rule: 'lower-cased' });
  if ((kind === 'camelCase' || kind === 'PascalCase' || kind === 'snake_case' || kind === 'namespaced') && parts.length >= 3) {
    queries.push({ text: parts.slice(1).join(' '), rule: 'without the first part' });
  }
  const segments = identifierSegments(title);
  if (kind === 'dotted' && segments.length >= 3) {
    queries.push({ text: [...(segments[0] ?? []), ...(segments.at(-1) ?? [])].join(' ').toLowerCase(), rule: 'first and last names' });
  }
  const seen = new Set<string>();
  return queries.filter(({ text }) => !seen.has(text) && seen.add(text) !== undefined);
}
