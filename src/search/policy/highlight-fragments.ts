import { escapeHtml } from '../../html-escape.js';
import { termsOfWord, WORD_SOURCE } from '../analysis/index.js';
import type { MatchSource } from './highlight-matches.js';

/** Which parts of a text show the query's words: body fragments, a beginning, a title, as escaped HTML with `<mark>`. */

/** Options of body fragment selection. */
export interface FragmentOptions {
  /** Fragments to return at most. @default 3 */
  fragments?: number;
  /** Approximate fragment length in characters. @default 120 */
  length?: number;
}

export const FRAGMENT_DEFAULTS = { fragments: 3, length: 120 } satisfies Required<FragmentOptions>;

/**
 * Fragments showing words not shown yet are looked for this far into a text: a query word that a long body lacks
 * (a title match) would otherwise have the whole body read for it. Past it, fragments follow the matches in order.
 */
export const NEW_WORDS_WITHIN = 8192;

const WORD = new RegExp(WORD_SOURCE, 'gu');
const SPACE = /\s/;

/** A cut position near `index` on a space within `slack` characters (searching in `direction`), never inside a surrogate pair. */
function boundary(text: string, index: number, direction: -1 | 1, slack: number): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  for (let step = 0; step <= slack; step++) {
    const at = index + direction * step;
    if (at <= 0 || at >= text.length) return Math.max(0, Math.min(text.length, at));
    if (SPACE.test(text[at] as string)) return direction === 1 ? at : at + 1;
  }
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff ? index + direction : index;
}

/** A window as HTML, with `…` where the text goes on before or after it (`more`: the text goes on past its end). */
function render(plain: string, matches: readonly (readonly [number, number])[], start: number, end: number, more = false): string {
  let html = start > 0 ? '…' : '';
  let at = start;
  for (const [matchStart, matchEnd] of matches) {
    if (matchEnd <= start || matchStart >= end) continue;
    const from = Math.max(matchStart, start);
    const to = Math.min(matchEnd, end);
    html += `${escapeHtml(plain.slice(at, from))}<mark>${escapeHtml(plain.slice(from, to))}</mark>`;
    at = to;
  }
  html += escapeHtml(plain.slice(at, end).trimEnd());
  return end < plain.length || more ? `${html}…` : html;
}

/**
 * The query's words as the first pass of fragment selection looks for them: a word is shown once a window shows one
 * of its terms (the word, or what stands for it: a spelling neighbour, an identifier's parts). Once every word is
 * shown, the first pass stops; a word no term of which is in the text has it read as far as NEW_WORDS_WITHIN.
 */
export type ShownWords = readonly ReadonlySet<string>[];

/** Each term a word of its own (see ShownWords). */
export function eachTermAWord(terms: Iterable<string>): ShownWords {
  return [...terms].map((term) => new Set([term]));
}

/**
 * Up to `fragments` windows of about `length` characters around matched words of a text (see matchWords), as
 * HTML-escaped text whose only markup is `<mark>…</mark>`. Windows showing a word not shown yet come first; they are
 * returned in text order and never overlap. `more`: the text is a beginning cut before a space, and a window that
 * reaches its end ends with `…` as one inside the text does.
 */
export function fragmentsOf(source: MatchSource, options: FragmentOptions = {}, words?: ShownWords, more = false): string[] {
  return fragmentWindows(source, options, words).map(([start, end]) => render(source.text, source.found, start, end, more));
}

/**
 * `fragmentsOf` for a text known by its beginning only: `source.text`, cut on a space so that no word is cut. The
 * fragments are those of the whole text when selecting them never read as far as the cut, and no fragment reaches it
 * (one that does would end there without its `…`): the cut is a space, so every chunk, word and window before it is
 * the same in the whole text. Otherwise undefined, and the caller highlights the whole text.
 */
export function fragmentsOfBeginning(source: MatchSource, options: FragmentOptions = {}, words?: ShownWords): string[] | undefined {
  const windows = fragmentWindows(source, options, words);
  const settled = !source.exhausted && windows.every(([, end]) => end < source.text.length);
  return settled ? windows.map(([start, end]) => render(source.text, source.found, start, end)) : undefined;
}

/** The fragments to return at most and their length, resolved from the options. */
export function fragmentSettings(options: FragmentOptions): { count: number; length: number } {
  return {
    count: Math.max(0, Math.trunc(options.fragments ?? FRAGMENT_DEFAULTS.fragments)),
    length: Math.max(20, Math.trunc(options.length ?? FRAGMENT_DEFAULTS.length)),
  };
}

/**
 * The beginning of a text that fragmentsOfBeginning takes: its first `characters`, cut before the last space among
 * them so that no word is cut (empty when there is none); the whole text when it is no longer.
 */
export function beginningOf(text: string, characters: number): string {
  if (text.length <= characters) return text;
  let cut = characters;
  while (cut > 0 && !SPACE.test(text[cut] as string)) cut--;
  return text.slice(0, cut);
}

/** The [start, end) windows of fragmentsOf, in text order. */
function fragmentWindows(source: MatchSource, options: FragmentOptions, words: ShownWords | undefined): [number, number][] {
  const { count, length } = fragmentSettings(options);
  const plain = source.text;
  if (count === 0 || source.at(0) === undefined) return [];
  const windows: [number, number][] = [];
  const shown = new Set<string>();
  const shownTerms = new Set<string>();
  const lead = Math.floor(length / 4);
  const slack = Math.floor(length / 6);
  const covered = (position: number) => windows.some(([start, end]) => position >= start && position < end);
  const place = (matchStart: number, matchEnd: number) => {
    const start = boundary(plain, matchStart - lead, -1, slack);
    const end = Math.max(matchEnd, boundary(plain, start + length, 1, slack));
    const previous = windows.filter(([, windowEnd]) => windowEnd <= matchStart).reduce((max, [, windowEnd]) => Math.max(max, windowEnd), 0);
    const next = windows.filter(([windowStart]) => windowStart >= matchEnd).reduce((min, [windowStart]) => Math.min(min, windowStart), plain.length);
    const window: [number, number] = [Math.max(start, previous), Math.min(end, next)];
    windows.push(window);
    source.scanTo(window[1]);
    for (const [from, to] of source.found) {
      if (from < window[0] || to > window[1]) continue;
      shown.add(plain.slice(from, to).toLowerCase());
      if (words !== undefined) for (const word of plain.slice(from, to).match(WORD) ?? []) for (const term of termsOfWord(word)) shownTerms.add(term);
    }
  };
  const isShown = (word: ReadonlySet<string>) => {
    for (const term of word) if (shownTerms.has(term)) return true;
    return false;
  };
  const allShown = () => words !== undefined && words.every(isShown);
  for (const pass of ['new words', 'in order'] as const) {
    for (let i = 0; windows.length < count; i++) {
      // Every word the query can mark is shown: what is left of the first pass could only repeat them.
      if (pass === 'new words' && allShown()) break;
      const match = source.at(i, pass === 'new words' ? NEW_WORDS_WITHIN : plain.length);
      if (match === undefined) break;
      const [matchStart, matchEnd] = match;
      if (covered(matchStart)) continue;
      if (pass === 'new words' && shown.has(plain.slice(matchStart, matchEnd).toLowerCase())) continue;
      place(matchStart, matchEnd);
    }
  }
  return windows.sort((a, b) => a[0] - b[0]);
}

/** The whole of a short text (a title) as escaped HTML with `<mark>`; empty when nothing matched. */
export function titleOf(source: MatchSource): string[] {
  source.scanTo(source.text.length);
  return source.found.length === 0 ? [] : [render(source.text, source.found, 0, source.text.length)];
}

const MARKUP = /<\/?mark>/g;

/** Whether an HTML fragment is escaped text with only `<mark>` and `</mark>` tags (what the search page checks before inserting it). */
export function isSafeFragment(html: string): boolean {
  return !/[<>"']/.test(html.replace(MARKUP, '')) && !/&(?!(?:amp|lt|gt|quot|#39);)/.test(html);
}
