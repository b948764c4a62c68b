import { breaksOf } from './scripts.js';

/**
 * Word splitting, in the manner of Elasticsearch's `word_delimiter_graph` with `preserve_original` and
 * `catenate_all`: an identifier gives its whole and its parts, so `getElementById`, `get element by id`,
 * `element by id` and `getelementbyid` meet. Pure: no I/O.
 *
 * - A **segment** is a run of word characters (letters, digits, marks; see terms.ts); a **group** is segments joined by one
 *   connector each: `.`, `_`, `-` or `::` (`Array.prototype.map`, `snake_case`, `std::vector`, `2026-11-23`). Any other
 *   character, or a connector not between two segments, ends a group.
 * - A segment splits into **pieces** at a case change (`getElement` → `get`, `Element`; `HTMLParser` → `HTML`,
 *   `Parser`) and between ASCII letters and digits (`iperf3` → `iperf`, `3`; `svg2png` → `svg`, `2`, `png`).
 * - A break of scripts.ts (a change of script, or a word's end inside text written without spaces) ends a group as a
 *   separator does: `国际化` gives the groups `国际` and `化`, `Next.js인가` the groups `Next.js` and `인가`.
 * - Each piece gives its folded terms (see terms.ts). A group of one term gives that term. A group of several gives
 *   first its whole (the terms run together: `getelementbyid`), then, for each segment, the segment's whole when it
 *   has several terms and the group more than one segment, and the segment's terms — so every word of the folded text
 *   is among the terms, and the parts stand next to each other as they do in the text.
 */

/** The terms of a group, as splitting gives them. */
export interface Group {
  /** Where the group stands in the text (UTF-16 offsets, `end` exclusive). */
  start: number;
  end: number;
  /** The whole (or only) term. */
  whole: string;
  /** The terms after the whole, for a group that splits; empty otherwise. */
  parts: string[];
  /** The terms of its pieces, in order, without the wholes of its segments: `get element by id`; the whole alone when it does not split. */
  pieces: string[];
}

const enum Kind {
  Separator,
  Lower,
  Upper,
  Digit,
  Other,
  Connector,
}

const WORD_CHARACTER = /^[\p{L}\p{N}\p{M}\p{Co}]$/u;

/** The kind of the character at `at` (a whole surrogate pair when one starts there). */
function kindAt(text: string, at: number): Kind {
  const code = text.charCodeAt(at);
  if (code >= 0x61 && code <= 0x7a) return Kind.Lower;
  if (code >= 0x41 && code <= 0x5a) return Kind.Upper;
  if (code >= 0x30 && code <= 0x39) return Kind.Digit;
  if (code >= 0x80) return WORD_CHARACTER.test(String.fromCodePoint(text.codePointAt(at) as number)) ? Kind.Other : Kind.Separator;
  if (code === 0x2e || code === 0x5f || code === 0x2d || code === 0x3a) return Kind.Connector;
  return Kind.Separator;
}

/** UTF-16 units of the character at `at`. */
function widthAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xd800 && code <= 0xdbff && at + 1 < text.length ? 2 : 1;
}

const isSegmentKind = (kind: Kind) => kind !== Kind.Separator && kind !== Kind.Connector;
const isLetter = (kind: Kind) => kind === Kind.Lower || kind === Kind.Upper;

/**
 * Visits the groups of a text in order, with the folded terms of each piece: `foldPiece` turns a piece of the text
 * (`ascii` when it holds ASCII letters and digits only) into its terms: none, one, or several for a compatibility form.
 */
export function forEachGroup(text: string, foldPiece: (piece: string, ascii: boolean) => readonly string[], visit: (group: Group) => void): void {
  const length = text.length;
  const breaks = breaksOf(text);
  let nextBreak = 0;
  let groupStart = -1;
  /** The terms of each segment of the open group. */
  let segments: string[][] = [];
  let segment: string[] = [];
  let pieceStart = -1;
  let pieceAscii = true;
  let previous = Kind.Separator;

  const endPiece = (end: number) => {
    if (pieceStart < 0) return;
    for (const term of foldPiece(text.slice(pieceStart, end), pieceAscii)) segment.push(term);
    pieceStart = -1;
  };
  const endSegment = (end: number) => {
    endPiece(end);
    if (segment.length > 0) segments.push(segment);
    segment = [];
  };
  const endGroup = (end: number) => {
    endSegment(end);
    if (groupStart >= 0 && segments.length > 0) visit(groupOf(groupStart, end, segments));
    groupStart = -1;
    segments = [];
  };

  for (let at = 0; at < length; at += widthAt(text, at)) {
    const kind = kindAt(text, at);
    if (kind === Kind.Connector) {
      // `::` is one connector; a lone `:` and a connector not between two segments end the group.
      const double = text.charCodeAt(at) === 0x3a;
      const width = double ? 2 : 1;
      const joins = isSegmentKind(previous) && (!double || text.charCodeAt(at + 1) === 0x3a) && at + width < length && isSegmentKind(kindAt(text, at + width));
      if (joins) {
        endSegment(at);
        at += width - 1;
        previous = Kind.Separator;
        continue;
      }
      endGroup(at);
      previous = Kind.Separator;
      continue;
    }
    if (kind === Kind.Separator) {
      endGroup(at);
      previous = kind;
      continue;
    }
    while (nextBreak < breaks.length && (breaks[nextBreak] as number) < at) nextBreak++;
    if (breaks[nextBreak] === at) {
      endGroup(at);
      previous = Kind.Separator;
    }
    if (groupStart < 0) groupStart = at;
    const after = at + widthAt(text, at);
    if (pieceStart >= 0 && breaksBefore(previous, kind, after < length ? kindAt(text, after) : Kind.Separator)) endPiece(at);
    if (pieceStart < 0) {
      pieceStart = at;
      pieceAscii = true;
    }
    if (kind === Kind.Other) pieceAscii = false;
    previous = kind;
  }
  endGroup(length);
}

/**
 * Whether a piece of a word begins at `at`, inside the word: the same rule forEachGroup splits by, but for the breaks
 * of scripts.ts, which only wordsOf reads (finding them costs a pass over the whole text). The highlighter asks it of
 * a term found inside a word of text without such scripts, and reads any other text word by word.
 */
export function beginsPiece(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const next = at + widthAt(text, at);
  return breaksBefore(kindAt(text, at - 1), kindAt(text, at), next < text.length ? kindAt(text, next) : Kind.Separator);
}

/** Whether a piece ends before a character of `kind`, after one of `previous`, before one of `next`. */
function breaksBefore(previous: Kind, kind: Kind, next: Kind): boolean {
  if (previous === Kind.Lower && kind === Kind.Upper) return true;
  if (previous === Kind.Upper && kind === Kind.Upper && next === Kind.Lower) return true;
  return (isLetter(previous) && kind === Kind.Digit) || (previous === Kind.Digit && isLetter(kind));
}

function groupOf(start: number, end: number, segments: readonly string[][]): Group {
  const terms = segments.flat();
  if (terms.length === 1) return { start, end, whole: terms[0] as string, parts: [], pieces: terms };
  const parts: string[] = [];
  for (const segment of segments) {
    if (segment.length > 1 && segments.length > 1) parts.push(segment.join(''));
    parts.push(...segment);
  }
  return { start, end, whole: terms.join(''), parts, pieces: terms };
}
