/** Text analysis: how text becomes terms, for every part of search (see terms.ts). */
export { MAX_TERM_LENGTH, SPACES_SOURCE, WORD_SOURCE, fold, foldPhrase, groupsOf, indexedText, isWordCharacter, termsOf, termsOfWord, wordsOf, type Word } from './terms.js';
export { beginsPiece, type Group } from './split.js';
export { WORD_BREAK, WORD_BREAK_SOURCE, breaksOf, hasBreakingScript, isSegmentedScript, withWordBreaks, withoutWordBreaks } from './scripts.js';
export { STEM_LANGUAGES, STEM_MARKER, stemLanguageOf, stemLanguagesOf, stemOf, type StemLanguage } from './stem.js';
export { MAX_QUERY_TERMS, queryTerms, queryText, queryWords, type QueryTerm } from './query.js';
export { analyzeDocument, exactKeyOf, isDocumentAnalysis, type DocumentAnalysis } from './document.js';
