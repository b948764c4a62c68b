import { segmentStarts } from './segmented-runs.js';

/**
 * Words in scripts written without spaces between them (Han, Hiragana and Katakana, Thai, Lao, Khmer, Myanmar), and
 * scripts glued to others (a Latin name followed by Korean). Pure: no I/O.
 *
 * A **break** is a place between two word characters where a word ends although no separator stands there:
 * - where the script changes between two word characters and one of them is of a script named here (`Next.js인가`
 *   breaks before `인`, `npmをインストール` before `を`);
 * - inside a run of one script written without spaces, where `Intl.Segmenter` ends a word (`国际化` is `国际`, `化`).
 *
 * The segmenter's locale is fixed rather than the page's or the query's: ICU segments every locale of a script with
 * the same dictionary, and a fixed one guarantees that a page and a query in different locales (a `zh-TW` reader
 * searching every locale) cut the same run the same way (see segmented-runs.ts). The index and the query both take
 * their words from here.
 */

/** Classes of word characters: a run of one class is never broken by a script change. */
const enum Script {
  None,
  ChineseJapanese,
  Hangul,
  Thai,
  Lao,
  Khmer,
  Myanmar,
}

/** The classes whose runs Intl.Segmenter cuts into words (Hangul is written with spaces). */
const SEGMENTED = new Set<Script>([Script.ChineseJapanese, Script.Thai, Script.Lao, Script.Khmer, Script.Myanmar]);

/** Han and Kana are one class: Japanese mixes them inside a word (`使う`), and the segmenter's dictionary knows both. */
const CLASSES: readonly (readonly [RegExp, Script])[] = [
  [/[\p{scx=Han}\p{scx=Hira}\p{scx=Kana}]/u, Script.ChineseJapanese],
  [/\p{scx=Hang}/u, Script.Hangul],
  [/\p{scx=Thai}/u, Script.Thai],
  [/\p{scx=Laoo}/u, Script.Lao],
  [/\p{scx=Khmr}/u, Script.Khmer],
  [/\p{scx=Mymr}/u, Script.Myanmar],
];

/** One character of any of the classes of `kinds`. */
function anyOf(kinds: (kind: Script) => boolean): RegExp {
  return new RegExp(`[${CLASSES.filter(([, kind]) => kinds(kind)).map(([pattern]) => pattern.source.replace(/^\[|\]$/g, '')).join('')}]`, 'u');
}

/** Whether a text may hold a break: one test, so that text of other scripts costs a scan and nothing more. */
const ANY_CLASS = anyOf(() => true);
const SEGMENTED_SCRIPT = anyOf((kind) => SEGMENTED.has(kind));
const WORD_CHARACTER = /^[\p{L}\p{N}\p{M}\p{Co}]$/u;
const MARK = /^\p{M}$/u;
/** Below the first of the scripts named here, every character is of no class. */
const FIRST_CODE = 0x0e00;

const NO_BREAKS: readonly number[] = [];

/**
 * What a character is to breaksOf, by code point: not a word character, a mark of no class here (of the class of
 * the character it follows), or a word character of a class (its class + FIRST_CLASS). Looked up once per character
 * of the Basic Multilingual Plane and kept: a run of Chinese reads the same characters again and again.
 */
const UNKNOWN = 0;
const NOT_WORD = 1;
const MARK_OF_NO_CLASS = 2;
const FIRST_CLASS = 3;
const BMP = new Uint8Array(0x10000);

function kindOf(code: number): number {
  if (code >= 0x10000) return computeKind(code);
  let kind = BMP[code] as number;
  if (kind === UNKNOWN) {
    kind = computeKind(code);
    BMP[code] = kind;
  }
  return kind;
}

function computeKind(code: number): number {
  const character = String.fromCodePoint(code);
  if (!WORD_CHARACTER.test(character)) return NOT_WORD;
  if (code >= FIRST_CODE) for (const [pattern, kind] of CLASSES) if (pattern.test(character)) return kind + FIRST_CLASS;
  return MARK.test(character) ? MARK_OF_NO_CLASS : Script.None + FIRST_CLASS;
}

/** Whether a word holds a character of a script Intl.Segmenter cuts into words (Hangul, written with spaces, is not one). */
export function isSegmentedScript(word: string): boolean {
  return SEGMENTED_SCRIPT.test(word);
}

/** Whether a text holds a character of a script named here (when it does not, it has no breaks). */
export function hasBreakingScript(text: string): boolean {
  return ANY_CLASS.test(text);
}

/** The breaks of a text (UTF-16 offsets, ascending): where a word ends between two word characters. */
export function breaksOf(text: string): readonly number[] {
  if (!hasBreakingScript(text)) return NO_BREAKS;
  const breaks: number[] = [];
  let runStart = -1;
  let runClass: Script = Script.None;
  let afterWord = false;
  const endRun = (end: number) => {
    if (runStart >= 0 && SEGMENTED.has(runClass)) {
      for (const start of segmentStarts(text.slice(runStart, end))) breaks.push(runStart + start);
    }
    runStart = -1;
  };
  for (let at = 0; at < text.length; ) {
    const code = text.codePointAt(at) as number;
    const found = kindOf(code);
    if (found === NOT_WORD) {
      endRun(at);
      runClass = Script.None;
      afterWord = false;
    } else {
      const kind: Script = found === MARK_OF_NO_CLASS ? runClass : found - FIRST_CLASS;
      if (runStart >= 0 && kind !== runClass) {
        endRun(at);
        breaks.push(at);
      } else if (runStart < 0 && afterWord && kind !== runClass) {
        breaks.push(at);
      }
      if (runStart < 0 && kind !== Script.None) runStart = at;
      runClass = kind;
      afterWord = true;
    }
    at += code >= 0x10000 ? 2 : 1;
  }
  endRun(text.length);
  return breaks.length > 1 ? [...new Set(breaks)].sort((a, b) => a - b) : breaks;
}

/**
 * The character an engine that cannot segment text itself (Elasticsearch without plugins) is sent at every break:
 * zero width space, which no word holds, so a tokenizer of words (WORD_SOURCE) ends a word there, while the text
 * still reads as it did and offsets for highlighting stay in the text the engine stored.
 */
export const WORD_BREAK = '\u200b';
/** WORD_BREAK as a regular expression source, the same in JS and in Java. */
export const WORD_BREAK_SOURCE = '\\u200B';
const WORD_BREAKS = new RegExp(WORD_BREAK_SOURCE, 'gu');

/** A text with WORD_BREAK inserted at each of its breaks; the text itself when it has none. */
export function withWordBreaks(text: string): string {
  const breaks = breaksOf(text);
  if (breaks.length === 0) return text;
  let joined = '';
  let from = 0;
  for (const at of breaks) {
    joined += text.slice(from, at) + WORD_BREAK;
    from = at;
  }
  return joined + text.slice(from);
}

/** A text an engine gives back without the WORD_BREAKs withWordBreaks put in. */
export function withoutWordBreaks(text: string): string {
  return text.includes(WORD_BREAK) ? text.replace(WORD_BREAKS, '') : text;
}
