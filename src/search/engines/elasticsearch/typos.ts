/**
 * Pure policy of the Elasticsearch engine's results for typos (SearchQuery.corrections, issue 20): what a search
 * carries to learn how the index holds each query word, and which words it then matches by their spelling neighbours,
 * corrects or leaves out, by the rules the embedded engine follows (typo-rules.ts). No I/O.
 *
 * Elasticsearch does not say which clause matched a word, so the engine learns before it widens: the search as typed
 * carries each word's document count (an aggregation) and a term suggester; the widened search, when a word may be
 * left out, whether the index holds that word in another form (an aggregation of its clause).
 */
import type { estypes } from '@elastic/elasticsearch';
import { isSegmentedScript, queryText, type QueryTerm, type StemLanguage } from '../../analysis/index.js';
import { editDistance, spellable } from '../../policy/spelling.js';
import { PINNED_TYPO_FROM, RARE_WORD_DOCUMENTS, joinsRareWord, pinnable, pinnedTypoDistance, typoDistance } from '../../policy/typo-rules.js';
import { TERM_SUGGESTER, wordQuery, type SuggestEntry } from './schema.js';
import { orPinnedTitles } from './pinned-titles.js';

/** The names of what a search carries for its typo results. */
const SUGGESTER = 'typos';
const TITLE_SUGGESTER = 'titles';
const HELD = 'held';
const FORMS = 'forms';
const OPTIONS = 'options';
const TITLED = 'titled';
const TITLE_WORDS = 'title-words';
/** max_term_freq that no word's document count exceeds: every word gets its neighbours. */
const ANY_FREQUENCY = 2 ** 31 - 1;
/** At most this many title words stand for a known word of a query of several words (see titleNeighbours), as in the embedded engine. */
export const TITLE_NEIGHBOURS = 3;
/**
 * The title suggester's options per word: a short word has many neighbours, of which the title that the other words
 * pin may hold any, and the suggester counts every locale's titles, whose words may come first (see heldTitles).
 */
export const TITLE_CANDIDATES = 4 * TITLE_NEIGHBOURS;

/** What a request carries besides its query to learn how the index holds the query's words. */
export type TypoProbe = Pick<estypes.SearchRequest, 'aggs' | 'suggest'>;

/** The edits a word's neighbours may lie from it (FUZZINESS counts the query word alone), by its length. */
export function allowedEdits(word: string): number {
  return isSegmentedScript(word) ? 0 : typoDistance(Array.from(word).length);
}

/**
 * Counts over the whole index, whatever the query and its filters match (a `filters` aggregation under `global`), of
 * the documents each clause matches, keyed by the word's position.
 */
function globalCounts(name: string, clauses: readonly (readonly [number | string, estypes.QueryDslQueryContainer])[], locales?: readonly string[]): Record<string, estypes.AggregationsAggregationContainer> {
  const inLocales = (clause: estypes.QueryDslQueryContainer) =>
    locales === undefined || locales.length === 0 ? clause : { bool: { filter: [clause, { terms: { locale: locales.map((locale) => locale.toLowerCase()) } }] } };
  const filters = Object.fromEntries(clauses.map(([at, clause]) => [String(at), inLocales(clause)]));
  return { [name]: { global: {}, aggs: { words: { filters: { filters } } } } };
}

/**
 * What the search as typed carries, for its words (`queryWords` terms):
 * - how many documents hold each word as typed in title, summary or body — the suggester's `words` field, which counts
 *   them as the embedded engine's spelling statistics do; Elasticsearch answers a term filter from its term dictionary;
 * - a term suggester in `popular` mode: options for a word the index does not hold, and for a word it holds in at most
 *   RARE_WORD_DOCUMENTS documents (`max_term_freq`; a more frequent word costs the suggester nothing), the neighbours
 *   held in more documents, each with its count (`freq`).
 * With `locales`, a word is held when a page of theirs holds it: the suggester, which counts the whole index, then
 * offers every word its neighbours (`always`), as a word held in other locales' pages only is unknown to the query,
 * and its neighbours must be judged in the locales searched (see optionsProbe).
 * A query of several words also carries a term suggester on `title` for every word: the title words near each, which
 * the widened search matches in titles only (see titleNeighbours), down to words too short for a typo, and for each of
 * these whether a title holds it as typed (see pinnedNeighbours). Its options are words the titles hold, so the
 * widened search names terms only, never a fuzzy clause that would reach words no page holds.
 */
export function typoProbe(words: readonly string[], locales?: readonly string[]): TypoProbe {
  const everyWord = locales !== undefined && locales.length > 0;
  const mode = everyWord ? { suggest_mode: 'always' as const, max_term_freq: ANY_FREQUENCY } : { suggest_mode: 'popular' as const, max_term_freq: RARE_WORD_DOCUMENTS };
  const text = words.join(' ');
  const several = words.length > 1;
  const titles = { text, term: { ...TERM_SUGGESTER, field: 'title', suggest_mode: 'always' as const, max_term_freq: ANY_FREQUENCY, min_word_length: PINNED_TYPO_FROM, size: TITLE_CANDIDATES } };
  const short = several ? words.flatMap((word, at) => (pinnable(Array.from(word).length) ? [[at, { term: { title: word } }] as const] : [])) : [];
  return {
    aggs: { ...globalCounts(HELD, words.map((word, at) => [at, { term: { words: word } }] as const), locales), ...(short.length > 0 ? globalCounts(TITLED, short, locales) : {}) },
    suggest: { [SUGGESTER]: { text, term: { ...TERM_SUGGESTER, ...mode } }, ...(several ? { [TITLE_SUGGESTER]: titles } : {}) },
  };
}

/**
 * What the widened search carries when the query names locales and words have title neighbours: how many titles of
 * those locales hold each (see heldTitles), keyed `position:rank`.
 */
export function titlesProbe(titles: ReadonlyMap<number, readonly string[]>, locales: readonly string[]): TypoProbe {
  const clauses = [...titles].flatMap(([at, texts]) => texts.map((text, rank) => [`${at}:${rank}`, { term: { title: text } }] as const));
  return { aggs: globalCounts(TITLE_WORDS, clauses, locales) };
}

/**
 * Each word's title neighbours that a title of the locales searched holds, the first TITLE_NEIGHBOURS (see
 * titlesProbe), as the embedded engine keeps them; and whether a word had more, which the search sent matched too.
 */
export function heldTitles(titles: ReadonlyMap<number, readonly string[]>, response: Pick<estypes.SearchResponse<unknown>, 'aggregations'>): { titles: Map<number, string[]>; trimmed: boolean } {
  const counts = countsByKey(response, TITLE_WORDS);
  const held = new Map<number, string[]>();
  let trimmed = false;
  for (const [at, texts] of titles) {
    const kept = texts.filter((_, rank) => (counts.get(`${at}:${rank}`) ?? 0) > 0);
    trimmed ||= kept.length > TITLE_NEIGHBOURS;
    if (kept.length > 0) held.set(at, kept.slice(0, TITLE_NEIGHBOURS));
  }
  return { titles: held, trimmed };
}

/**
 * What the widened search carries when the query names locales and words are corrected: how many pages of those
 * locales hold each neighbour a word may be corrected to (see TypoPlan.options), keyed `position:rank`.
 */
export function optionsProbe(options: ReadonlyMap<number, readonly string[]>, locales: readonly string[]): TypoProbe {
  const clauses = [...options].flatMap(([at, texts]) => texts.map((text, rank) => [`${at}:${rank}`, { term: { words: text } }] as const));
  return { aggs: globalCounts(OPTIONS, clauses, locales) };
}

/** The corrections of a plan whose neighbours a page of the locales searched holds: each word's nearest such (see optionsProbe). */
export function heldCorrections(options: ReadonlyMap<number, readonly string[]>, response: Pick<estypes.SearchResponse<unknown>, 'aggregations'>): Map<number, string> {
  const counts = countsByKey(response, OPTIONS);
  const corrections = new Map<number, string>();
  for (const [at, texts] of options) {
    const held = texts.find((_, rank) => (counts.get(`${at}:${rank}`) ?? 0) > 0);
    if (held !== undefined) corrections.set(at, held);
  }
  return corrections;
}

/**
 * What the widened search carries when words may be left out: whether any document of the index (of `locales`) matches each of them
 * in some form — its stems, an identifier's parts, the completions of the last word — as the query would match it
 * (wordQuery, without neighbours), or as a title that the other words pin names it (`pinned`, see pinnedNeighbours).
 */
export function formsProbe(typed: readonly QueryTerm[], positions: ReadonlySet<number>, languages: readonly StemLanguage[], locales?: readonly string[], pinned?: ReadonlyMap<number, readonly string[]>): TypoProbe {
  const others = (at: number) => typed.filter((_, other) => other !== at).map((word) => [word.term]);
  const clauses = [...positions].map((at) => [at, orPinnedTitles(wordQuery(typed[at] as QueryTerm, languages, at === typed.length - 1), pinned?.get(at), others(at), 1)] as const);
  return { aggs: globalCounts(FORMS, clauses, locales) };
}

/** How a search widens the words of its query. */
export interface TypoPlan {
  /** Positions of the words that also match their spelling neighbours (FUZZINESS), below exact and stem matches. */
  fuzzy: Set<number>;
  /** The neighbour each word the index does not hold is corrected to (the text searched names it). */
  corrections: Map<number, string>;
  /** Each corrected word's neighbours within its edits, nearest first: the first held in the locales searched is its correction (see heldCorrections). */
  options: Map<number, string[]>;
  /** Positions of the words the index does not hold that have no neighbour near enough: left out (see leftOut). */
  unknown: Set<number>;
  /** The title words each known word of a query of several words also matches, in titles only (see titleNeighbours). */
  titles: Map<number, string[]>;
  /** The title words each word too short for a typo matches in a title the other words pin (see titleNeighbours). */
  pinned: Map<number, string[]>;
}

/**
 * Which words a search widens, from what the search as typed carried back (see typoProbe) and whether it `found`
 * anything, as the embedded engine plans them:
 * - a word held in a few documents, with a neighbour within its edits held far more often (joinsRareWord), also
 *   matches its neighbours, whether or not the query found something, and corrects nothing;
 * - when the query found nothing, a word the index does not hold matches its neighbours when one lies within its
 *   edits (corrected to the nearest, then the most frequent), and is `unknown` when none does and it is not the
 *   query's only word.
 * A word the index does not hold cannot stop a query that found something: another form of it matched. Title words
 * are judged in the titles of `locales` when the query names some (see titleNeighbours).
 */
export function typoPlan(words: readonly string[], response: Pick<estypes.SearchResponse<unknown>, 'aggregations' | 'suggest'>, found: boolean, locales?: readonly string[]): TypoPlan {
  const held = countsOf(response, HELD);
  const options = optionsByPosition(words, suggestEntries(response, SUGGESTER));
  const judged = locales !== undefined && locales.length > 0;
  const plan: TypoPlan = { fuzzy: new Set(), corrections: new Map(), options: new Map(), unknown: new Set(), ...titleNeighbours(words, held, response, judged) };
  words.forEach((word, at) => {
    const documents = held.get(at) ?? 0;
    const edits = allowedEdits(word);
    const near = (options.get(at) ?? [])
      .filter((option) => edits > 0 && option.text !== word)
      .map((option) => ({ ...option, distance: editDistance(word, option.text, edits) }))
      .filter((option) => option.distance <= edits);
    if (documents > 0) {
      if (near.some((option) => joinsRareWord(documents, option.freq))) plan.fuzzy.add(at);
      return;
    }
    if (found) return;
    const ranked = near.sort((a, b) => a.distance - b.distance || b.freq - a.freq || (a.text < b.text ? -1 : 1));
    const nearest = ranked[0];
    if (nearest === undefined) {
      // The one word of a query is never left out: nothing would be left to search.
      if (words.length > 1) plan.unknown.add(at);
    } else {
      plan.corrections.set(at, nearest.text);
      plan.options.set(at, ranked.map((option) => option.text));
      plan.fuzzy.add(at);
    }
  });
  return plan;
}

/**
 * The title words each word of a query of several words also matches, in titles only, nearest first:
 * - `titles`: a known word may still be a typo of a title's word (`git mere` for `git merge`), so each word held in
 *   the locales searched also matches the title words within its typo budget (counted on the longer of the two, so a
 *   short word gets an edit only against a longer title word), at most TITLE_NEIGHBOURS; when the query names
 *   locales (`judged`), every such option, of which heldTitles keeps those the titles of the locales hold;
 * - `pinned`: a word too short for a typo, held or not, that no title of the locales searched holds as typed (a
 *   title's word is a name), matches the title words one edit away (pinnedTypoDistance) in a title that every other
 *   word pins (see orPinnedTitles): `git rv` names `git rev`.
 */
function titleNeighbours(words: readonly string[], held: ReadonlyMap<number, number>, response: Pick<estypes.SearchResponse<unknown>, 'aggregations' | 'suggest'>, judged: boolean): Pick<TypoPlan, 'titles' | 'pinned'> {
  const titles = new Map<number, string[]>();
  const pinned = new Map<number, string[]>();
  if (words.length < 2) return { titles, pinned };
  const titled = countsOf(response, TITLED);
  for (const [at, options] of optionsByPosition(words, suggestEntries(response, TITLE_SUGGESTER))) {
    const word = words[at] as string;
    const length = Array.from(word).length;
    const near = (allowed: (text: string) => number) =>
      options
        .filter((option) => option.text !== word)
        .map((option) => ({ text: option.text, distance: editDistance(word, option.text, allowed(option.text)) }))
        .filter((option) => option.distance <= allowed(option.text))
        .sort((a, b) => a.distance - b.distance)
        .map((option) => option.text);
    if ((held.get(at) ?? 0) > 0 && !isSegmentedScript(word)) {
      const texts = near((text) => typoDistance(Math.max(length, Array.from(text).length))).slice(0, judged ? TITLE_CANDIDATES : TITLE_NEIGHBOURS);
      if (texts.length > 0) titles.set(at, texts);
    }
    if (pinnable(length) && spellable(word, PINNED_TYPO_FROM) && (titled.get(at) ?? 0) === 0) {
      const texts = near((text) => pinnedTypoDistance(length, Array.from(text).length));
      if (texts.length > 0) pinned.set(at, texts);
    }
  }
  return { titles, pinned };
}

/**
 * The unknown words a search leaves out, from what the widened search carried back (see formsProbe): those the index
 * holds in no form either; none when that is every word of the query (`words` of them), which then answers nothing.
 */
export function leftOut(unknown: ReadonlySet<number>, response: Pick<estypes.SearchResponse<unknown>, 'aggregations'>, words: number): Set<number> {
  const forms = countsOf(response, FORMS);
  const left = new Set([...unknown].filter((at) => (forms.get(at) ?? 0) === 0));
  return left.size === words ? new Set() : left;
}

/** The query as searched: each corrected word replaced by its neighbour, the words left out gone, the others as typed. */
export function correctedText(typed: readonly QueryTerm[], corrections: ReadonlyMap<number, string>, dropped: ReadonlySet<number> = new Set()): string {
  return queryText(typed.filter((_, at) => !dropped.has(at)), (word) => corrections.get(typed.indexOf(word)) ?? word.typed);
}

/** The entries of a term suggester's answer. */
export function suggestEntries(response: Pick<estypes.SearchResponse<unknown>, 'suggest'>, name: string): SuggestEntry[] {
  return ((response.suggest?.[name] ?? []) as estypes.SearchTermSuggest[]).map(
    (entry): SuggestEntry => ({
      offset: entry.offset,
      length: entry.length,
      options: (Array.isArray(entry.options) ? entry.options : [entry.options]).map((option) => ({ text: option.text, score: option.score, freq: option.freq })),
    }),
  );
}

/** The options of each word of a suggester's text, by position: `words` joined by single spaces are that text. */
function optionsByPosition(words: readonly string[], entries: readonly SuggestEntry[]): Map<number, SuggestEntry['options']> {
  const starts = new Map<number, number>();
  let offset = 0;
  words.forEach((word, at) => {
    starts.set(offset, at);
    offset += word.length + 1;
  });
  const options = new Map<number, SuggestEntry['options']>();
  for (const entry of entries) {
    const at = starts.get(entry.offset);
    if (at !== undefined && entry.length === words[at]?.length) options.set(at, entry.options);
  }
  return options;
}

/** The document counts of a globalCounts aggregation of a response, by position. */
function countsOf(response: Pick<estypes.SearchResponse<unknown>, 'aggregations'>, name: string): Map<number, number> {
  return new Map([...countsByKey(response, name)].map(([at, count]) => [Number(at), count]));
}

function countsByKey(response: Pick<estypes.SearchResponse<unknown>, 'aggregations'>, name: string): Map<string, number> {
  const aggregate = response.aggregations?.[name] as { words?: { buckets?: Record<string, { doc_count?: number }> } } | undefined;
  return new Map(Object.entries(aggregate?.words?.buckets ?? {}).map(([at, bucket]) => [at, bucket.doc_count ?? 0]));
}
