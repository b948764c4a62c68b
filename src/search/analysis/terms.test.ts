import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ANALYZERS, FOLDING_FILTERS, MAX_QUERY_TERMS, MAX_TERM_LENGTH, WORD_SOURCE, elasticsearchAnalysis, fold, foldPhrase, indexedText, isWordCharacter, queryTerms, queryWords, termsOf, termsOfWord, wordsOf } from './index.js';

const TERM = /^[\p{L}\p{N}\p{Co}]+$/u;

describe('termsOf', () => {
  it('splits on everything but letters, digits and marks, and folds case and diacritics', () => {
    assert.deepEqual(termsOf('"title":NEAR(a* b) -x ^y Café 東京 🦄 x2 foo_bar'), ['title', 'near', 'a', 'b', 'x', 'y', 'cafe', '東京', 'x2', 'foo', 'bar']);
  });

  it('gives a compatibility form the words of its decomposition', () => {
    assert.deepEqual(termsOf('\u2474 \ufb01le İstanbul'), ['1', 'file', 'istanbul']);
    assert.deepEqual(termsOfWord('\u0301'), [], 'a word of marks only has no term');
  });

  it('cuts a term to MAX_TERM_LENGTH characters', () => {
    assert.deepEqual(termsOf('a'.repeat(100)), ['a'.repeat(MAX_TERM_LENGTH)]);
    assert.deepEqual(termsOf(`é${'𝒜'.repeat(100)}`).map((term) => Array.from(term).length), [MAX_TERM_LENGTH]);
  });

  it('gives the words of the folded text, each cut, and the terms of each word in turn between ASCII separators (property)', () => {
    const separated = fc.array(fc.tuple(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom(' ', '.', '_', '::', ', ')), { maxLength: 12 });
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), separated, (text, pieces) => {
        const terms = termsOf(text);
        assert.deepEqual(terms, (fold(text).match(/[\p{L}\p{N}\p{Co}]+/gu) ?? []).map((term) => Array.from(term).slice(0, MAX_TERM_LENGTH).join('')));
        const joined = pieces.map(([word, separator]) => `${word}${separator}`).join('');
        assert.deepEqual(termsOf(joined), pieces.flatMap(([word]) => termsOfWord(word)));
        for (const term of terms) {
          assert.match(term, TERM);
          assert.ok(Array.from(term).length <= MAX_TERM_LENGTH);
          assert.deepEqual(termsOfWord(term), [term], 'a term is its own only term');
        }
        assert.deepEqual(indexedText(text).split(' ').filter((term) => term !== ''), terms);
      }),
      { numRuns: 500 },
    );
  });

  it('holds no ASCII character other than a-z and 0-9, so a tokenizer splitting on ASCII punctuation reads it back (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (text) => {
        for (const term of termsOf(text)) for (const character of term) if (character < '\u0080') assert.match(character, /[a-z0-9]/);
      }),
    );
  });
});

describe('wordsOf', () => {
  it('gives each word with where it stands', () => {
    assert.deepEqual([...wordsOf('Hé, 東京!')], [{ text: 'Hé', start: 0, end: 2 }, { text: '東京', start: 4, end: 6 }]);
  });

  it('agrees with isWordCharacter on every character (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const inWords = new Set<number>();
        for (const word of wordsOf(text)) for (let at = word.start; at < word.end; at++) inWords.add(at);
        for (let at = 0; at < text.length; at++) {
          const character = String.fromCodePoint(text.codePointAt(at) as number);
          assert.equal(isWordCharacter(character), inWords.has(at), `at ${at}`);
          at += character.length - 1;
        }
      }),
    );
  });
});

describe('fold and foldPhrase', () => {
  it('fold decomposes, drops marks and lower-cases, keeping separators', () => {
    assert.equal(fold('Élan-VITAL ﬁ'), 'elan-vital fi');
  });

  it('foldPhrase also makes runs of spaces and control characters one space, trimmed', () => {
    assert.equal(foldPhrase('  Élan\tVITAL\u00a0\u0000 x '), 'elan vital x');
  });
});

describe('queryTerms', () => {
  it('gives the terms of the text, at most MAX_QUERY_TERMS', () => {
    assert.deepEqual(queryTerms('title:Alpha AND "beta*" NEAR(Café)'), ['title', 'alpha', 'and', 'beta', 'near', 'cafe']);
    assert.equal(queryTerms('w '.repeat(100)).length, MAX_QUERY_TERMS);
  });

  it('names the word each term was typed as', () => {
    assert.deepEqual(queryWords('Café \u2474x'), [{ term: 'cafe', typed: 'Café' }, { term: '1', typed: '1' }, { term: 'x', typed: 'x' }]);
  });

  it('yields only terms without syntax characters, bounded in count and length, for any input (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const terms = queryTerms(text);
        assert.deepEqual(terms, termsOf(text).slice(0, MAX_QUERY_TERMS));
        for (const term of terms) assert.match(term, TERM);
      }),
    );
  });
});

describe('elasticsearchAnalysis', () => {
  it('tokenizes with the word pattern and folds with the folding filters, in every analyzer of text', () => {
    const analysis = elasticsearchAnalysis() as { tokenizer: Record<string, { pattern: string }>; analyzer: Record<string, { tokenizer: string; filter: string[] }> };
    const text = analysis.analyzer[ANALYZERS.text];
    assert.ok(text !== undefined);
    assert.equal(analysis.tokenizer[text.tokenizer]?.pattern, WORD_SOURCE);
    assert.deepEqual(text.filter, [...FOLDING_FILTERS]);
    assert.deepEqual(analysis.analyzer[ANALYZERS.phrase]?.filter, ['trim', ...FOLDING_FILTERS]);
  });

  it('keeps the caller own filters and analyzers beside its own', () => {
    const analysis = elasticsearchAnalysis({ filter: { edge: { type: 'edge_ngram' } }, analyzer: { mine: { type: 'custom', tokenizer: 'keyword' } } }) as Record<string, Record<string, unknown>>;
    assert.deepEqual(analysis['filter'], { edge: { type: 'edge_ngram' } });
    assert.ok(analysis['analyzer']?.['mine'] !== undefined && analysis['analyzer']?.[ANALYZERS.text] !== undefined);
  });
});
