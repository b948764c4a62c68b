import { SPACES_SOURCE, WORD_SOURCE } from './terms.js';

/**
 * The analysis rules of terms.ts as Elasticsearch index settings, so that a cluster splits and folds text as the
 * embedded engine does: words by the same pattern (Elasticsearch's pattern tokenizer takes the same source in Java),
 * whole titles with runs of spaces made one. Folding is Lucene's `lowercase` and `asciifolding`: without the ICU plugin
 * a cluster has no NFKD, so outside the Latin scripts (Greek accents, for one) it folds less than terms.ts does.
 */

/** The token filters that fold a term. */
export const FOLDING_FILTERS = ['lowercase', 'asciifolding'] as const;

/** Names of the analysis parts other settings refer to. */
export const ANALYZERS = {
  /** Text split into words and folded: title, summary, body. */
  text: 'folded_text',
  /** A whole title folded as one token (as foldPhrase). */
  phrase: 'folded_phrase',
  /** A keyword folded as a whole (locale, slug, exact title). */
  keyword: 'folded_keyword',
} as const;

/** The `analysis` section of an index's settings; `extra` adds filters and analyzers of the caller's own. */
export function elasticsearchAnalysis(extra: { filter?: Record<string, unknown>; analyzer?: Record<string, unknown> } = {}): Record<string, unknown> {
  return {
    tokenizer: {
      words: { type: 'pattern', pattern: WORD_SOURCE, group: 0 },
    },
    char_filter: {
      collapse_spaces: { type: 'pattern_replace', pattern: SPACES_SOURCE, replacement: ' ' },
    },
    filter: { ...extra.filter },
    analyzer: {
      [ANALYZERS.text]: { type: 'custom', tokenizer: 'words', filter: [...FOLDING_FILTERS] },
      [ANALYZERS.phrase]: { type: 'custom', tokenizer: 'keyword', char_filter: ['collapse_spaces'], filter: ['trim', ...FOLDING_FILTERS] },
      ...extra.analyzer,
    },
    normalizer: {
      [ANALYZERS.keyword]: { type: 'custom', filter: [...FOLDING_FILTERS] },
    },
  };
}
