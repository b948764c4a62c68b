/** Text analysis: how text becomes terms, for every part of search (see terms.ts). */
export { MAX_TERM_LENGTH, WORD_SOURCE, fold, foldPhrase, indexedText, isWordCharacter, termsOf, termsOfWord, wordsOf, type Word } from './terms.js';
export { MAX_QUERY_TERMS, queryTerms, queryWords, type QueryTerm } from './query.js';
export { ANALYZERS, FOLDING_FILTERS, elasticsearchAnalysis } from './elasticsearch.js';
