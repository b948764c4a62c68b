import type { Match } from './types.js';

/** What a provider row offers, before the best one is chosen. */
export type Candidate = Match;

export interface MatchPolicy {
  /** Lowest title similarity (0–1) a candidate may have. @default 0.8 */
  minTitle: number;
  /** Lowest artist similarity (0–1) a candidate may have. @default 0.6 */
  minArtist: number;
  /** Weight of the title in the combined score; the artist gets the rest. @default 0.6 */
  titleWeight: number;
}

export const DEFAULT_MATCH_POLICY: MatchPolicy = { minTitle: 0.8, minArtist: 0.6, titleWeight: 0.6 };

const FEATURING = /\s(?:feat\.?|ft\.?|featuring)\s.*$/;
const BRACKETED = /\([^)]*\)|\[[^\]]*\]|\{[^}]*\}/g;
// Release annotations that providers append after a dash: "Yesterday - Remastered 2009", "Song 2 - 2012 Remaster".
const DASH_ANNOTATION = /\s[-–—]\s.*\b(?:remaster(?:ed)?|live|version|edit|mix|mono|stereo|demo|acoustic|single|radio|take|re-?recorded|anniversary|deluxe)\b.*$/;

/** Lower case, accents and punctuation removed, `&` spelt `and`, spaces collapsed. */
export function normaliseText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A title reduced to what identifies the song: no parentheticals, release annotations or featured artists. */
export function normaliseTitle(title: string): string {
  const lowered = ` ${title.normalize('NFKC').toLowerCase()} `;
  const stripped = lowered.replace(BRACKETED, ' ').replace(DASH_ANNOTATION, ' ').replace(FEATURING, ' ');
  const result = normaliseText(stripped);
  return result === '' ? normaliseText(title) : result;
}

/** An artist reduced to the main credit: no featured artists, no leading "the". */
export function normaliseArtist(artist: string): string {
  const lowered = ` ${artist.normalize('NFKC').toLowerCase()} `;
  const stripped = normaliseText(lowered.replace(BRACKETED, ' ').replace(FEATURING, ' ')).replace(/^the /, '');
  return stripped === '' ? normaliseText(artist) : stripped;
}

function bigrams(text: string): Map<string, number> {
  const padded = ` ${text} `;
  const counts = new Map<string, number>();
  for (let i = 0; i < padded.length - 1; i++) {
    const gram = padded.slice(i, i + 2);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

/** Sørensen–Dice coefficient over character bigrams of two normalised strings: 1 when equal, 0 when nothing shared. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a === '' || b === '') return 0;
  const left = bigrams(a);
  const right = bigrams(b);
  let shared = 0;
  let total = 0;
  for (const [gram, count] of left) {
    shared += Math.min(count, right.get(gram) ?? 0);
    total += count;
  }
  for (const count of right.values()) total += count;
  return (2 * shared) / total;
}

export interface ScoredCandidate {
  candidate: Candidate;
  title: number;
  artist: number;
  score: number;
}

export function scoreCandidate(song: { name: string; artist: string }, candidate: Candidate, policy: MatchPolicy = DEFAULT_MATCH_POLICY): ScoredCandidate {
  const title = similarity(normaliseTitle(song.name), normaliseTitle(candidate.title));
  const artist = similarity(normaliseArtist(song.artist), normaliseArtist(candidate.artist));
  return { candidate, title, artist, score: policy.titleWeight * title + (1 - policy.titleWeight) * artist };
}

/**
 * The candidate whose title and artist are closest to the song's, or null when none is close enough. Ties keep the
 * provider's order.
 */
export function bestMatch(song: { name: string; artist: string }, candidates: readonly Candidate[], policy: MatchPolicy = DEFAULT_MATCH_POLICY): Candidate | null {
  let best: ScoredCandidate | undefined;
  for (const candidate of candidates) {
    const scored = scoreCandidate(song, candidate, policy);
    if (scored.title < policy.minTitle || scored.artist < policy.minArtist) continue;
    if (best === undefined || scored.score > best.score) best = scored;
  }
  return best?.candidate ?? null;
}
