/**
 * Pure policy of the Elasticsearch engine: the index settings and mappings, and the query bodies it sends. No I/O.
 * Both the engine and its tests read these, so what the stand-in interprets is exactly what a live cluster receives.
 */
import type { estypes } from '@elastic/elasticsearch';
import { STEM_LANGUAGES, foldPhrase, queryWords, stemLanguagesOf, type QueryTerm, type StemLanguage, wordsOf } from '../../analysis/index.js';
import { ANALYSIS_PARTS, ANALYZERS, FOLDING_FILTERS, elasticsearchAnalysis, stemmedAnalyzer, stemmedSearchAnalyzer } from './analysis-settings.js';
import { ONE_TYPO_FROM, TWO_TYPOS_FROM } from '../../policy/typo-rules.js';
import { orPinnedTitles } from './pinned-titles.js';
import type { IndexedDocument, QueryFilter, SortOrder } from '../types.js';

/** Longest title prefix the autocomplete field indexes; a longer typed prefix is cut to it. */
export const AUTOCOMPLETE_MAX_GRAM = 50;

/** The field of a title's word starts, which the engine fills at bulk time (see titleWords). */
export const TITLE_WORDS = 'title_words';

/** Title, summary and body weights of the text query: a title match weighs more than a body match. */
export const FIELD_BOOSTS = { title: 10, summary: 3, body: 1 } as const;

/** Extra weight of a whole-phrase match (the query's words in a row) in the title and in the body. */
export const PHRASE_BOOSTS = { title: 10, body: 2 } as const;

/** Extra weight of a title that is exactly the query (folded): the page named by the query ranks first. */
export const EXACT_TITLE_BOOST = 100;
/**
 * Weight of a title that is the query as typed, signs included (folded), whose words alone may name another title:
 * `clang++` ranks the page titled so above the page titled `clang`, which the exact clause boosts.
 */
export const LITERAL_TITLE_BOOST = 2 * EXACT_TITLE_BOOST;

/**
 * Weight of a title holding every word of the query, some only through their title neighbours (see typos.ts
 * titleNeighbours): below a title that is the query, above what a page's popularity adds.
 */
export const TYPO_TITLE_BOOST = EXACT_TITLE_BOOST / 2;

/** `best` rank is `popularity * POPULARITY_FACTOR + score`. */
export const POPULARITY_FACTOR = 10;

/**
 * Weight of a document holding every word typed in a row, wherever they stand: twice what popularity adds at most, so
 * it outranks the same words apart in more popular pages, and less than a title holding the words through typos by
 * more than that (as the SQLite engine ranks it, see its typed-phrase.ts). A constant: bm25 would weigh the phrase by
 * where it stands, and a phrase in a long body is as much what was typed as one in a title.
 */
export const TYPED_PHRASE_BOOST = 2 * POPULARITY_FACTOR;

/**
 * Weight of a match on a word's stem, of the same field's exact weight (as the embedded engine's `stemWeight`): a
 * document holding the word as typed also holds its stem, so it scores both and ranks above a stem-only match.
 */
export const STEM_WEIGHT = 0.5;

/** Weight of a match on a word's spelling neighbours, of the same field's exact weight: below the stems. */
export const FUZZY_WEIGHT = 0.25;

/**
 * How far a spelling neighbour may lie (see SearchQuery.corrections and typo-rules.ts): no edit under 4 characters, 1
 * from 4, 2 from 8, counted on the query word; the first character is kept, as by the term suggester; at most
 * FUZZY_EXPANSIONS neighbours per word and field.
 */
export const FUZZINESS = `AUTO:${ONE_TYPO_FROM},${TWO_TYPOS_FROM}`;
export const FUZZY_PREFIX_LENGTH = 1;
export const FUZZY_EXPANSIONS = 50;

/** The text fields of a document, which the stemmed copies repeat. */
export const TEXT_FIELDS = ['title', 'summary', 'body'] as const;

/** The locales whose languages a query without a locale filter stems (see queryLanguages). */
export const DEFAULT_STEM_LOCALES: readonly string[] = ['en'];

/** The object holding a stem language's copy of a document's text fields. */
export const stemmedObject = (language: StemLanguage) => `stemmed_${language.name}`;

/** The stemmed copy of a text field in a language, e.g. `stemmed_english.title`. */
export const stemmedField = (language: StemLanguage, field: (typeof TEXT_FIELDS)[number]) => `${stemmedObject(language)}.${field}`;

/**
 * The stemmed copies of a document: its title, summary and body under the fields of each of its locale's stemming
 * languages (see stemLanguagesOf: its own where it has a stemmer, and English). Sent as dotted names
 * (`stemmed_english.title`), which Elasticsearch maps into the object as if nested; the stand-in reads the same.
 */
export function stemmedCopy(document: Pick<IndexedDocument, 'locale' | (typeof TEXT_FIELDS)[number]>): Record<string, string> {
  return Object.fromEntries(stemLanguagesOf(document.locale).flatMap((language) => TEXT_FIELDS.map((field) => [stemmedField(language, field), document[field]])));
}

/**
 * The languages whose stemmed fields a query matches: those of its locales, or without a locale filter, those of
 * `en` and of `stemLocales` (the engine's `stemLocales` option, a site's other locales). Each language costs a clause
 * per word, so an unfiltered query does not search all of STEM_LANGUAGES.
 */
export function queryLanguages(locales: readonly string[] | undefined, stemLocales: readonly string[] = DEFAULT_STEM_LOCALES): StemLanguage[] {
  const keys = locales !== undefined && locales.length > 0 ? locales : ['en', ...stemLocales];
  const languages = new Set<StemLanguage>();
  for (const key of keys) for (const language of stemLanguagesOf(key)) languages.add(language);
  return [...languages];
}

export interface IndexShape {
  /** Primary shards of a new index. @default 1 */
  shards?: number;
  /** Replicas of each shard; a one-node cluster can only hold 0 (else health is `yellow`). @default 1 */
  replicas?: number;
}

/**
 * Settings and mappings of every index the engine creates. Text is split into words, identifiers into their whole and
 * parts, and folded as the analysis module defines (see analysis-settings.ts); positions are indexed, so a phrase
 * query ranks the words in a row above scattered ones. `title.prefix` indexes every leading run of the folded title
 * (edge n-grams) and `title_words` the folded title from each of its words, for autocomplete; `words` gathers the title, summary and body words as the suggester's vocabulary.
 * `dynamic: strict` turns a stray field into a failed item instead of a silent mapping change.
 *
 * Stemming: `title`, `summary` and `body` are not stemmed, so the words the suggester offers ("did you mean", typo
 * corrections) are real words and an exact match can outrank a stem-only one. Each document also gets a stemmed copy
 * of them in the fields of its own locale's language only (`stemmed_<language>.title`, … analysed by
 * `stemmed_<language>`; see stemmedCopy), filled by the engine at bulk time — not multi-fields of every language, which
 * would stem every page by 17 algorithms, and not one stemmed field for all, where a German page's words would be cut
 * by English rules. A locale without a stemmer has no copy. The copies index term frequencies only (no positions: they
 * are matched word by word, never as phrases), are not copied to `words`, and are left out of `_source`.
 */
export function indexDefinition(shape: IndexShape = {}): Pick<estypes.IndicesCreateRequest, 'settings' | 'mappings'> {
  const text = { type: 'text', analyzer: ANALYZERS.text, search_analyzer: ANALYZERS.search } as const;
  const stemmed = (language: StemLanguage) => ({
    type: 'text',
    analyzer: stemmedAnalyzer(language),
    search_analyzer: stemmedSearchAnalyzer(language),
    index_options: 'freqs',
  }) as const;
  return {
    settings: {
      number_of_shards: shape.shards ?? 1,
      number_of_replicas: shape.replicas ?? 1,
      analysis: elasticsearchAnalysis({
        filter: { title_edge: { type: 'edge_ngram', min_gram: 1, max_gram: AUTOCOMPLETE_MAX_GRAM } },
        analyzer: {
          title_prefix: { type: 'custom', tokenizer: 'keyword', char_filter: [ANALYSIS_PARTS.withoutBreaks, ANALYSIS_PARTS.collapseSpaces], filter: ['trim', ...FOLDING_FILTERS, 'title_edge'] },
        },
      }),
    },
    mappings: {
      dynamic: 'strict',
      _source: { excludes: ['stemmed_*', TITLE_WORDS] },
      properties: {
        url: { type: 'keyword', index: false },
        title: {
          ...text,
          copy_to: ['words'],
          fields: {
            prefix: { type: 'text', analyzer: 'title_prefix', search_analyzer: ANALYZERS.phrase },
            exact: { type: 'keyword', normalizer: ANALYZERS.keyword, ignore_above: 256 },
          },
        },
        summary: { ...text, copy_to: ['words'] },
        // Offsets in the postings let the unified highlighter work on bodies of any length without re-analysing them.
        body: { ...text, index_options: 'offsets' as const, copy_to: ['words'] },
        words: { ...text, index_options: 'docs' as const, norms: false },
        [TITLE_WORDS]: { type: 'keyword', doc_values: false },
        ...Object.fromEntries(
          STEM_LANGUAGES.map((language) => [
            stemmedObject(language),
            { type: 'object', properties: Object.fromEntries(TEXT_FIELDS.map((field) => [field, stemmed(language)])) },
          ]),
        ),
        popularity: { type: 'float' },
        locale: { type: 'keyword', normalizer: ANALYZERS.keyword },
        slug: { type: 'keyword', normalizer: ANALYZERS.keyword },
      },
    },
  };
}

function filters(query: Pick<QueryFilter, 'locales' | 'slugPrefixes'>): estypes.QueryDslQueryContainer[] {
  const clauses: estypes.QueryDslQueryContainer[] = [];
  if (query.locales !== undefined && query.locales.length > 0) {
    clauses.push({ terms: { locale: query.locales.map((locale) => locale.toLowerCase()) } });
  }
  if (query.slugPrefixes !== undefined && query.slugPrefixes.length > 0) {
    clauses.push({
      bool: {
        should: query.slugPrefixes.map((prefix) => ({ prefix: { slug: { value: prefix.toLowerCase() } } })),
        minimum_should_match: 1,
      },
    });
  }
  return clauses;
}

/** How textQuery matches each word beyond itself. */
export interface TextQueryOptions {
  /** The languages whose stemmed fields the words match too. @default queryLanguages(query.locales) */
  languages?: readonly StemLanguage[];
  /** The positions (in queryWords) of the words that also match their spelling neighbours (FUZZINESS). */
  fuzzy?: ReadonlySet<number>;
  /** The positions (in queryWords) of the words left out: they match nothing, and split the phrases they stood in. */
  dropped?: ReadonlySet<number>;
  /** The title words each word (by position in queryWords) also matches, in titles only (see typos.ts titleNeighbours). */
  titles?: ReadonlyMap<number, readonly string[]>;
  /** The title words each word too short for a typo matches in a title that every other word pins (see pinned-titles.ts). */
  pinned?: ReadonlyMap<number, readonly string[]>;
}

const EXACT_FIELDS = TEXT_FIELDS.map((field) => `${field}^${FIELD_BOOSTS[field]}`);
const FUZZY_FIELDS = TEXT_FIELDS.map((field) => `${field}^${FIELD_BOOSTS[field] * FUZZY_WEIGHT}`);
const stemmedFields = (language: StemLanguage) => TEXT_FIELDS.map((field) => `${stemmedField(language, field)}^${FIELD_BOOSTS[field] * STEM_WEIGHT}`);

/**
 * What one word of a query matches: itself in title, summary or body (`cross_fields`, title weighing more); an
 * identifier typed with its connectors (`document.getElementById`, `std::vector`) also as the phrase of its segments,
 * as the index holds each segment's whole but not the group's (see analysis-settings.ts); its stem in the stemmed
 * fields of the query's languages, at STEM_WEIGHT; the last word also as the start of a word (search as you type); a
 * word in `fuzzy` also its spelling neighbours in the exact fields, at FUZZY_WEIGHT; `titleWords` in the title only, at
 * the same weight. The score is the sum of what matches, so a document holding the word as typed, which also holds its
 * stem, outranks a stem-only one.
 */
export function wordQuery(typed: QueryTerm, languages: readonly StemLanguage[], last: boolean, fuzzy = false, titleWords: readonly string[] = []): estypes.QueryDslQueryContainer {
  const word = typed.term;
  const segments = [...wordsOf(typed.typed)].map((segment) => segment.text);
  const should: estypes.QueryDslQueryContainer[] = [
    { multi_match: { query: word, type: 'cross_fields', fields: EXACT_FIELDS } },
    ...(segments.length > 1 ? [{ multi_match: { query: segments.join(' '), type: 'phrase', fields: EXACT_FIELDS } } as const] : []),
    ...languages.map((language): estypes.QueryDslQueryContainer => ({ multi_match: { query: word, type: 'cross_fields', fields: stemmedFields(language) } })),
  ];
  if (last) {
    for (const field of TEXT_FIELDS) should.push({ prefix: { [field]: { value: word, boost: FIELD_BOOSTS[field] } } });
  }
  if (fuzzy) {
    should.push({
      multi_match: { query: word, type: 'best_fields', fields: FUZZY_FIELDS, fuzziness: FUZZINESS, prefix_length: FUZZY_PREFIX_LENGTH, max_expansions: FUZZY_EXPANSIONS },
    });
  }
  if (titleWords.length > 0) should.push({ terms: { title: [...titleWords], boost: FIELD_BOOSTS.title * FUZZY_WEIGHT } });
  return should.length === 1 ? (should[0] as estypes.QueryDslQueryContainer) : { bool: { should, minimum_should_match: 1 } };
}

/**
 * The text query `search` and `count` share: every word not left out must match (see wordQuery); the words in a row
 * (a phrase: each run of two or more words between those left out) and a title that is exactly the query add to the
 * score; locale and slug filters do not score. The words are the analysis module's (queryWords): the cluster does not
 * split a query again (see analysis-settings.ts). The prefix belongs to the last word typed only.
 */
export function textQuery(query: QueryFilter, options: TextQueryOptions = {}): estypes.QueryDslQueryContainer {
  const typed = queryWords(query.text);
  const kept = typed.flatMap((word, at) => (options.dropped?.has(at) === true ? [] : [at]));
  if (kept.length === 0) return { match_none: {} };
  const languages = options.languages ?? queryLanguages(query.locales);
  const termsOf = (positions: readonly number[]) => positions.map((at) => (typed[at] as QueryTerm).term).join(' ');
  const titleTerms = (at: number) => [(typed[at] as QueryTerm).term, ...(options.titles?.get(at) ?? [])];
  const must = kept.map((at) => orPinnedTitles(wordQuery(typed[at] as QueryTerm, languages, at === typed.length - 1, options.fuzzy?.has(at) === true, options.titles?.get(at)), options.pinned?.get(at), kept.filter((other) => other !== at).map(titleTerms), FIELD_BOOSTS.title * FUZZY_WEIGHT));
  const should: estypes.QueryDslQueryContainer[] = [{ term: { 'title.exact': { value: termsOf(kept), boost: EXACT_TITLE_BOOST } } }];
  // A title holding every word, some through their title neighbours, is the page the query names despite the typo.
  if ((options.titles?.size ?? 0) + (options.pinned?.size ?? 0) > 0) {
    const inTitle = kept.map((at) => ({ terms: { title: [...titleTerms(at), ...(options.pinned?.get(at) ?? [])], boost: TYPO_TITLE_BOOST / kept.length } }));
    should.push({ bool: { must: inTitle } });
  }
  const literal = foldPhrase(query.text);
  if (kept.length === typed.length && literal !== termsOf(kept)) should.push({ term: { 'title.exact': { value: literal, boost: LITERAL_TITLE_BOOST } } });
  if (kept.length === typed.length && kept.length > 1) {
    should.push({ constant_score: { filter: { multi_match: { query: termsOf(kept), type: 'phrase', fields: [...TEXT_FIELDS] } }, boost: TYPED_PHRASE_BOOST } });
  }
  for (const run of runsOf(kept)) {
    if (run.length < 2) continue;
    should.push(
      { match_phrase: { title: { query: termsOf(run), boost: PHRASE_BOOSTS.title } } },
      { match_phrase: { body: { query: termsOf(run), boost: PHRASE_BOOSTS.body } } },
    );
  }
  return { bool: { must, should, filter: filters(query) } };
}

/** Ascending positions cut into runs of consecutive ones. */
function runsOf(positions: readonly number[]): number[][] {
  const runs: number[][] = [];
  for (const at of positions) {
    const run = runs.at(-1);
    if (run !== undefined && run.at(-1) === at - 1) run.push(at);
    else runs.push([at]);
  }
  return runs;
}

/** The ranked query and sort of each order (DESIGN §7). */
export function rankedSearch(query: QueryFilter, sort: SortOrder, options: TextQueryOptions = {}): Pick<estypes.SearchRequest, 'query' | 'sort' | 'track_scores'> {
  const text = textQuery(query, options);
  if (sort === 'best') {
    return {
      query: {
        function_score: {
          query: text,
          functions: [{ field_value_factor: { field: 'popularity', factor: POPULARITY_FACTOR, missing: 0 } }],
          score_mode: 'sum',
          boost_mode: 'sum',
        },
      },
    };
  }
  if (sort === 'popularity') return { query: text, sort: [{ popularity: { order: 'desc' } }, { _score: { order: 'desc' } }], track_scores: true };
  return { query: text };
}

/** Highlight request: the whole title and a few body fragments, HTML-encoded by the cluster except the `<mark>` tags. */
export function highlightRequest(fragments: number, fragmentLength: number): estypes.SearchHighlight {
  return {
    encoder: 'html',
    pre_tags: ['<mark>'],
    post_tags: ['</mark>'],
    fields: {
      title: { number_of_fragments: 0 },
      body: { number_of_fragments: fragments, fragment_size: fragmentLength, no_match_size: 0 },
    },
  };
}

/** The folded prefix the autocomplete query looks up, cut to the indexed n-gram length; empty when nothing is left. */
export function autocompletePrefix(prefix: string): string {
  return Array.from(foldPhrase(prefix)).slice(0, AUTOCOMPLETE_MAX_GRAM).join('').trim();
}

/** Weight of a match at the title's start (see autocompleteQuery): above any match at a later word alone. */
const TITLE_START_BOOST = 2;

/**
 * Titles the folded prefix begins at any word of (see policy/autocomplete.ts): every match scores the same constant,
 * one at the title's start that and TITLE_START_BOOST more, so sorting by score, then popularity, puts title starts
 * first. Prefix queries score by constant whatever the number of terms they expand to.
 */
export function autocompleteQuery(prefix: string, locales: readonly string[] | undefined): estypes.QueryDslQueryContainer {
  return {
    bool: {
      should: [{ prefix: { 'title.prefix': { value: prefix, boost: TITLE_START_BOOST } } }, { prefix: { [TITLE_WORDS]: { value: prefix } } }],
      minimum_should_match: 1,
      filter: filters({ locales }),
    },
  };
}

/** The order of autocomplete matches: title starts first (see autocompleteQuery), then popularity. */
export const AUTOCOMPLETE_SORT = [{ _score: { order: 'desc' } }, { popularity: { order: 'desc' } }] as const satisfies estypes.SortCombinations[];

/** Term-suggester options: candidates within two edits of a word missing from the vocabulary, first letter kept. */
export const TERM_SUGGESTER = {
  field: 'words',
  suggest_mode: 'missing',
  max_edits: 2,
  prefix_length: 1,
  min_word_length: 3,
  size: 3,
  sort: 'score',
} as const satisfies estypes.SearchTermSuggester;

/** A term suggester's entry for one word of its text: where the word stands, and its options, best first. */
export interface SuggestEntry {
  offset: number;
  length: number;
  /** `freq`: how many documents hold the option. */
  options: { text: string; score: number; freq: number }[];
}

/**
 * "Did you mean" alternatives from term-suggester entries: the best candidate of every misspelled word spliced into
 * the text first, then each further candidate of one word on its own; scored by the product of candidate scores.
 * Returns at most `limit` distinct texts, best first, each different from the text.
 */
export function spliceSuggestions(text: string, entries: readonly SuggestEntry[], limit: number): { text: string; score: number }[] {
  const corrected = entries.filter((entry) => entry.options.length > 0).sort((a, b) => a.offset - b.offset);
  if (corrected.length === 0) return [];
  const splice = (choice: ReadonlyMap<SuggestEntry, string>) => {
    let out = '';
    let at = 0;
    for (const entry of corrected) {
      out += text.slice(at, entry.offset) + (choice.get(entry) ?? text.slice(entry.offset, entry.offset + entry.length));
      at = entry.offset + entry.length;
    }
    return out + text.slice(at);
  };
  const best = new Map(corrected.map((entry) => [entry, entry.options[0]?.text ?? '']));
  const bestScore = corrected.reduce((product, entry) => product * (entry.options[0]?.score ?? 0), 1);
  const alternatives = [{ text: splice(best), score: bestScore }];
  for (const entry of corrected) {
    for (const option of entry.options.slice(1)) {
      const choice = new Map(best);
      choice.set(entry, option.text);
      alternatives.push({ text: splice(choice), score: (bestScore / (entry.options[0]?.score || 1)) * option.score });
    }
  }
  const seen = new Set<string>([text]);
  return alternatives
    .sort((a, b) => b.score - a.score)
    .filter((alternative) => !seen.has(alternative.text) && (seen.add(alternative.text), true))
    .slice(0, limit);
}
