import { breaksOf } from './scripts.js';
import { forEachGroup, type Group } from './split.js';
import { HASH_SEED, TermTable, hashStep } from './term-table.js';

/**
 * How text becomes terms, for every part of search: indexing, query building, highlighting, spelling and
 * autocomplete all take their words and terms from here, and the Elasticsearch analyzers are generated from the same
 * definitions (see engines/elasticsearch/analysis-settings.ts). Pure: no I/O.
 *
 * - A word is a run of letters, digits and marks (`\p{L}`, `\p{N}`, `\p{M}`, private-use `\p{Co}`); every other
 *   character separates words.
 * - Folding decomposes text (NFKD: compatibility forms such as `ﬁ` and `①` become `fi` and `1`), drops every mark (so
 *   `é` is `e`) and lower-cases it.
 * - Words joined into identifiers are split as split.ts says: an identifier gives its whole and its parts. Each
 *   piece's terms are the words of its folding (usually one; a compatibility form can decompose into several, as `⑴`
 *   becomes `(1)`). Every term is cut to MAX_TERM_LENGTH characters.
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

/** The words of a text, in order, cut at the breaks of scripts.ts (`国际化` is `国际`, `化`). */
export function* wordsOf(text: string): Generator<Word> {
  const breaks = breaksOf(text);
  let next = 0;
  for (const match of text.matchAll(WORD)) {
    let start = match.index;
    const end = start + match[0].length;
    while (next < breaks.length && (breaks[next] as number) <= start) next++;
    for (; next < breaks.length && (breaks[next] as number) < end; next++) {
      const at = breaks[next] as number;
      yield { text: text.slice(start, at), start, end: at };
      start = at;
    }
    yield { text: start === match.index ? match[0] : text.slice(start, end), start, end };
  }
}

/**
 * Whether each UTF-16 unit, taken as a character alone, is part of a word: 0 not known yet, then WORD_UNIT or
 * NOT_WORD_UNIT. The highlighter asks it of every character around each place a query word is found, and a run of
 * Chinese is read again and again: a regular expression per character was a tenth of highlighting it.
 */
const WORD_UNITS = new Uint8Array(0x10000);
const WORD_UNIT = 1;
const NOT_WORD_UNIT = 2;

/** Whether a character is part of a word. */
export function isWordCharacter(character: string | undefined): boolean {
  if (character === undefined) return false;
  const code = character.charCodeAt(0);
  if (code < 0x80) return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
  if (character.length !== 1) return WORD_CHARACTER.test(character);
  let known = WORD_UNITS[code] as number;
  if (known === 0) {
    known = WORD_CHARACTER.test(character) ? WORD_UNIT : NOT_WORD_UNIT;
    WORD_UNITS[code] = known;
  }
  return known === WORD_UNIT;
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

/** The folded terms of a piece of text (see split.ts): ASCII lower-cased, anything else folded. */
function pieceTerms(piece: string, ascii: boolean): readonly string[] {
  return ascii ? [cut(piece.toLowerCase())] : (foldRun(piece.toLowerCase()).match(FOLDED_WORD) ?? []).map((term) => oneByteWherePossible(cut(term)));
}

// eslint-disable-next-line no-control-regex -- the class is the whole Latin-1 range
const LATIN1 = /^[\u0000-\u00ff]*$/;

/**
 * A term made by folding, as V8's one-byte string when every character is Latin-1. Decomposing makes a two-byte
 * string even where the marks it split off are then dropped (`tréma` is `trema` in two bytes a character), and one
 * such term makes the whole of a page's joined terms two-byte: twice the bytes to copy to the writing thread and
 * slower to convert for SQLite. `String.fromCharCode` builds one-byte strings while it can.
 */
function oneByteWherePossible(term: string): string {
  if (!LATIN1.test(term)) return term;
  const codes: number[] = [];
  for (let i = 0; i < term.length; i++) codes.push(term.charCodeAt(i));
  return String.fromCharCode(...codes);
}

/** The groups of a text (see split.ts), their terms cut to MAX_TERM_LENGTH; the first `limit` only, when given. */
export function groupsOf(text: string, limit = Number.POSITIVE_INFINITY): Group[] {
  const groups: Group[] = [];
  forEachGroup(text, pieceTerms, (group) => {
    if (groups.length < limit) groups.push(group.parts.length === 0 ? group : { ...group, whole: cut(group.whole), parts: group.parts.map(cut), pieces: group.pieces.map(cut) });
  });
  return groups;
}

/** What reads the terms of a text as scanTerms finds them. */
export interface TermSink {
  /**
   * A plain word: `text.slice(start, end)`, its first character lower-cased when `capital`, is the term (at most
   * MAX_TERM_LENGTH characters); `hash` is its hashOf (see term-table.ts), computed while it was read.
   */
  word(text: string, start: number, end: number, capital: boolean, hash: number): void;
  /** Any other term. */
  term(term: string): void;
}

/**
 * Reads the terms of a text, in order, repeats kept (a term's position is its place in this order): each group's
 * whole, then its parts (see split.ts). Most groups are one plain word of ASCII letters with no case change inside:
 * they are read here, and only the others go through forEachGroup.
 */
export function scanTerms(text: string, sink: TermSink): void {
  const length = text.length;
  let at = 0;
  while (at < length) {
    let code = text.charCodeAt(at);
    let kind = code < 0x80 ? (ASCII_KINDS[code] as number) : OTHER;
    if (kind <= CONNECTOR) {
      at++;
      continue;
    }
    const start = at;
    // A plain word has no capital after its first character: only a word that starts with one is lower-cased.
    const capital = kind === UPPER;
    let plain = kind !== OTHER;
    let previousDigit = kind === DIGIT;
    let hash = hashStep(HASH_SEED, capital ? code | 0x20 : code);
    for (at++; ; at++) {
      // Most characters are lower-case letters inside a word: a loop of their own, with one range test each.
      const letters = at;
      while (at < length) {
        code = text.charCodeAt(at);
        if (code - 0x61 >>> 0 > 25) break;
        hash = hashStep(hash, code);
        at++;
      }
      // Letters end a run of digits.
      if (at > letters && previousDigit) {
        plain = false;
        previousDigit = false;
      }
      if (at >= length) break;
      kind = code < 0x80 ? (ASCII_KINDS[code] as number) : OTHER;
      if (kind === SEPARATOR) break;
      if (kind === CONNECTOR) {
        if (at + 1 < length && inGroup(text.charCodeAt(at + 1))) {
          plain = false;
          continue;
        }
        if (code === 0x3a && text.charCodeAt(at + 1) === 0x3a) {
          plain = false;
          continue;
        }
        break;
      }
      if (kind !== DIGIT || !previousDigit) plain = false;
      previousDigit = kind === DIGIT;
      hash = hashStep(hash, code);
    }
    if (plain && at - start <= MAX_TERM_LENGTH) sink.word(text, start, at, capital, hash);
    else if (plain) sink.term(cut(text.slice(start, at).toLowerCase()));
    else for (const term of splitTerms(text, start, at, hash)) sink.term(term);
  }
}

/** The terms of a text as a list (see scanTerms). */
class TermList implements TermSink {
  readonly terms: string[] = [];

  word(text: string, start: number, end: number, capital: boolean): void {
    this.terms.push(capital ? text.slice(start, end).toLowerCase() : text.slice(start, end));
  }

  term(term: string): void {
    this.terms.push(term);
  }
}

/** The terms of a text, in order, repeats kept (see scanTerms). */
export function termsOf(text: string): string[] {
  const list = new TermList();
  scanTerms(text, list);
  return list.terms;
}

/**
 * The runs of text that are not one plain word (see termsOf) split once: the same identifiers and accented words come
 * back in every document, and splitting and folding one costs a hundred times more than reading a plain word. A run
 * is found in a term table by its characters where it stands, with the hash scanTerms computed while reading it (any
 * function of the characters serves), without cutting it out of the text first. Forgotten all at once when full.
 */
const RUNS = new TermTable({ maxTerms: 50_000 });
/** The terms of each run of RUNS, by id, for its generation `runsGeneration`. */
let runTerms: (readonly string[] | undefined)[] = [];
let runsGeneration = RUNS.generation;

function splitTerms(text: string, start: number, end: number, hash: number): readonly string[] {
  RUNS.makeRoom();
  if (RUNS.generation !== runsGeneration) {
    runTerms = [];
    runsGeneration = RUNS.generation;
  }
  const id = RUNS.word(text, start, end, false, hash);
  let terms = runTerms[id];
  if (terms === undefined) {
    // Ids come in order: filled up to this one, the array stays a plain list rather than a sparse one.
    while (runTerms.length < id) runTerms.push(undefined);
    // The table holds the run's own copy, never a view of the text it was read from.
    const found: string[] = [];
    forEachGroup(RUNS.term(id), pieceTerms, (group) => {
      found.push(group.parts.length === 0 ? group.whole : cut(group.whole));
      for (const part of group.parts) found.push(cut(part));
    });
    terms = found;
    runTerms[id] = terms;
  }
  return terms;
}

/**
 * What an ASCII character is to termsOf, by its code: one lookup instead of a range test per kind. Every character
 * from 0x80 on is OTHER. SEPARATOR and CONNECTOR come first: neither starts a group.
 */
const SEPARATOR = 0;
const CONNECTOR = 1;
const LOWER = 2;
const UPPER = 3;
const DIGIT = 4;
const OTHER = 5;
const ASCII_KINDS = new Uint8Array(0x80).map((_, code) => {
  if (code >= 0x61 && code <= 0x7a) return LOWER;
  if (code >= 0x41 && code <= 0x5a) return UPPER;
  if (isDigit(code)) return DIGIT;
  return isConnector(code) ? CONNECTOR : SEPARATOR;
});

/** Whether a character may stand in a group: an ASCII letter or digit, or any non-ASCII character (forEachGroup decides). */
function inGroup(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code >= 0x80;
}

function isConnector(code: number): boolean {
  return code === 0x2e || code === 0x5f || code === 0x2d || code === 0x3a;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** The terms of one word or identifier: termsOf it alone (none for a word of marks only). */
export function termsOfWord(word: string): string[] {
  return termsOf(word);
}

/** The terms of a text joined by single spaces: what a full-text engine indexes (see the note above). */
export function indexedText(text: string): string {
  return termsOf(text).join(' ');
}
