/**
 * Pure policy of the Elasticsearch engine: the index settings and mappings, and the query bodies it sends. No I/O.
 * Both the engine and its tests read these, so what the stand-in interprets is exactly what a live cluster receives.
 */
import type { estypes } from '@elastic/elasticsearch';
import { ANALYZERS, FOLDING_FILTERS, elasticsearchAnalysis, foldPhrase, queryTerms } from '../analysis/index.js';
import type { QueryFilter, SortOrder } from './types.js';

/** Longest title prefix the autocomplete field indexes; a longer typed prefix is cut to it. */
export const AUTOCOMPLETE_MAX_GRAM = 50;

/** Title, summary and body weights of the text query: a title match weighs more than a body match. */
export const FIELD_BOOSTS = { title: 10, summary: 3, body: 1 } as const;

/** Extra weight of a whole-phrase match (the query's words in a row) in the title and in the body. */
export const PHRASE_BOOSTS = { title: 10, body: 2 } as const;

/** Extra weight of a title that is exactly the query (folded): the page named by the query ranks first. */
export const EXACT_TITLE_BOOST = 100;

/** `best` rank is `popularity * POPULARITY_FACTOR + score`. */
export const POPULARITY_FACTOR = 10;

export interface IndexShape {
  /** Primary shards of a new index. @default 1 */
  shards?: number;
  /** Replicas of each shard; a one-node cluster can only hold 0 (else health is `yellow`). @default 1 */
  replicas?: number;
}

/**
 * Settings and mappings of every index the engine creates. Text is split into words and folded as the analysis module
 * defines (see analysis/elasticsearch.ts), with no stemming, so the words the suggester offers are real words; positions
 * are indexed, so a phrase query ranks the words in a row above scattered ones. `title.prefix` indexes every leading run of the folded title (edge n-grams) for autocomplete; `words` gathers the
 * title, summary and body words as the suggester's vocabulary. `dynamic: strict` turns a stray field into a failed
 * item instead of a silent mapping change.
 */
export function indexDefinition(shape: IndexShape = {}): Pick<estypes.IndicesCreateRequest, 'settings' | 'mappings'> {
  return {
    settings: {
      number_of_shards: shape.shards ?? 1,
      number_of_replicas: shape.replicas ?? 1,
      analysis: elasticsearchAnalysis({
        filter: { title_edge: { type: 'edge_ngram', min_gram: 1, max_gram: AUTOCOMPLETE_MAX_GRAM } },
        analyzer: {
          title_prefix: { type: 'custom', tokenizer: 'keyword', char_filter: ['collapse_spaces'], filter: ['trim', ...FOLDING_FILTERS, 'title_edge'] },
        },
      }),
    },
    mappings: {
      dynamic: 'strict',
      properties: {
        url: { type: 'keyword', index: false },
        title: {
          type: 'text',
          analyzer: ANALYZERS.text,
          copy_to: ['words'],
          fields: {
            prefix: { type: 'text', analyzer: 'title_prefix', search_analyzer: ANALYZERS.phrase },
            exact: { type: 'keyword', normalizer: ANALYZERS.keyword, ignore_above: 256 },
          },
        },
        summary: { type: 'text', analyzer: ANALYZERS.text, copy_to: ['words'] },
        // Offsets in the postings let the unified highlighter work on bodies of any length without re-analysing them.
        body: {
          type: 'text',
          analyzer: ANALYZERS.text,
          index_options: 'offsets',
          copy_to: ['words'],
        },
        words: { type: 'text', analyzer: ANALYZERS.text, index_options: 'docs', norms: false },
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

/**
 * The text query `search` and `count` share: every word in title, summary or body (cross-field, so the words may sit
 * in different fields), title weighing more; the words in a row (a phrase) add to the score; locale and slug filters
 * do not score.
 */
export function textQuery(query: QueryFilter): estypes.QueryDslQueryContainer {
  const words = queryTerms(query.text);
  if (words.length === 0) return { match_none: {} };
  const text = words.join(' ');
  const fields = [`title^${FIELD_BOOSTS.title}`, `summary^${FIELD_BOOSTS.summary}`, `body^${FIELD_BOOSTS.body}`];
  const complete = words.slice(0, -1);
  const last = words.at(-1) as string;
  const must: estypes.QueryDslQueryContainer[] = [];
  if (complete.length > 0) must.push({ multi_match: { query: complete.join(' '), type: 'cross_fields', operator: 'and', fields } });
  // The last word may be unfinished (search as you type): it matches as a word, or as the start of one.
  must.push({
    bool: {
      should: [
        { multi_match: { query: last, type: 'cross_fields', fields } },
        { prefix: { title: { value: last, boost: FIELD_BOOSTS.title } } },
        { prefix: { summary: { value: last, boost: FIELD_BOOSTS.summary } } },
        { prefix: { body: { value: last, boost: FIELD_BOOSTS.body } } },
      ],
      minimum_should_match: 1,
    },
  });
  const should: estypes.QueryDslQueryContainer[] = [{ term: { 'title.exact': { value: text, boost: EXACT_TITLE_BOOST } } }];
  if (words.length > 1) {
    should.push(
      { match_phrase: { title: { query: text, boost: PHRASE_BOOSTS.title } } },
      { match_phrase: { body: { query: text, boost: PHRASE_BOOSTS.body } } },
    );
  }
  return { bool: { must, should, filter: filters(query) } };
}

/** The ranked query and sort of each order (DESIGN §7). */
export function rankedSearch(query: QueryFilter, sort: SortOrder): Pick<estypes.SearchRequest, 'query' | 'sort' | 'track_scores'> {
  const text = textQuery(query);
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

export function autocompleteQuery(prefix: string, locales: readonly string[] | undefined): estypes.QueryDslQueryContainer {
  return { bool: { must: [{ match: { 'title.prefix': { query: prefix } } }], filter: filters({ locales }) } };
}

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

export interface SuggestEntry {
  offset: number;
  length: number;
  options: { text: string; score: number }[];
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
