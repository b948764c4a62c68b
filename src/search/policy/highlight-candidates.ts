import { fold } from '../analysis/index.js';

/**
 * Where in a text the folded needles of a highlight (see highlight-matches.ts) may stand, found in the text as it is
 * by regular expressions, without folding it. Highlighting folds a text a chunk at a time and looks for its needles in
 * the folding; a long Russian or Chinese body holding a query word once, or only in its title, had every chunk of its
 * first HIGHLIGHTED_BYTES folded a character at a time for nothing. A chunk before the first place found here holds
 * no needle in its folding, and is passed over unfolded.
 *
 * One expression spells each needle as the characters that fold to each of its characters, with the characters that
 * fold to nothing (marks) allowed between them: what folding does to a text is what it does to each character, but
 * for lower-casing, which may depend on the next character (a final `Σ`), so a character stands for every character
 * whose capital it shares; it is tried only where a character a needle may start with stands. The characters that fold
 * to several (`ﬁ`, `㎏`, Hangul syllables) holding a needle's character, and astral characters, are places wherever
 * they stand. A place is only a candidate: the chunk holding it is folded and searched as before. The property tests
 * in highlight-candidates.test.ts hold it to folding.
 */

/** What each character of the Basic Multilingual Plane folds to, as the expressions look for it. */
interface FoldInverse {
  /** For a folded character, every character that may fold to it in a text (codes, and as a class body); undefined for none. */
  readonly sourcesOf: (folded: string) => Sources | undefined;
  /**
   * A class body holding every character that folds to nothing (marks), which may stand between a needle's characters
   * as spelled in a text: with the non-letters between them, in fewer ranges than the marks alone.
   */
  readonly between: string;
  /** For a character, the characters that fold to several characters, that one among them. */
  readonly severalHolding: ReadonlyMap<string, readonly number[]>;
}

/** The characters that may fold to one character. */
interface Sources {
  readonly codes: readonly number[];
  readonly body: string;
}

let inverse: FoldInverse | undefined;

/** The first private-use character: see foldInverse. */
const SEPARATOR = 0xe000;

/**
 * A character of the Basic Multilingual Plane as a class member, `\\uXXXX`, so that none has a meaning in the class.
 * The expressions are matched by code unit (no `u` flag): matching a class by code point decodes every pair, and a
 * class holding lone surrogates makes the engine look around each one, which costs more than folding.
 */
function member(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Code points as a class body, consecutive ones as ranges; two ranges are also joined when `joinsGap(from, to)` says
 * the code points [from, to) between them may be taken in.
 */
function classBody(codes: Iterable<number>, joinsGap: (from: number, to: number) => boolean = () => false): string {
  const ranges: [number, number][] = [];
  for (const code of [...new Set(codes)].sort((a, b) => a - b)) {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && (code === last[1] + 1 || joinsGap(last[1] + 1, code))) last[1] = code;
    else ranges.push([code, code]);
  }
  return ranges.map(([from, to]) => (from === to ? member(from) : `${member(from)}-${member(to)}`)).join('');
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Whether no letter or digit stands among the code points [from, to): a class of marks joined across such a gap
 * matches nothing a needle is spelled with that it would not match anyway, in fewer ranges.
 */
function noLetterBetween(from: number, to: number): boolean {
  return !LETTER_OR_DIGIT.test(String.fromCharCode(...Array.from({ length: to - from }, (_, at) => from + at)));
}

/**
 * Built once, on first use. Every character is folded in one call, each standing between private-use characters
 * (which fold to themselves, are no letter and no mark, so none changes how a neighbour is lower-cased or ordered),
 * as calling fold per character costs a hundred times as much.
 */
function foldInverse(): FoldInverse {
  if (inverse !== undefined) return inverse;
  const codes: number[] = [];
  for (let code = 0; code < 0x10000; code++) if ((code < 0xd800 || code > 0xdfff) && code !== SEPARATOR) codes.push(code);
  const units: number[] = [];
  for (const code of codes) units.push(code, SEPARATOR);
  units.pop();
  let characters = '';
  for (let at = 0; at < units.length; at += 8192) characters += String.fromCharCode(...units.slice(at, at + 8192));
  const folds = fold(characters).split(String.fromCharCode(SEPARATOR));
  const byFold = new Map<string, number[]>();
  const vanishing: number[] = [];
  const severalHolding = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, code: number) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [code]);
    else list.push(code);
  };
  const byCapital = new Map<string, number[]>();
  const capitalOf = (code: number) => String.fromCharCode(code).toUpperCase();
  codes.forEach((code, at) => {
    add(byCapital, capitalOf(code), code);
    const folded = folds[at] as string;
    if (folded.length === 0) vanishing.push(code);
    else if (folded.length === 1) add(byFold, folded, code);
    else for (const character of new Set(folded)) add(severalHolding, character, code);
  });
  const sources = new Map<string, Sources>();
  /** Made when first asked: few characters are ever a needle's. */
  const sourcesOf = (folded: string): Sources | undefined => {
    let found = sources.get(folded);
    if (found !== undefined) return found;
    const members = byFold.get(folded);
    if (members === undefined) return undefined;
    // Lower-casing a text may give another letter of the same capital than lower-casing the letter alone (`Σ`).
    const codes = [...new Set(members.flatMap((code) => byCapital.get(capitalOf(code)) ?? [code]))];
    found = { codes, body: classBody(codes) };
    sources.set(folded, found);
    return found;
  };
  inverse = { sourcesOf, between: classBody(vanishing, noLetterBetween), severalHolding };
  return inverse;
}

/**
 * Needles are looked for by their first this many characters (a place is only a candidate), so that the expressions
 * of a search's needles compile in microseconds.
 */
const SPELLED_LENGTH = 4;

/** The needles' expressions of CandidatePlaces. */
export interface CandidatePatterns {
  /**
   * Where a needle as spelled in a text may start: the characters each may start with. A long page is read by this
   * small class and `spelledAt` tried only where it matches: reading it with the needles' whole expression, which may
   * match a character of hundreds at each position, cost several times as much.
   */
  starts: RegExp | undefined;
  /** The needles as spelled in a text, matched where asked only (sticky); undefined when none can be spelled. */
  spelledAt: RegExp | undefined;
  /** The needles' beginnings as folded, which `spelledAt` matches: most places are found as these, without it. */
  literals: readonly string[];
  /**
   * Where a character of several may stand: its ranges joined across short gaps. The characters of several are few and
   * scattered, and a text is read faster by a class of few ranges, holding some other characters, than by theirs.
   */
  nearSeveral: RegExp;
  /** Characters that fold to several characters one of which is a needle's, and surrogates; matched where asked only. */
  severalAt: RegExp;
}

/** Gaps between characters of several joined in `nearSeveral`, in code points. */
const NEAR_GAP = 1024;

/** Patterns by the needles they look for: the same needles are looked for in each hit of a search, and searches repeat. */
const patterns = new Map<string, CandidatePatterns>();
const PATTERNS_KEPT = 64;

/** The expressions and bits CandidatePlaces looks for `needles` (folded terms) by; undefined when there is no needle. */
export function patternsOf(needles: readonly string[]): CandidatePatterns | undefined {
  const spelled = [...new Set(needles.filter((needle) => needle !== '').map((needle) => needle.slice(0, SPELLED_LENGTH)))].sort();
  if (spelled.length === 0) return undefined;
  const key = spelled.join('\u0000');
  const kept = patterns.get(key);
  if (kept !== undefined) return kept;
  const { sourcesOf, between, severalHolding } = foldInverse();
  // A needle character that no one character folds to (half of a pair) comes from a character that folds to several.
  const spell = (needle: string): string | undefined => {
    const parts: string[] = [];
    for (const unit of needle) {
      const source = unit.length === 1 ? sourcesOf(unit) : undefined;
      if (source === undefined) return undefined;
      parts.push(`[${source.body}]`);
    }
    return parts.join(`[${between}]*`);
  };
  const literals = spelled.filter((needle) => spell(needle) !== undefined);
  const alternatives = literals.map((needle) => spell(needle) as string);
  const firstCodes = literals.flatMap((needle) => (sourcesOf(needle[0] as string) as Sources).codes);
  // A character folding to several may give a needle a part of it, or the whole: it is a place when it shares a
  // character with one. A place needs only to be in the chunk its needle is in (see matchWords), not where it starts.
  const sharing = new Set(spelled.flatMap((needle) => [...needle].flatMap((character) => severalHolding.get(character) ?? [])));
  const made: CandidatePatterns = {
    starts: literals.length === 0 ? undefined : new RegExp(`[${classBody(firstCodes)}]`, 'g'),
    spelledAt: alternatives.length === 0 ? undefined : new RegExp(alternatives.join('|'), 'y'),
    literals,
    // Any surrogate: whatever an astral character folds to is not known here.
    nearSeveral: new RegExp(`[${classBody(sharing, (from, to) => to - from <= NEAR_GAP)}\\ud800-\\udfff]`, 'g'),
    severalAt: new RegExp(`[${classBody(sharing)}\\ud800-\\udfff]`, 'y'),
  };
  if (patterns.size >= PATTERNS_KEPT) patterns.delete(patterns.keys().next().value as string);
  patterns.set(key, made);
  return made;
}

/**
 * The places of one text where its folding may hold one of `needles` (folded terms), asked in increasing order: a
 * text's stretch before `next(from)` holds none in its folding, whatever is around it. Each expression runs once over
 * the text at most, however often it is asked.
 */
export class CandidatePlaces {
  readonly #text: string;
  readonly #patterns: CandidatePatterns | undefined;
  /** Where a needle as spelled, and a character of several, stand next, as far as asked (-1: not asked yet). */
  readonly #at = [-1, -1];

  constructor(text: string, needles: readonly string[]) {
    this.#text = text;
    this.#patterns = patternsOf(needles);
  }

  /** The first place at or after `from`; the text's length when there is none. */
  next(from: number): number {
    const patterns = this.#patterns;
    if (patterns === undefined) return this.#text.length;
    if ((this.#at[1] as number) < from) this.#at[1] = firstConfirmed(patterns.nearSeveral, patterns.severalAt, this.#text, from);
    if ((this.#at[0] as number) < from) this.#at[0] = this.#spelled(patterns, from);
    return Math.min(this.#at[0] as number, this.#at[1] as number);
  }

  /** Where a needle as spelled first starts at or after `from`, as the needles' expression searched from there finds it. */
  #spelled({ starts, spelledAt, literals }: CandidatePatterns, from: number): number {
    const text = this.#text;
    if (starts === undefined || spelledAt === undefined) return text.length;
    for (let at = firstMatch(starts, text, from); at < text.length; at = firstMatch(starts, text, at + 1)) {
      for (const literal of literals) if (text.startsWith(literal, at)) return at;
      spelledAt.lastIndex = at;
      if (spelledAt.test(text)) return at;
    }
    return text.length;
  }
}

/** The first place at or after `from` where `near` matches and `at` (sticky) confirms it. */
function firstConfirmed(near: RegExp, at: RegExp, text: string, from: number): number {
  for (let place = firstMatch(near, text, from); place < text.length; place = firstMatch(near, text, place + 1)) {
    at.lastIndex = place;
    if (at.test(text)) return place;
  }
  return text.length;
}

function firstMatch(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  return match === null ? text.length : match.index;
}
