import { SPACES_SOURCE, STEM_LANGUAGES, WORD_BREAK_SOURCE, WORD_SOURCE, type StemLanguage } from '../../analysis/index.js';

/**
 * The analysis rules of analysis/terms.ts, split.ts and stem.ts as Elasticsearch index settings, so that a cluster splits,
 * folds and stems text as the embedded engine does.
 *
 * - Words by the same pattern (Elasticsearch's pattern tokenizer takes the same source in Java).
 * - Identifiers: `word_delimiter_graph` splits each word on case changes and between letters and digits, giving its
 *   whole (`catenate_all`; `preserve_original` keeps a word it does not split) and its parts, and `flatten_graph` makes
 *   that graph indexable. The tokenizer has already cut a group of split.ts at its connectors (`.`, `_`, `-`, `::`),
 *   so the index holds each segment's whole (`getelementbyid` of `Document.getElementById`) and every part, in a row.
 *   A tokenizer keeping the group together would give the group's whole instead, but no segment's: word_delimiter
 *   catenates all parts or none, and `getelementbyid` would not find `Document.getElementById`. The group's whole, which
 *   analysis/query.ts gives for an identifier typed with its connectors, is matched as the phrase of its segments by
 *   the query (see schema.ts); only a multi-segment whole typed run together (`stdvector`) is not found.
 * - Folding is Lucene's `lowercase` and `asciifolding`, after the split (a case change splits): without the ICU plugin
 *   a cluster has no NFKD, so outside the Latin scripts (Greek accents, for one) it folds less than analysis/terms.ts does.
 * - Stemming: per language of stem.ts, its `elasticsearch` filter after the folding (stem.ts stems folded terms), with
 *   the same terms left alone (shorter than 3 characters, or holding a digit).
 *
 * - Words in scripts written without spaces (Chinese, Japanese, Thai…) and scripts glued to one another: a cluster
 *   without the ICU plugin has no dictionary segmenter, so the engine sends the text with WORD_BREAK at each break of
 *   analysis/scripts.ts (see documents.ts), where the words tokenizer ends a word as it ends one at any separator. The
 *   whole-title keyword reads a break as a space (the query's words joined by spaces name it), the title prefixes of
 *   autocomplete as nothing (the reader types the title as it reads).
 *
 * Queries are not split again by the cluster: the engine sends the words of analysis/query.ts (each group's whole,
 * already folded), which the search analyzers only tokenize and fold. A graph filter at search time would turn a word
 * such as `iperf3` into a graph of alternatives, which `cross_fields` and the term suggester handle poorly.
 */

/** The token filters that fold a term. */
export const FOLDING_FILTERS = ['lowercase', 'asciifolding'] as const;

/**
 * The terms stem.ts leaves alone (shorter than 3 characters, or holding a digit), as a `keyword_marker` pattern (the
 * whole term must match). Lengths are UTF-16 units in stem.ts, code points in Java: they differ only outside the BMP.
 */
export const UNSTEMMED_SOURCE = '.{1,2}|.*\\p{N}.*';

/** Names of the analysis parts other settings refer to. */
export const ANALYZERS = {
  /** Text split into words, each into its whole and parts (split.ts), folded: title, summary, body (indexing). */
  text: 'folded_text',
  /** The words of a query (already the analysis module's terms), folded: the search analyzer of the text fields. */
  search: 'folded_search',
  /** A whole title folded as one token (as foldPhrase). */
  phrase: 'folded_phrase',
  /** A keyword folded as a whole (locale, slug, exact title). */
  keyword: 'folded_keyword',
} as const;

/** Names of the tokenizers and filters of the generated settings. */
export const ANALYSIS_PARTS = {
  /** Tokenizer: words (WORD_SOURCE). */
  words: 'words',
  /** Filter: word_delimiter_graph as split.ts splits. */
  split: 'split_words',
  /** Filter: keyword_marker keeping UNSTEMMED_SOURCE terms from the stemmers. */
  unstemmed: 'unstemmed_terms',
  /** Char filter: runs of spaces made one. */
  collapseSpaces: 'collapse_spaces',
  /** Char filter: each WORD_BREAK made a space. */
  breaksAsSpaces: 'word_breaks_as_spaces',
  /** Char filter: WORD_BREAKs dropped. */
  withoutBreaks: 'without_word_breaks',
} as const;

/** The `word_delimiter_graph` options that split a word as split.ts splits a segment (see above). */
export const SPLIT_FILTER = {
  type: 'word_delimiter_graph',
  generate_word_parts: true,
  generate_number_parts: true,
  split_on_case_change: true,
  split_on_numerics: true,
  catenate_words: false,
  catenate_numbers: false,
  catenate_all: true,
  preserve_original: true,
  stem_english_possessive: false,
} as const;

/** The filters of an indexing analyzer of text: split, flattened (required at index time after a graph filter), folded. */
const INDEX_FILTERS = [ANALYSIS_PARTS.split, 'flatten_graph', ...FOLDING_FILTERS] as const;

/** The indexing analyzer of a stem language's fields. */
export const stemmedAnalyzer = (language: StemLanguage) => `stemmed_${language.name}`;
/** The search analyzer of a stem language's fields. */
export const stemmedSearchAnalyzer = (language: StemLanguage) => `stemmed_${language.name}_search`;
/** The token filter that stems a language. */
export const stemFilter = (language: StemLanguage) => `stem_${language.name}`;

/** The `analysis` section of an index's settings; `extra` adds filters and analyzers of the caller's own. */
export function elasticsearchAnalysis(extra: { filter?: Record<string, unknown>; analyzer?: Record<string, unknown> } = {}): Record<string, unknown> {
  const stemFilters = Object.fromEntries(STEM_LANGUAGES.map((language) => [stemFilter(language), { ...language.elasticsearch }]));
  const stemmed = STEM_LANGUAGES.flatMap((language) => {
    const stemming = [ANALYSIS_PARTS.unstemmed, stemFilter(language)];
    return [
      [stemmedAnalyzer(language), { type: 'custom', tokenizer: ANALYSIS_PARTS.words, filter: [...INDEX_FILTERS, ...stemming] }],
      [stemmedSearchAnalyzer(language), { type: 'custom', tokenizer: ANALYSIS_PARTS.words, filter: [...FOLDING_FILTERS, ...stemming] }],
    ] as const;
  });
  return {
    tokenizer: {
      [ANALYSIS_PARTS.words]: { type: 'pattern', pattern: WORD_SOURCE, group: 0 },
    },
    char_filter: {
      [ANALYSIS_PARTS.collapseSpaces]: { type: 'pattern_replace', pattern: SPACES_SOURCE, replacement: ' ' },
      [ANALYSIS_PARTS.breaksAsSpaces]: { type: 'pattern_replace', pattern: WORD_BREAK_SOURCE, replacement: ' ' },
      [ANALYSIS_PARTS.withoutBreaks]: { type: 'pattern_replace', pattern: WORD_BREAK_SOURCE, replacement: '' },
    },
    filter: {
      [ANALYSIS_PARTS.split]: { ...SPLIT_FILTER },
      [ANALYSIS_PARTS.unstemmed]: { type: 'keyword_marker', keywords_pattern: UNSTEMMED_SOURCE },
      ...stemFilters,
      ...extra.filter,
    },
    analyzer: {
      [ANALYZERS.text]: { type: 'custom', tokenizer: ANALYSIS_PARTS.words, filter: [...INDEX_FILTERS] },
      [ANALYZERS.search]: { type: 'custom', tokenizer: ANALYSIS_PARTS.words, filter: [...FOLDING_FILTERS] },
      [ANALYZERS.phrase]: { type: 'custom', tokenizer: 'keyword', char_filter: [ANALYSIS_PARTS.collapseSpaces], filter: ['trim', ...FOLDING_FILTERS] },
      ...Object.fromEntries(stemmed),
      ...extra.analyzer,
    },
    normalizer: {
      [ANALYZERS.keyword]: { type: 'custom', char_filter: [ANALYSIS_PARTS.breaksAsSpaces], filter: [...FOLDING_FILTERS] },
    },
  };
}
