import { STEM_MARKER, queryText, queryWords, stemLanguagesOf, stemOf, type StemLanguage } from '../../analysis/index.js';
import { COMMON_WORD_MIN_DOCUMENTS, COMMON_WORD_SHARE, MIN_PREFIX_LENGTH, countExpression, planCountExpression, planQuery, requiredPositions, withoutWords, TITLE_ONLY, type QueryPlan } from './search-expression.js';
import { spellTables } from './spell-index.js';
import { partitionOf } from './static-rank.js';
import { rowidRanges, somePartitionMatches } from './partitions.js';
import { tablesOf } from './tables.js';
import type { Connection } from './connection.js';
import { documentsHolding, documentsHoldingIn, hasSpelling, vocabularyHolds } from './held-terms.js';
import { pinnedNeighbours, titleNeighbours, typoNeighbours, type Correction } from './typo-neighbours.js';

/**
 * What a query's words are in an index: whether and how many documents hold them, the plan they are matched by, and
 * the text score of that plan.
 */

/**
 * An unfinished last word is matched as its most frequent completions in the vocabulary, at most this many (like
 * Elasticsearch's `max_expansions`): a rarer completion is found once typed in full.
 */
const PREFIX_EXPANSIONS = 16;

/** How the engine ranks text (see SqliteEngineOptions). */
export interface RankSettings {
  weights: readonly [number, number, number];
  stemWeight: number;
}

/** How a query's words are matched beyond themselves. */
export interface PlanOptions {
  /** The query's locales: their languages stem the words (without any, the languages of the index's documents). */
  locales?: readonly string[] | undefined;
  /** Whether an unknown word is matched by its spelling neighbours (see SearchQuery.corrections). @default true */
  corrections?: boolean | undefined;
}

/** A plan, and the query as searched when a word of it was matched by its spelling neighbours instead. */
export interface TextPlan extends QueryPlan {
  corrected?: string;
  /** The languages the words were stemmed in. */
  languages: readonly StemLanguage[];
  /**
   * The partitions the query walks (see rowidRanges): an alternative of a word is kept when a document of one of them
   * holds it, as no other document can match the query.
   */
  partitions: readonly number[];
}

/** What a query word is matched by besides itself (see planOf). */
interface WordMatches {
  /** The alternatives the partitions searched hold: an identifier's parts as a phrase, stems, spelling neighbours. */
  others: string[];
  /**
   * The spelling neighbour a word the index holds in no form is corrected to, and how many documents hold it when it is
   * the only neighbour the word is matched by: the word then stands for it alone and is as common. A word of several
   * neighbours could mean any of them (`wath`: `with`, `path`, `watch`), and counts as no word of the index.
   */
  correction?: Correction;
}

/**
 * The words a text is matched by in this index (see planQuery): common words dropped, prefix on an unfinished last
 * word, and each other word's alternatives: an identifier's parts as a phrase, its stems in the query's languages, and,
 * for a word the index does not hold, its nearest spelling neighbours (see typoNeighbours). A word corrected to one
 * neighbour is planned as that neighbour typed would be: corrected to a common word, it is common itself.
 */
export function planOf(connection: Connection, index: string, text: string, options: PlanOptions = {}): TextPlan {
  const tables = tablesOf(index);
  const spelling = hasSpelling(connection, index);
  const counted = spelling ? `SELECT documents FROM ${spellTables(index).stats}` : `SELECT count(*) FROM ${tables.docs}`;
  const documents = connection.remembered(`${index}\u0000documents\u0000${counted}`, () =>
    (connection.statement(`${index}\u0000documents\u0000${counted}`, () => counted).pluck().get() as number | undefined) ?? 0,
  );
  const typed = queryWords(text);
  const languages = languagesOf(connection, index, options.locales);
  const partitions = searchedPartitions(connection, index, options.locales);
  const holds = (alternative: string) => holdsAlternative(connection, index, partitions, alternative);
  const correcting = spelling && options.corrections !== false;
  const partsOf = new Map(typed.map((word) => [word.term, word.parts]));
  const found = new Map<string, WordMatches>();
  const matchesOf = (word: string, unfinished: boolean): WordMatches => {
    const key = unfinished ? `\u0000${word}` : word;
    let matches = found.get(key);
    if (matches === undefined) {
      matches = wordMatches(connection, index, partitions, word, partsOf.get(word) ?? [], languages, correcting && !unfinished);
      found.set(key, matches);
    }
    return matches;
  };
  const last = typed[typed.length - 1]?.term;
  const completions = new Map<string, Completion[]>();
  const completionsOfLast = (word: string) => {
    let known = completions.get(word);
    // A completion only other locales' pages hold is no word of this query (see documentsHoldingIn).
    if (known === undefined) completions.set(word, (known = completionsOf(connection, index, word).filter((completion) => documentsHoldingIn(connection, index, partitions, completion.term) !== undefined)));
    return known;
  };
  // How many documents a word stands for when planned: those holding it, or for a word the index does not hold, those
  // holding the one neighbour it is corrected to (see WordMatches). A last word that terms of the index start with is
  // unfinished, never corrected.
  const frequency = (word: string): number | undefined => {
    const held = documentsHoldingIn(connection, index, partitions, word);
    if (held !== undefined || !correcting) return held;
    if (word === last && Array.from(word).length >= MIN_PREFIX_LENGTH && completionsOfLast(word).length > 0) return undefined;
    return matchesOf(word, false).correction?.documents;
  };
  const planned = planQuery(typed.map((word) => word.term), documents, frequency);
  if (planned.typedPhrase !== undefined) planned.typedPhrase = typed.flatMap((word) => [word.term, ...word.parts]);
  const plan: TextPlan = { ...planned, ...expansionsOf(planned, documents, spelling, completionsOfLast), languages, partitions };
  if (plan.prefixLast && plan.expansions?.length === 0) {
    // No term of the index starts with the last word: it is not unfinished but unknown, and is matched as a word.
    plan.prefixLast = false;
    delete plan.expansions;
  }
  const corrections = new Map<string, string>();
  for (const [word, matches] of found) if (matches.correction !== undefined) corrections.set(word, matches.correction.term);
  // A common word dropped as corrected raises the titles that hold its correction (see withDroppedWords).
  if (plan.dropped !== undefined) plan.dropped = plan.dropped.map((word) => corrections.get(word) ?? word);
  const alternatives = plan.words.map((word, at) => {
    // An unfinished last word stands for its completions, and for the other forms of the word it may already be.
    const matches = matchesOf(word, at === plan.words.length - 1 && plan.prefixLast);
    if (matches.correction !== undefined) corrections.set(word, matches.correction.term);
    return matches.others;
  });
  // A known word may still be a typo of a title's word (`git mere` for `git merge`): in a query of several words, the
  // others pin the title, so it also matches the title words within its typo budget, in titles only. A word too short
  // for a typo matches those of a title that holds every other word (`git rv` for `git rev`).
  if (correcting && typed.length > 1) {
    const terms = typed.map((word) => word.term);
    const pinning = terms.map((term) => alternatives[plan.words.indexOf(term)]?.filter((other) => !other.startsWith(TITLE_ONLY)));
    plan.words.forEach((word, at) => {
      // A word still being typed is no typo.
      const unfinished = at === plan.words.length - 1 && plan.prefixLast;
      const known = documentsHoldingIn(connection, index, partitions, word) !== undefined;
      const own = terms.indexOf(word);
      const neighbours = [
        ...(known && plan.words.length > 1 ? titleNeighbours(connection, index, partitions, word) : []),
        ...(unfinished ? [] : pinnedNeighbours(connection, index, partitions, word, terms.toSpliced(own, 1), pinning.toSpliced(own, 1))),
      ];
      for (const neighbour of neighbours) alternatives[at]?.push(TITLE_ONLY + neighbour);
    });
  }
  if (alternatives.some((others) => others.length > 0)) plan.alternatives = alternatives;
  // A word that matches nothing, even corrected, is left out while other words match: the page that holds them is
  // better than no answer (the response says what was searched).
  const dropped = new Set<number>();
  if (correcting) {
    plan.words.forEach((word, at) => {
      const unfinished = at === plan.words.length - 1 && plan.prefixLast;
      if (!unfinished && !holds(word) && (alternatives[at] ?? []).length === 0) dropped.add(at);
    });
    if (dropped.size === plan.words.length) dropped.clear();
  }
  const searched = dropped.size === 0 ? plan : withoutWords(plan, dropped);
  // The phrase as typed holds a word corrected or left out: no document holds it in a row.
  if (corrections.size > 0 || dropped.size > 0) delete searched.typedPhrase;
  const droppedTerms = new Set([...dropped].map((at) => plan.words[at]));
  if (corrections.size > 0 || dropped.size > 0) {
    searched.corrected = queryText(typed.filter((word) => !droppedTerms.has(word.term)), (word) => corrections.get(word.term) ?? word.typed);
  }
  return searched;
}

/**
 * What one word is matched by besides itself: an identifier's parts, its stems in `languages`, and when `correcting`,
 * its spelling neighbours (see typoNeighbours), with the other forms of the word it is corrected to.
 */
function wordMatches(connection: Connection, index: string, partitions: readonly number[], word: string, parts: readonly string[], languages: readonly StemLanguage[], correcting: boolean): WordMatches {
  const holds = (alternative: string) => holdsAlternative(connection, index, partitions, alternative);
  const others = new Set<string>(parts.length > 0 ? [parts.join(' ')] : []);
  for (const language of languages) {
    const stem = stemOf(language, word);
    others.add(STEM_MARKER + stem);
    if (stem !== word) others.add(stem);
  }
  // An alternative the partitions searched do not hold matches nothing and costs every statement a lookup.
  for (const other of others) if (!holds(other)) others.delete(other);
  if (!correcting) return { others: [...others] };
  const neighbours = typoNeighbours(connection, index, partitions, word, others);
  for (const neighbour of neighbours.terms) {
    others.add(neighbour);
    // A corrected word finds the other forms of the word it is corrected to, as that word typed would.
    for (const language of languages) {
      const stem = STEM_MARKER + stemOf(language, neighbour);
      if (neighbours.correction !== undefined && holds(stem)) others.add(stem);
    }
  }
  return { others: [...others], ...(neighbours.correction === undefined ? {} : { correction: neighbours.correction }) };
}

/** A term of the vocabulary an unfinished word may be completed to, with its documents. */
interface Completion {
  term: string;
  docs: number;
}

/** The most frequent terms of the vocabulary that start with a word, at most PREFIX_EXPANSIONS. */
function completionsOf(connection: Connection, index: string, word: string): Completion[] {
  if (!hasSpelling(connection, index)) return [];
  const completions = connection.statement(`${index}\u0000completions`, () =>
    `SELECT term, docs FROM ${spellTables(index).terms} WHERE term >= ? AND term < ? ORDER BY docs DESC, term LIMIT ${PREFIX_EXPANSIONS}`,
  ).all(word, `${word}\u{10FFFF}`) as Completion[];
  for (const completion of completions) connection.termDocuments.set(`${index}\u0000${completion.term}`, { documents: completion.docs });
  return completions;
}

/** The completions an unfinished last word stands for, and whether they make the query common. */
function expansionsOf(plan: QueryPlan, documents: number, spelling: boolean, completionsOf: (word: string) => Completion[]): Partial<QueryPlan> {
  const last = plan.words[plan.words.length - 1];
  if (!spelling || !plan.prefixLast || last === undefined) return {};
  const completions = completionsOf(last);
  const postings = completions.reduce((sum, completion) => sum + completion.docs, 0);
  const common = plan.common || (documents >= COMMON_WORD_MIN_DOCUMENTS && postings > documents * COMMON_WORD_SHARE);
  return { common, expansions: completions.map((completion) => completion.term) };
}

/**
 * The stemming languages of a query: those of its locales, or without any, those of every locale the index holds
 * (remembered until the database changes).
 */
function languagesOf(connection: Connection, index: string, locales: readonly string[] | undefined): StemLanguage[] {
  const keys = locales !== undefined && locales.length > 0
    ? locales
    : connection.remembered(`${index}\u0000locales`, () =>
        connection.statement(`${index}\u0000locales`, () => `SELECT DISTINCT locale_key FROM ${tablesOf(index).docs}`).pluck().all() as string[],
      );
  const languages = new Set<StemLanguage>();
  for (const key of keys) for (const language of stemLanguagesOf(key)) languages.add(language);
  return [...languages];
}

/**
 * Whether a term, a marked stem, or a phrase of parts matches in `partitions`. A phrase is looked up whole: its parts
 * held apart would keep an identifier typed with a wrong part (`SitestackCMD`) from being corrected whole.
 */
function holdsAlternative(connection: Connection, index: string, partitions: readonly number[], alternative: string): boolean {
  return alternative.includes(' ') ? vocabularyHolds(connection, index, partitions, alternative) : documentsHoldingIn(connection, index, partitions, alternative) !== undefined || vocabularyHolds(connection, index, partitions, alternative);
}

/** The partitions a query of `locales` walks (see rowidRanges). */
export function searchedPartitions(connection: Connection, index: string, locales: readonly string[] | undefined): number[] {
  return rowidRanges(connection, index, locales).map(([low]) => partitionOf(low));
}

/**
 * The SQL of a search expression's text score on a partition's full-text table (see PartitionTables): its weighted
 * bm25, higher is better. The stem columns weigh stemWeight of the title's and of the body's weight.
 */
export function textRankOf(rank: RankSettings, fts: string): string {
  const [title, , body] = rank.weights;
  return `-bm25(${fts}, ${[...rank.weights, title * rank.stemWeight, body * rank.stemWeight].join(', ')})`;
}

/** The SQL of a title expression's score on a partition's title table. */
export function titleRankOf(rank: RankSettings, titles: string): string {
  return `-bm25(${titles}, 1, ${rank.stemWeight})`;
}

/**
 * Whether a plan matches nothing because a word every match must hold is in no document: most misspelt queries.
 * The spelling statistics say which words the index lacks; FTS5 confirms it in the partitions searched (an index
 * written to while no alias pointed at it has them rebuilt only by refresh), which costs a tenth of the walks a search
 * would run to find nothing.
 */
export function cannotMatch(connection: Connection, index: string, plan: TextPlan): boolean {
  if (!hasSpelling(connection, index)) return false;
  const required = new Set(requiredPositions({ ...plan, alternatives: undefined }));
  return plan.words.some((word, at) => {
    if (!required.has(at)) return false;
    const others = plan.alternatives?.[at] ?? [];
    if ([word, ...others].some((term) => documentsHolding(connection, index, term) !== undefined)) return false;
    return !somePartitionMatches(connection, index, plan.partitions, countExpression([word], false, undefined, [others]) as string);
  });
}

export function countExpressionOf(connection: Connection, index: string, text: string, options: PlanOptions = {}): string {
  const plan = planOf(connection, index, text, options);
  return planCountExpression(plan) as string;
}
