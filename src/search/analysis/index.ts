/** Text analysis: how text becomes terms, for every part of search (see terms.ts). */
export { MAX_TERM_LENGTH, WORD_SOURCE, fold, foldPhrase, groupsOf, indexedText, isWordCharacter, termsOf, termsOfWord, wordsOf, type Word } from './terms.js';
export type { Group } from './split.js';
export { STEM_LANGUAGES, STEM_MARKER, stemLanguageOf, stemOf, stemTokens, type StemLanguage } from './stem.js';
export { MAX_QUERY_TERMS, queryTerms, queryWords, type QueryTerm } from './query.js';
export { ANALYZERS, FOLDING_FILTERS, elasticsearchAnalysis } from './elasticsearch.js';
