import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { STEM_LANGUAGES, WORD_BREAK, breaksOf, WORD_BREAK_SOURCE, WORD_SOURCE, groupsOf, stemOf, withWordBreaks, wordsOf } from '../../analysis/index.js';
import {
  ANALYSIS_PARTS,
  ANALYZERS,
  FOLDING_FILTERS,
  SPLIT_FILTER,
  UNSTEMMED_SOURCE,
  elasticsearchAnalysis,
  stemFilter,
  stemmedAnalyzer,
  stemmedSearchAnalyzer,
} from './analysis-settings.js';

interface Analyzer {
  type: string;
  tokenizer: string;
  filter?: string[];
  char_filter?: string[];
}
interface Analysis {
  tokenizer: Record<string, { type: string; pattern: string; group: number }>;
  char_filter: Record<string, Record<string, unknown>>;
  filter: Record<string, Record<string, unknown>>;
  analyzer: Record<string, Analyzer>;
  normalizer: Record<string, { type: string; filter: string[]; char_filter?: string[] }>;
}

const analysis = elasticsearchAnalysis() as unknown as Analysis;

/** Components Elasticsearch defines itself, which settings may name without defining them. */
const BUILT_IN = {
  tokenizer: new Set(['keyword', 'standard', 'whitespace']),
  filter: new Set(['lowercase', 'asciifolding', 'trim', 'flatten_graph']),
  char_filter: new Set<string>(),
};

/** Every name an analyzer or normalizer refers to that the settings do not define (and Elasticsearch does not either). */
function undefinedNames(settings: Analysis): string[] {
  const missing: string[] = [];
  const check = (kind: keyof typeof BUILT_IN, owner: string, name: string) => {
    if (!BUILT_IN[kind].has(name) && settings[kind]?.[name] === undefined) missing.push(`${owner}: ${kind} ${name}`);
  };
  for (const [name, analyzer] of Object.entries(settings.analyzer)) {
    check('tokenizer', name, analyzer.tokenizer);
    for (const filter of analyzer.filter ?? []) check('filter', name, filter);
    for (const filter of analyzer.char_filter ?? []) check('char_filter', name, filter);
  }
  for (const [name, normalizer] of Object.entries(settings.normalizer)) {
    for (const filter of normalizer.filter) check('filter', name, filter);
    for (const filter of normalizer.char_filter ?? []) check('char_filter', name, filter);
  }
  return missing;
}

const tokensOf = (source: string, text: string): [number, number][] => [...text.matchAll(new RegExp(source, 'gu'))].map((match) => [match.index, match.index + match[0].length]);

describe('elasticsearchAnalysis', () => {
  it('defines every tokenizer, filter and char filter its analyzers and normalizers name', () => {
    assert.deepEqual(undefinedNames(analysis), []);
    assert.deepEqual(undefinedNames({ ...analysis, analyzer: { ...analysis.analyzer, broken: { type: 'custom', tokenizer: 'nope', filter: ['lowercase', 'gone'] } } }), [
      'broken: tokenizer nope',
      'broken: filter gone',
    ]);
  });

  it('indexes text by words, each split as split.ts splits a segment, flattened, then folded', () => {
    const text = analysis.analyzer[ANALYZERS.text];
    assert.deepEqual(text, { type: 'custom', tokenizer: ANALYSIS_PARTS.words, filter: [ANALYSIS_PARTS.split, 'flatten_graph', ...FOLDING_FILTERS] });
    assert.deepEqual(analysis.tokenizer[ANALYSIS_PARTS.words], { type: 'pattern', pattern: WORD_SOURCE, group: 0 });
    assert.deepEqual(analysis.filter[ANALYSIS_PARTS.split], { ...SPLIT_FILTER });
    const split = analysis.filter[ANALYSIS_PARTS.split] ?? {};
    assert.equal(split['type'], 'word_delimiter_graph');
    for (const option of ['preserve_original', 'catenate_all', 'split_on_case_change', 'split_on_numerics', 'generate_word_parts', 'generate_number_parts']) {
      assert.equal(split[option], true, option);
    }
    assert.equal(split['stem_english_possessive'], false);
  });

  it('searches with the word pattern and the folding filters only: queries come split by the analysis module', () => {
    assert.deepEqual(analysis.analyzer[ANALYZERS.search], { type: 'custom', tokenizer: ANALYSIS_PARTS.words, filter: [...FOLDING_FILTERS] });
    assert.equal(analysis.tokenizer[ANALYSIS_PARTS.words]?.pattern, WORD_SOURCE);
    assert.deepEqual(analysis.analyzer[ANALYZERS.phrase]?.filter, ['trim', ...FOLDING_FILTERS]);
    assert.deepEqual(analysis.normalizer[ANALYZERS.keyword]?.filter, [...FOLDING_FILTERS]);
  });

  it('cuts the groups of split.ts at their connectors only: each group is a run of whole tokens', () => {
    assert.deepEqual(tokensOf(WORD_SOURCE, 'Document.getElementById std::vector a_b-c 2026-11-23'), [[0, 8], [9, 23], [24, 27], [29, 35], [36, 37], [38, 39], [40, 41], [42, 46], [47, 49], [50, 52]]);
    const unit = fc.constantFrom('a', 'B', 'z', '3', '0', 'é', 'Ω', '東', '.', '_', '-', ':', ' ', '!', '/', "'");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 30 }), (text) => {
        // Offsets in the text as sent, after the word breaks put in before them (see documents.ts).
        const breaks = breaksOf(text);
        const startAt = (at: number) => at + breaks.filter((place) => place <= at).length;
        const endAt = (at: number) => at + breaks.filter((place) => place < at).length;
        const tokens = tokensOf(WORD_SOURCE, withWordBreaks(text));
        const starts = new Set(tokens.map(([start]) => start));
        const ends = new Set(tokens.map(([, end]) => end));
        for (const { start: from, end: to } of groupsOf(text)) {
          const group = { start: startAt(from), end: endAt(to) };
          assert.ok(starts.has(group.start) && ends.has(group.end), JSON.stringify(text));
          for (const [start, end] of tokens) assert.ok(end <= group.start || start >= group.end || (start >= group.start && end <= group.end), JSON.stringify(text));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reads the word breaks the engine sends: words end there, the whole title reads one as a space', () => {
    assert.deepEqual(analysis.char_filter[ANALYSIS_PARTS.breaksAsSpaces], { type: 'pattern_replace', pattern: WORD_BREAK_SOURCE, replacement: ' ' });
    assert.deepEqual(analysis.char_filter[ANALYSIS_PARTS.withoutBreaks], { type: 'pattern_replace', pattern: WORD_BREAK_SOURCE, replacement: '' });
    assert.deepEqual(analysis.normalizer[ANALYZERS.keyword], { type: 'custom', char_filter: [ANALYSIS_PARTS.breaksAsSpaces], filter: [...FOLDING_FILTERS] });
    assert.ok(new RegExp(WORD_BREAK_SOURCE, 'u').test(WORD_BREAK) && !new RegExp(WORD_SOURCE, 'u').test(WORD_BREAK));
  });

  it('gives the words of the analysis module as its tokens of a text sent with word breaks (property)', () => {
    const unit = fc.constantFrom('a', 'B', '3', 'é', '国', '际', '化', '路', '由', 'の', 'を', 'イ', 'ン', 'ス', '인', '가', 'ก', 'า', 'ร', ' ', '.', '（');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 30 }), (text) => {
        const sent = withWordBreaks(text);
        const tokens = tokensOf(WORD_SOURCE, sent).map(([start, end]) => sent.slice(start, end));
        assert.deepEqual(tokens, [...wordsOf(text)].map((word) => word.text), JSON.stringify(text));
      }),
      { numRuns: 500 },
    );
  });

  it('has a stemmed analyzer per stem language: the text analyzer, then its stemmer after the folding', () => {
    const stemFilters = Object.keys(analysis.filter).filter((name) => name.startsWith('stem_'));
    assert.equal(stemFilters.length, STEM_LANGUAGES.length);
    for (const language of STEM_LANGUAGES) {
      assert.deepEqual(analysis.filter[stemFilter(language)], language.elasticsearch, language.name);
      assert.deepEqual(analysis.analyzer[stemmedAnalyzer(language)], {
        type: 'custom',
        tokenizer: ANALYSIS_PARTS.words,
        filter: [...(analysis.analyzer[ANALYZERS.text]?.filter ?? []), ANALYSIS_PARTS.unstemmed, stemFilter(language)],
      });
      assert.deepEqual(analysis.analyzer[stemmedSearchAnalyzer(language)], {
        type: 'custom',
        tokenizer: ANALYSIS_PARTS.words,
        filter: [...FOLDING_FILTERS, ANALYSIS_PARTS.unstemmed, stemFilter(language)],
      });
    }
    assert.deepEqual(analysis.filter[stemFilter(STEM_LANGUAGES.find((language) => language.name === 'english') ?? assert.fail())], { type: 'stemmer', language: 'english' });
  });

  it('keeps from the stemmers the terms stem.ts does not stem', () => {
    assert.deepEqual(analysis.filter[ANALYSIS_PARTS.unstemmed], { type: 'keyword_marker', keywords_pattern: UNSTEMMED_SOURCE });
    const unstemmed = new RegExp(`^(?:${UNSTEMMED_SOURCE})$`, 'u');
    for (const term of ['id', 'is', 'h264', 'mp3s', '2026']) assert.ok(unstemmed.test(term), term);
    for (const term of ['measuring', 'the', 'houses']) assert.ok(!unstemmed.test(term), term);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'e', 'i', 'n', 'g', 's', 'r', 'u', '1', '9'), minLength: 1, maxLength: 12 }), (term) => {
        if (!unstemmed.test(term)) return;
        for (const language of STEM_LANGUAGES) assert.equal(stemOf(language, term), term, `${language.name} ${term}`);
      }),
    );
  });

  it('keeps the caller own filters and analyzers beside its own', () => {
    const extended = elasticsearchAnalysis({ filter: { edge: { type: 'edge_ngram' } }, analyzer: { mine: { type: 'custom', tokenizer: 'keyword' } } }) as unknown as Analysis;
    assert.deepEqual(extended.filter['edge'], { type: 'edge_ngram' });
    assert.ok(extended.filter[ANALYSIS_PARTS.split] !== undefined);
    assert.ok(extended.analyzer['mine'] !== undefined && extended.analyzer[ANALYZERS.text] !== undefined);
  });
});
