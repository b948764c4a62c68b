import { beginsPiece, fold, hasBreakingScript, isWordCharacter, termsOfWord, WORD_SOURCE, wordsOf } from '../analysis/index.js';
import { CandidatePlaces } from './highlight-candidates.js';
import { composedNeedle, isConjoiningJamo, isHangulSyllable } from './highlight-hangul.js';
import { KEPT_PER_MATCHER, memoOf } from './highlight-memo.js';

/** Where the words of a query lie in a text, found as far as fragment selection asks (see highlight-fragments.ts). */

/**
 * The matched ranges of a text, in order, as [start, end), found as far as asked: `at(i, before)` is the i-th range
 * once it is final (undefined past the last, or when it would start at `before` or later: the text is then read no
 * further than that), `scanTo(position)` makes every range starting before `position` final. Fragment
 * selection asks for what it places, so a long body is only read up to its last fragment when it can be.
 */
export interface MatchSource {
  readonly text: string;
  at(i: number, before?: number): readonly [number, number] | undefined;
  scanTo(position: number): void;
  /** The ranges found so far (all of them once `scanTo(text.length)` was called). */
  readonly found: readonly (readonly [number, number])[];
  /** Whether the text was read to its end. */
  readonly exhausted: boolean;
  /** How far the text was read: every range starting before this is found. */
  readonly read: number;
}

/** Which words of a text to mark: a word is marked when one of its terms (see analysis/) is named here. */
export interface TermMatcher {
  /** Terms marked. */
  terms: ReadonlySet<string>;
  /** Prefixes of terms: a word with a term starting with one is marked (an unfinished last word). */
  prefixes?: readonly string[];
  /**
   * Other forms of the query's words: `matches` says whether a term is one (its stem is a query word's), `anchors`
   * are beginnings such forms share, where they are looked for.
   */
  otherForms?: { anchors: readonly string[]; matches: (term: string) => boolean };
}

/** Where a chunk may end without cutting a word: a space, or punctuation (text of Chinese or Japanese has no spaces). */
const CHUNK_END = /[\s\p{P}]/u;

const WORD_CHARACTER = new RegExp(WORD_SOURCE.slice(0, -1), 'u');
// eslint-disable-next-line no-control-regex -- a plain ASCII chunk needs only lower-casing
const ASCII = /^[\u0000-\u007f]*$/;
/**
 * Text is folded and searched this many characters at a time (cut at a space), so a long body is read as far as
 * needed. Fragments usually lie in a body's first few KB: by instructions per body over the bench's title queries,
 * 512-character chunks cost 15% less than 2,048 (272 K against 320 K), as less is folded past the last fragment, and
 * 256 more again (290 K), as each chunk has its own fixed cost.
 */
const CHUNK = 512;

/**
 * Latin-1 characters folded as the analysis module folds them, as bytes, lower-casing included: a text of Latin-1
 * characters only (a one-byte string in V8) is folded through this table a chunk at a time, without a regular
 * expression replacing each accented letter by a call. 0 stands for a character that does not fold to one Latin-1
 * character (`µ` is `μ`, `½` is `1⁄2`); a chunk holding one is folded as any other text.
 */
const LATIN1_FOLDS = new Uint8Array(256);
for (let code = 1; code < 256; code++) {
  const folded = fold(String.fromCharCode(code));
  if (folded.length === 1 && folded.charCodeAt(0) < 256) LATIN1_FOLDS[code] = folded.charCodeAt(0);
}
// eslint-disable-next-line no-control-regex -- the class is everything past Latin-1
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;
/** Hangul jamo and syllables, as a Korean needle holds them. */
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7ff]/;

/** The bytes of the chunk foldLatin1 folds, also read four at a time; grown to the longest chunk met. */
let foldBytes = Buffer.alloc(4096);
let foldWords = new Uint32Array(foldBytes.buffer, foldBytes.byteOffset, foldBytes.length / 4);

/**
 * A chunk of Latin-1 text folded through LATIN1_FOLDS, or undefined when it holds a character the table leaves out.
 * Most of a Latin-1 text is ASCII: four bytes at a time, a word of ASCII bytes is lower-cased in a few integer
 * operations (LATIN1_FOLDS does nothing else to ASCII), and only a word holding another byte goes through the table.
 */
export function foldLatin1(chunk: string): string | undefined {
  const length = chunk.length;
  if (length > foldBytes.length) {
    foldBytes = Buffer.alloc(2 ** Math.ceil(Math.log2(length)));
    foldWords = new Uint32Array(foldBytes.buffer, foldBytes.byteOffset, foldBytes.length / 4);
  }
  const bytes = foldBytes;
  const words = foldWords;
  bytes.write(chunk, 0, 'latin1');
  const whole = length >>> 2;
  for (let i = 0; i < whole; i++) {
    const word = words[i] as number;
    if ((word & 0x80808080) === 0) {
      // Each byte below 0x80: bit 7 of `low + 0x3f` is set from 'A' up, of `low + 0x25` from '[' up; no sum carries
      // into the next byte. Their difference marks the capitals, and 0x80 >>> 2 is the 0x20 that lower-cases one.
      const capitals = (word + 0x3f3f3f3f) & ~(word + 0x25252525) & 0x80808080;
      const folded = word | (capitals >>> 2);
      // A NUL byte is a character the table leaves out.
      if (((folded - 0x01010101) & ~folded & 0x80808080) !== 0) return undefined;
      words[i] = folded;
    } else if (!foldByTable(bytes, i * 4, i * 4 + 4)) return undefined;
  }
  return foldByTable(bytes, whole * 4, length) ? bytes.toString('latin1', 0, length) : undefined;
}

/** Folds bytes [from, to) through LATIN1_FOLDS in place; false at the first one the table leaves out. */
function foldByTable(bytes: Buffer, from: number, to: number): boolean {
  for (let at = from; at < to; at++) {
    const byte = LATIN1_FOLDS[bytes[at] as number] as number;
    if (byte === 0) return false;
    bytes[at] = byte;
  }
  return true;
}

/** How a text's chunks are folded: ASCII lower-cased, Latin-1 through its table, anything else as the analysis folds it. */
type Script = 'ascii' | 'latin1' | 'other';

function scriptOf(text: string): Script {
  if (BEYOND_LATIN1.test(text)) return 'other';
  return ASCII.test(text) ? 'ascii' : 'latin1';
}

/**
 * A chunk folded a character for a character (`aligned`: each folded character stands where its character does), its
 * Hangul syllables kept whole when `keepHangul` (`syllables`: see highlight-hangul.ts; a chunk of no Hangul folds the
 * same either way), or else as the analysis folds it, which may move characters even where the length is the same
 * (marks dropped and syllables decomposed in one chunk).
 */
function foldChunk(chunk: string, script: Script, keepHangul: boolean): { folded: string; syllables: boolean; aligned: boolean } {
  if (script === 'ascii') return { folded: chunk.toLowerCase(), syllables: false, aligned: true };
  if (ASCII.test(chunk)) return { folded: chunk.toLowerCase(), syllables: false, aligned: true };
  // Most chunks of a text with a few characters past Latin-1 (quotation marks, dashes) hold none.
  const latin1 = script === 'latin1' || !BEYOND_LATIN1.test(chunk) ? foldLatin1(chunk) : undefined;
  if (latin1 !== undefined) return { folded: latin1, syllables: false, aligned: true };
  const kept = foldByCharacter(chunk, keepHangul);
  return kept === undefined ? { folded: fold(chunk), syllables: false, aligned: false } : { folded: kept, syllables: keepHangul, aligned: true };
}

/**
 * What each character of the Basic Multilingual Plane folds to, where that is one character: 0 not known yet,
 * NOT_ONE_CHARACTER where it is none or several (a mark, a Hangul syllable) or the character is a surrogate (a
 * character only with its pair). Filled as characters are met, so that a chunk of Chinese, Japanese or Cyrillic is
 * folded a character at a time rather than decomposed as a whole, which was the largest cost of highlighting it.
 */
const SINGLE_FOLDS = new Uint16Array(0x10000);
const NOT_ONE_CHARACTER = 0xffff;
/** The UTF-16 code units foldByCharacter folds into, grown to the longest chunk met; read back as UTF-16LE. */
let foldUnits = new Uint16Array(4096);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * A text folded a character at a time after lower-casing it whole (as fold does, for case that depends on the next
 * letter), or undefined when a character does not fold to one character: decomposing a character of a lower-cased
 * text and dropping its marks give the same as doing so to the whole, as marks are what reordering moves. With
 * `keepHangul`, Hangul syllables stay as they are, and a character that folds to a conjoining jamo gives undefined.
 */
function foldByCharacter(text: string, keepHangul: boolean): string | undefined {
  const lower = text.toLowerCase();
  if (lower.length > foldUnits.length) foldUnits = new Uint16Array(2 ** Math.ceil(Math.log2(lower.length)));
  const codes = foldUnits;
  for (let at = 0; at < lower.length; at++) {
    const code = lower.charCodeAt(at);
    if (code < 0x80) {
      codes[at] = code;
      continue;
    }
    if (keepHangul && isHangulSyllable(code)) {
      codes[at] = code;
      continue;
    }
    let folded = SINGLE_FOLDS[code] as number;
    if (folded === 0) {
      const character = String.fromCharCode(code);
      const whole = code >= 0xd800 && code <= 0xdfff ? '' : fold(character);
      folded = whole.length === 1 ? whole.charCodeAt(0) : NOT_ONE_CHARACTER;
      SINGLE_FOLDS[code] = folded;
    }
    if (folded === NOT_ONE_CHARACTER || (keepHangul && isConjoiningJamo(folded))) return undefined;
    codes[at] = folded;
  }
  // Decoding the units as UTF-16 costs a twentieth of passing them to String.fromCharCode.
  const bytes = Buffer.from(codes.buffer, codes.byteOffset, lower.length * 2);
  return (LITTLE_ENDIAN ? bytes : Buffer.from(bytes).swap16()).toString('utf16le');
}

/**
 * The words of `text` that `matcher` names, as a lazy MatchSource. Words and their terms are the analysis module's;
 * consecutive marked words (only spaces or punctuation between) are one range, so a matched phrase is one mark. The
 * text is folded a chunk at a time and the terms are looked for in it with indexOf, each place found confirmed by the
 * terms of its word; a chunk whose folding changes its length (ligatures, decomposed input) is read word by word.
 *
 * `beginning`, the same matcher's source over a beginning of `text` that ends before a space or punctuation of it,
 * is continued rather than read again: what it found stands (every chunk, word and range before where it stopped is
 * the same in the whole text), and reading starts where it stopped. A long body whose beginning did not settle its
 * fragments was otherwise folded twice over its beginning.
 */
export function matchWords(text: string, matcher: TermMatcher, beginning?: MatchSource): MatchSource {
  const resumed = beginning !== undefined && continues(text, beginning);
  const found: [number, number][] = resumed ? beginning.found.map(([start, end]): [number, number] => [start, end]) : [];
  const prefixes = matcher.prefixes ?? [];
  const otherForm = matcher.otherForms?.matches;
  const known = memoOf(matcher);
  const marked = (word: string) => {
    let answer = known.words.get(word);
    if (answer === undefined) {
      answer = termsOfWord(word).some((term) => matcher.terms.has(term) || prefixes.some((prefix) => term.startsWith(prefix)) || otherForm?.(term) === true);
      if (known.words.size >= KEPT_PER_MATCHER) known.words.clear();
      known.words.set(word, answer);
    }
    return answer;
  };
  const add = (start: number, end: number) => {
    const last = found[found.length - 1];
    if (last !== undefined && last[1] <= start && !WORD_CHARACTER.test(text.slice(last[1], start))) last[1] = Math.max(last[1], end);
    else found.push([start, end]);
  };
  const wordByWord = (from: number, to: number) => {
    for (const word of wordsOf(text.slice(from, to))) if (marked(word.text)) add(from + word.start, from + word.end);
  };
  // Found once per text: a one-byte string tells at once that it holds nothing past Latin-1.
  const script = scriptOf(text);
  const needles = [...matcher.terms, ...prefixes, ...(matcher.otherForms?.anchors ?? [])].filter((needle) => needle !== '');
  const syllableNeedles = needlesWithSyllables(matcher);
  const byFolding = (from: number, folded: string): void => {
    const ranges: [number, number][] = [];
    /**
     * Places where a word may be marked: where `needle` begins a word (`start`: a prefix, or the beginning of another
     * form), or stands anywhere in one (`inside`: a term, which may be a part of an identifier). Each is widened to its
     * whole word and confirmed by the word's own terms below.
     */
    const search = (needle: string, where: 'start' | 'inside') => {
      for (let at = folded.indexOf(needle); at !== -1; at = folded.indexOf(needle, at + 1)) {
        let start = at;
        let end = at + needle.length;
        if (isWordCharacter(folded[start - 1]) && (where === 'start' || !beginsPiece(text, from + at))) continue;
        while (start > 0 && isWordCharacter(folded[start - 1])) start--;
        while (isWordCharacter(folded[end])) end++;
        ranges.push([from + start, from + end]);
      }
    };
    for (const term of matcher.terms) if (term !== '') search(term, 'inside');
    for (const prefix of prefixes) if (prefix !== '') search(prefix, 'start');
    for (const anchor of matcher.otherForms?.anchors ?? []) if (anchor !== '') search(anchor, 'start');
    ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    let covered = -1;
    for (const [start, end] of ranges) {
      // The same word found again, by another term.
      if (start < covered) continue;
      if (marked(text.slice(start, end))) add(start, end);
      covered = end;
    }
  };
  /**
   * A chunk folded character for character, read word by word only in the runs of word characters where something
   * that marks a word is found: words are cut within such a run alone (see scripts.ts), and a run of Chinese or
   * Japanese is a clause, where the chunk is many.
   */
  /** wordByWord over a run of word characters, whose marked words are remembered by its characters (see memoOf). */
  const runWords = (from: number, to: number) => {
    const run = text.slice(from, to);
    let ranges = known.runs.get(run);
    if (ranges === undefined) {
      const found: number[] = [];
      for (const word of wordsOf(run)) if (marked(word.text)) found.push(word.start, word.end);
      ranges = found;
      if (known.runs.size >= KEPT_PER_MATCHER) known.runs.clear();
      known.runs.set(run, ranges);
    }
    for (let at = 0; at < ranges.length; at += 2) add(from + (ranges[at] as number), from + (ranges[at + 1] as number));
  };
  const runByRun = (from: number, chunk: string, folded: string, sought: readonly string[]) => {
    const runs: [number, number][] = [];
    for (const needle of sought) {
      for (let at = folded.indexOf(needle); at !== -1; at = folded.indexOf(needle, at + 1)) {
        let start = at;
        let end = at + needle.length;
        while (start > 0 && inRun(chunk, start - 1)) start--;
        while (end < chunk.length && inRun(chunk, end)) end++;
        runs.push([start, end]);
      }
    }
    runs.sort((a, b) => a[0] - b[0]);
    let covered = 0;
    for (const [start, end] of runs) {
      // The same run found again, by another needle or another place.
      if (start < covered) continue;
      runWords(from + start, from + end);
      covered = end;
    }
  };
  // Asked only of chunks past Latin-1, which are folded a character at a time (Latin-1 is folded faster than the
  // candidates' expressions read it, see foldLatin1), and for needles past Latin-1 (Cyrillic, Greek, CJK): many
  // characters fold to several holding a Latin letter, and an expression finding them reads text slower than folding.
  // Not for Korean, whose syllables each fold to several (jamo): its needles are looked for with syllables kept.
  const places = script === 'other' && needles.every((needle) => BEYOND_LATIN1.test(needle) && !HANGUL.test(needle)) ? new CandidatePlaces(text, needles) : undefined;
  const scanChunk = (from: number, to: number) => {
    const chunk = text.slice(from, to);
    // No needle can stand in this chunk's folding (see highlight-candidates.ts): it is passed over unfolded.
    if (places !== undefined && BEYOND_LATIN1.test(chunk) && places.next(from) >= to) return;
    const { folded, syllables, aligned } = foldChunk(chunk, script, syllableNeedles !== undefined);
    const sought = syllables && syllableNeedles !== undefined ? syllableNeedles : needles;
    // Every term of a word of the chunk is a part of the chunk's folding: where nothing that marks a word is in it,
    // no word is marked, and a chunk of Chinese, Japanese or Korean is not read word by word.
    if (!sought.some((needle) => folded.includes(needle))) return;
    if (!aligned) wordByWord(from, to);
    // Widening a place found to its whole run of word characters would mark a whole sentence of Chinese or Japanese.
    else if (script === 'other' && hasBreakingScript(chunk)) runByRun(from, chunk, folded, sought);
    else byFolding(from, folded);
  };
  return new ChunkedMatches(text, found, scanChunk, resumed ? beginning.read : 0);
}

/** Whether `beginning` is a source over a beginning of `text` that stopped where a chunk of `text` may start. */
function continues(text: string, beginning: MatchSource): boolean {
  const read = beginning.read;
  return text.startsWith(beginning.text) && read <= beginning.text.length && (read === text.length || CHUNK_END.test(text[read] as string));
}

/**
 * What marks a word, as looked for in text whose Hangul syllables are kept (see highlight-hangul.ts); undefined when
 * something would leave nothing to look for (an unfinished word of one open syllable), and chunks are then folded
 * as the analysis folds them.
 */
function needlesWithSyllables(matcher: TermMatcher): string[] | undefined {
  const needles: string[] = [];
  const add = (needle: string, open: boolean): boolean => {
    if (needle === '') return true;
    const composed = composedNeedle(needle, open);
    if (composed !== undefined) needles.push(composed);
    return composed !== undefined;
  };
  for (const term of matcher.terms) if (!add(term, false)) return undefined;
  for (const beginning of [...(matcher.prefixes ?? []), ...(matcher.otherForms?.anchors ?? [])]) if (!add(beginning, true)) return undefined;
  return needles;
}

/** Whether a character belongs to a run of word characters; a surrogate too, so that a run never cuts a pair. */
function inRun(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return (code >= 0xd800 && code <= 0xdfff) || isWordCharacter(text[at]);
}

/**
 * The MatchSource of matchWords: reads its text a chunk at a time, as asked. A class rather than an object literal:
 * V8 makes a literal that has a getter in the old generation, and from there it would keep the text it reads (a
 * page's body) and everything found in it alive until the next full collection.
 */
class ChunkedMatches implements MatchSource {
  readonly text: string;
  readonly found: [number, number][];
  readonly #scanChunk: (from: number, to: number) => void;
  #scanned: number;

  constructor(text: string, found: [number, number][], scanChunk: (from: number, to: number) => void, scanned: number) {
    this.text = text;
    this.found = found;
    this.#scanChunk = scanChunk;
    this.#scanned = scanned;
  }

  get exhausted(): boolean {
    return this.#scanned >= this.text.length;
  }

  get read(): number {
    return this.#scanned;
  }

  at(i: number, before = this.text.length): readonly [number, number] | undefined {
    const found = this.found;
    while (this.#scanned < this.text.length && ((found.length <= i && this.#scanned < before) || (i === found.length - 1 && this.#open()))) this.#step();
    const range = found[i];
    return range !== undefined && range[0] < before ? range : undefined;
  }

  scanTo(position: number): void {
    while (this.#scanned < this.text.length && (this.#scanned < position || this.#open())) this.#step();
  }

  /** Reads the next chunk, ending at a space or punctuation so that no word is cut. */
  #step(): void {
    const text = this.text;
    let to = Math.min(text.length, this.#scanned + CHUNK);
    while (to < text.length && !CHUNK_END.test(text[to] as string)) to++;
    this.#scanChunk(this.#scanned, to);
    this.#scanned = to;
  }

  /** Whether the last range may still grow into the next chunk (only spaces or punctuation after it so far). */
  #open(): boolean {
    const last = this.found[this.found.length - 1];
    return last !== undefined && this.#scanned < this.text.length && !WORD_CHARACTER.test(this.text.slice(last[1], this.#scanned));
  }
}
