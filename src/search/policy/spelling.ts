import { isSegmentedScript } from '../analysis/index.js';

/**
 * Pure spelling policy of "did you mean" (SymSpell's symmetric deletion): the deletion neighbourhood a vocabulary term
 * is filed under, the same neighbourhood of a query word to look candidates up with, the distance that confirms a
 * candidate, and how spliced alternatives are ranked. No I/O.
 */

/** Candidates are words within this Damerau–Levenshtein distance (a transposition counts 1). */
export const MAX_EDIT_DISTANCE = 2;
/** Deletions are taken from this many leading characters only, which bounds the neighbourhood of a long word. */
export const PREFIX_LENGTH = 7;
/** Vocabulary terms outside these lengths are not filed: too short to correct reliably, or not words. */
export const MIN_TERM_LENGTH = 3;
export const MAX_TERM_LENGTH = 40;

/**
 * Whether a vocabulary term is worth filing for suggestions: a word of a sensible length (from `shortest` characters) that starts with a letter;
 * digits may follow (`iperf3`, `rabin2`, `svg2png` are names people misspell too). Not a word of a script written
 * without spaces: one character more or less there is another word (or a run the segmenter would cut otherwise), not a typo.
 */
export function spellable(term: string, shortest = MIN_TERM_LENGTH): boolean {
  const length = Array.from(term).length;
  return length >= shortest && length <= MAX_TERM_LENGTH && /^\p{L}[\p{L}\p{M}\p{N}]*$/u.test(term) && !isSegmentedScript(term);
}

/** Every string reached from `word`'s first PREFIX_LENGTH characters by deleting up to `distance` characters, itself included. */
export function deletionNeighbourhood(word: string, distance: number = MAX_EDIT_DISTANCE): Set<string> {
  const characters = Array.from(word).slice(0, PREFIX_LENGTH);
  const start = characters.join('');
  // Without a character of two UTF-16 units (nearly every word), deleting a unit deletes a character: a slice does.
  const oneUnitEach = start.length === characters.length;
  const found = new Set<string>([start]);
  let frontier = [start];
  for (let step = 0; step < distance; step++) {
    const next: string[] = [];
    for (const item of frontier) {
      const itemCharacters = oneUnitEach ? undefined : Array.from(item);
      const length = itemCharacters === undefined ? item.length : itemCharacters.length;
      for (let i = 0; i < length; i++) {
        const shorter = itemCharacters === undefined ? item.slice(0, i) + item.slice(i + 1) : itemCharacters.toSpliced(i, 1).join('');
        if (!found.has(shorter)) {
          found.add(shorter);
          next.push(shorter);
        }
      }
    }
    frontier = next;
  }
  return found;
}

/** The rows editDistance fills, kept between calls: a lookup measures dozens of short words. */
let distanceRows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];
const SURROGATE = /[\ud800-\udfff]/;

/**
 * The optimal-string-alignment distance of `a` and `b` (Levenshtein plus adjacent transposition, counted 1), by code
 * point; any value above `limit` is returned as `limit + 1`.
 */
export function editDistance(a: string, b: string, limit: number = MAX_EDIT_DISTANCE): number {
  // A string read by index gives its UTF-16 units, which are its characters unless it holds a surrogate pair.
  const left: ArrayLike<string> = SURROGATE.test(a) ? Array.from(a) : a;
  const right: ArrayLike<string> = SURROGATE.test(b) ? Array.from(b) : b;
  if (Math.abs(left.length - right.length) > limit) return limit + 1;
  if (distanceRows[0].length <= right.length) {
    const size = 2 * right.length;
    distanceRows = [new Int32Array(size), new Int32Array(size), new Int32Array(size)];
  }
  let [beforePrevious, previous, current] = distanceRows;
  for (let j = 0; j <= right.length; j++) previous[j] = j;
  for (let i = 1; i <= left.length; i++) {
    const character = left[i - 1];
    current[0] = i;
    let rowMinimum = i;
    for (let j = 1; j <= right.length; j++) {
      const cost = character === right[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && character === right[j - 2] && left[i - 2] === right[j - 1]) value = Math.min(value, (beforePrevious[j - 2] as number) + 1);
      current[j] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > limit) return limit + 1;
    [beforePrevious, previous, current] = [previous, current, beforePrevious];
  }
  return Math.min(previous[right.length] as number, limit + 1);
}

export interface Candidate {
  term: string;
  distance: number;
  /** Documents containing the term. */
  docs: number;
}

/** Candidates in order of preference: smaller distance first, then the more frequent word, then alphabetical. */
export function compareCandidates(a: Candidate, b: Candidate): number {
  return a.distance - b.distance || b.docs - a.docs || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0);
}

/**
 * The first `limit` of `ranked` that `held` accepts, asked in order and no further: checking a neighbour against the
 * locales searched costs a lookup, and a short word has dozens of neighbours.
 */
export function heldFirst<T>(ranked: readonly T[], limit: number, held: (item: T) => boolean): T[] {
  const kept: T[] = [];
  for (const item of ranked) {
    if (kept.length === limit) break;
    if (held(item)) kept.push(item);
  }
  return kept;
}

export interface Alternative {
  words: string[];
  /** Sum of the edit distances of the replaced words. */
  distance: number;
  /** The smallest document frequency among the replacement words. */
  docs: number;
}

/**
 * Splices candidates into the whole query: for each word position with candidates, each of its best `perWord`
 * candidates; combinations of several corrected words are kept, ranked by total distance then frequency, at most `limit`.
 */
export function spliceAlternatives(words: readonly string[], candidates: ReadonlyMap<number, readonly Candidate[]>, perWord: number, limit: number): Alternative[] {
  let alternatives: Alternative[] = [{ words: [...words], distance: 0, docs: Number.POSITIVE_INFINITY }];
  for (const [position, options] of candidates) {
    const best = [...options].sort(compareCandidates).slice(0, perWord);
    if (best.length === 0) continue;
    alternatives = alternatives.flatMap((alternative) =>
      best.map((candidate) => {
        const spliced = [...alternative.words];
        spliced[position] = candidate.term;
        return { words: spliced, distance: alternative.distance + candidate.distance, docs: Math.min(alternative.docs, candidate.docs) };
      }),
    );
    alternatives.sort((a, b) => a.distance - b.distance || b.docs - a.docs);
    alternatives = alternatives.slice(0, limit);
  }
  return alternatives.filter((alternative) => alternative.distance > 0);
}

/**
 * Alternatives that change one word each, for a query of known words that matches nothing: the best candidate of
 * every position first, then the second best of every position, and so on, so that the word at fault (the only one
 * whose change can give matches) is reached within a few counts wherever it stands.
 */
export function singleChanges(words: readonly string[], candidates: ReadonlyMap<number, readonly Candidate[]>, perWord: number): Alternative[] {
  const ranked = new Map([...candidates].map(([position, options]) => [position, options.filter((option) => option.distance > 0).sort(compareCandidates)]));
  const alternatives: Alternative[] = [];
  for (let rank = 0; rank < perWord; rank++) {
    for (const [position, options] of ranked) {
      const candidate = options[rank];
      if (candidate === undefined) continue;
      const spliced = [...words];
      spliced[position] = candidate.term;
      alternatives.push({ words: spliced, distance: candidate.distance, docs: candidate.docs });
    }
  }
  return alternatives;
}
