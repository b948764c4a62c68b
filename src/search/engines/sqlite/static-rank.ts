/**
 * Pure policy of the embedded engine's static rank: document rowids are assigned in descending popularity, so that
 * FTS5 walks a term's postings most popular first and a query can stop after the first N matches instead of scoring
 * every one (early termination, as web engines order their postings by a static rank). Rowids are also grouped by
 * locale: each locale's documents take a block of rowids (its partition), so a query filtered by locale walks only
 * that block, a rowid range FTS5 seeks to, instead of skipping past every other locale's matches. No I/O.
 *
 * Layout of a rowid: `-2^52 + partition * 2^44 + bucket * 2^24 + sequence`.
 */
import { foldPhrase } from '../../analysis/index.js';
import { laterWordStarts } from '../../policy/autocomplete.js';

/** Popularity (0–1) is quantised into this many steps; rowids of one step are consecutive, in insertion order. */
export const RANK_BUCKETS = 2 ** 20;
/** Rowids available per popularity step and partition: far more documents than one locale ever holds. */
export const ROWIDS_PER_BUCKET = 2 ** 24;
/** Locale partitions; locales are spread over them by a hash, and two locales sharing one is only slower. */
export const PARTITIONS = 2 ** 8;
const PARTITION_SPAN = RANK_BUCKETS * ROWIDS_PER_BUCKET;
/** The lowest rowid. */
export const PARTITIONED_BASE = -(PARTITIONS * PARTITION_SPAN);

/** The popularity step of a document: 0 for the most popular (popularity 1), RANK_BUCKETS - 1 for popularity 0. */
export function rankBucket(popularity: number): number {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(popularity) ? popularity : 0));
  return Math.round((1 - clamped) * (RANK_BUCKETS - 1));
}

/** The partition of a locale (lower-cased): FNV-1a of its UTF-16 code units. */
export function localePartition(localeKey: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < localeKey.length; i++) hash = Math.imul(hash ^ localeKey.charCodeAt(i), 0x01000193) >>> 0;
  return hash % PARTITIONS;
}

/** The rowids `[first, end)` of one popularity step within a partition. */
export function rowidBlock(partition: number, bucket: number): [bigint, bigint] {
  const first = BigInt(PARTITIONED_BASE) + BigInt(partition) * BigInt(PARTITION_SPAN) + BigInt(bucket) * BigInt(ROWIDS_PER_BUCKET);
  return [first, first + BigInt(ROWIDS_PER_BUCKET)];
}

/** A span of rowids, inclusive: one locale partition. */
export type RowidRange = readonly [number, number];

/** The rowids `[first, last]` of a partition, inclusive. */
export function partitionRange(partition: number): [number, number] {
  const first = PARTITIONED_BASE + partition * PARTITION_SPAN;
  return [first, first + PARTITION_SPAN - 1];
}

/** The partition a rowid lies in. */
export function partitionOf(rowid: number): number {
  return Math.floor((rowid - PARTITIONED_BASE) / PARTITION_SPAN);
}

/**
 * A rowid's place in static-rank order whatever its partition (popularity step, then insertion), for merging the
 * walks of several partitions.
 */
export function staticRank(rowid: number): number {
  return (rowid - PARTITIONED_BASE) % PARTITION_SPAN;
}

/**
 * The popularity a rowid stands for: its popularity step's, within half a step (about 5e-7) of the
 * document's own. Enough to rank a candidate by `popularity * 10 + score` without reading its documents row.
 */
export function popularityOf(rowid: number): number {
  const bucket = Math.floor(staticRank(rowid) / ROWIDS_PER_BUCKET);
  return 1 - bucket / (RANK_BUCKETS - 1);
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

/** Where a filed prefix stands in its title: at the title's start, or at a later word's (see policy/autocomplete.ts). */
export const enum PrefixPlace {
  TitleStart = 0,
  LaterWord = 1,
}

/**
 * The rows autocomplete files for a title (control characters already spaces): the prefixes of its folded title at
 * its start and, at each later word's start, the prefixes of the title from there plus that whole rest when longer,
 * which a typed prefix longer than FILED_PREFIX_LENGTH finds by range. Prefix, then place, per row.
 */
export function filedPrefixes(title: string): [string, PrefixPlace][] {
  const rows: [string, PrefixPlace][] = titlePrefixes(foldPhrase(title)).map((prefix) => [prefix, PrefixPlace.TitleStart]);
  const later = new Set<string>();
  for (const start of laterWordStarts(title)) {
    for (const prefix of titlePrefixes(start)) later.add(prefix);
    later.add(start);
  }
  for (const prefix of later) rows.push([prefix, PrefixPlace.LaterWord]);
  return rows;
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
  return [...candidates].sort((a, b) => key(b) - key(a) || (sort === 'popularity' ? b.score - a.score : 0) || staticRank(a.rowid) - staticRank(b.rowid));
}
