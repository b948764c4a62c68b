/**
 * Pure policy of the embedded engine's static rank: document rowids are assigned in descending popularity, so that
 * FTS5 walks a term's postings most popular first and a query can stop after the first N matches instead of scoring
 * every one (early termination, as web engines order their postings by a static rank). No I/O.
 */

/** Popularity (0–1) is quantised into this many steps; rowids of one step are consecutive, in insertion order. */
export const RANK_BUCKETS = 2 ** 20;
/** Rowids available per popularity step: far more documents than an index ever holds. */
export const ROWIDS_PER_BUCKET = 2 ** 32;

/** The popularity step of a document: 0 for the most popular (popularity 1), RANK_BUCKETS for popularity 0. */
export function rankBucket(popularity: number): number {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(popularity) ? popularity : 0));
  return Math.round((1 - clamped) * RANK_BUCKETS);
}

/** The first rowid of a popularity step; the step's rowids are `[first, first + ROWIDS_PER_BUCKET)`. */
export function bucketStart(bucket: number): bigint {
  return BigInt(bucket) * BigInt(ROWIDS_PER_BUCKET) + 1n;
}

/** Title prefixes of at most this many characters are filed for autocomplete; longer ones are looked up by range. */
export const FILED_PREFIX_LENGTH = 8;

/** The prefixes of a folded title that autocomplete files: its first 1 … FILED_PREFIX_LENGTH characters. */
export function titlePrefixes(titleKey: string): string[] {
  const characters = Array.from(titleKey);
  const prefixes: string[] = [];
  for (let length = 1; length <= Math.min(FILED_PREFIX_LENGTH, characters.length); length++) prefixes.push(characters.slice(0, length).join(''));
  return prefixes;
}

export type RankedSort = 'best' | 'relevance' | 'popularity';

export interface ScoredCandidate {
  rowid: number;
  popularity: number;
  score: number;
}

/** Candidates in the order of a sort: `best` popularity * 10 + score, `relevance` score, `popularity` popularity then score; ties by static rank. */
export function rankCandidates<T extends ScoredCandidate>(candidates: readonly T[], sort: RankedSort): T[] {
  const key = (candidate: ScoredCandidate) => (sort === 'best' ? candidate.popularity * 10 + candidate.score : sort === 'relevance' ? candidate.score : candidate.popularity);
  return [...candidates].sort((a, b) => key(b) - key(a) || (sort === 'popularity' ? b.score - a.score : 0) || a.rowid - b.rowid);
}
