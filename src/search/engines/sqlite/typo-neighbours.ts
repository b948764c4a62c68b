import { compareCandidates, heldFirst, spellable } from '../../policy/spelling.js';
import { PINNED_TYPO_FROM, RARE_WORD_DOCUMENTS, RARE_WORD_RATIO, pinnable, pinnedTypoDistance, typoDistance } from '../../policy/typo-rules.js';
import { documentsHoldingIn, spellLookup, titleHolds } from './held-terms.js';
import type { Connection } from './connection.js';

/** The spelling neighbours a query word is matched by in an index (typo-rules.ts): in its pages, or in its titles only. */

/** At most this many neighbours stand for a misspelt word. */
const TYPO_NEIGHBOURS = 3;

/** The neighbour a word the index holds in no form is corrected to, and how many documents hold it (see WordMatches in text-plan.ts). */
export interface Correction {
  term: string;
  documents: number | undefined;
}

/**
 * The spelling neighbours a word is matched by too (see SearchQuery.corrections): when neither the word nor any of
 * its other alternatives is a term of the index, its nearest neighbours replace it, and the nearest is its
 * `correction`; when the index holds it in far fewer documents than a neighbour, the neighbours join it.
 */
export function typoNeighbours(connection: Connection, index: string, partitions: readonly number[], word: string, others: ReadonlySet<string>): { terms: string[]; correction?: Correction } {
  const none = { terms: [] };
  const length = Array.from(word).length;
  if (!spellable(word)) return none;
  const held = documentsHoldingIn(connection, index, partitions, word);
  // The alternatives left are those the index holds.
  const replace = held === undefined && others.size === 0;
  if (held !== undefined && held > RARE_WORD_DOCUMENTS) return none;
  const lookup = spellLookup(connection, index);
  // The rule counts the longer of the two words: `dek` is one edit from `desk`. A neighbour two edits away is at most
  // two characters longer, so a word too short for two edits even against it looks up the neighbours one edit away.
  const allowed = (candidate: string) => typoDistance(Math.max(length, Array.from(candidate).length));
  const reach = typoDistance(length + 2) >= 2 ? 2 : typoDistance(length + 1);
  const candidates = lookup
    .candidates(word, reach)
    .filter((candidate) => candidate.distance <= allowed(candidate.term) && (replace || candidate.docs >= (held ?? 0) * RARE_WORD_RATIO))
    .sort(compareCandidates);
  const nearest = heldFirst(candidates, TYPO_NEIGHBOURS, (candidate) => documentsHoldingIn(connection, index, partitions, candidate.term) !== undefined);
  if (!replace && (held === undefined || nearest.length === 0)) return none;
  const best = nearest[0];
  return { terms: nearest.map((candidate) => candidate.term), ...(replace && best !== undefined ? { correction: { term: best.term, documents: nearest.length === 1 ? best.docs : undefined } } : {}) };
}

/** The spelling neighbours of a word within its typo budget that a title of `partitions` holds, nearest first, at most TYPO_NEIGHBOURS. */
export function titleNeighbours(connection: Connection, index: string, partitions: readonly number[], word: string): string[] {
  if (!spellable(word)) return [];
  const length = Array.from(word).length;
  const allowed = (candidate: string) => typoDistance(Math.max(length, Array.from(candidate).length));
  const reach = typoDistance(length + 2) >= 2 ? 2 : typoDistance(length + 1);
  if (reach === 0) return [];
  const candidates = spellLookup(connection, index).candidates(word, reach).filter((candidate) => candidate.distance <= allowed(candidate.term)).sort(compareCandidates);
  return heldFirst(candidates, TYPO_NEIGHBOURS, (candidate) => titleHolds(connection, index, partitions, [candidate.term])).map((candidate) => candidate.term);
}

/**
 * The title words a word too short for a typo (see pinnedTypoDistance), held or not, matches in titles only, nearest
 * first, at most TYPO_NEIGHBOURS: those one edit away that a title of `partitions` holds with every one of `others`,
 * the query's other words (each as itself or one of its `alternatives`), when no title holds the word as typed: the
 * word of a title is a name, and a short word has many real neighbours (`git rv` names `git rev`, `rv` alone nothing).
 */
export function pinnedNeighbours(connection: Connection, index: string, partitions: readonly number[], word: string, others: readonly string[], alternatives: readonly (readonly string[] | undefined)[]): string[] {
  const length = Array.from(word).length;
  if (others.length === 0 || !pinnable(length) || !spellable(word, PINNED_TYPO_FROM)) return [];
  const pinned = (terms: readonly string[]) => titleHolds(connection, index, partitions, [terms[0] as string, ...others], [terms.slice(1), ...alternatives]);
  if (titleHolds(connection, index, partitions, [word])) return [];
  const candidates = spellLookup(connection, index)
    .candidates(word, 1)
    .filter((candidate) => candidate.distance <= pinnedTypoDistance(length, Array.from(candidate.term).length))
    .sort(compareCandidates);
  // One title lookup tells whether any of them is pinned: most short words of a query have no such neighbour.
  if (candidates.length === 0 || !pinned(candidates.map((candidate) => candidate.term))) return [];
  return heldFirst(candidates, TYPO_NEIGHBOURS, (candidate) => pinned([candidate.term])).map((candidate) => candidate.term);
}
