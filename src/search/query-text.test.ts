import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MAX_QUERY_WORDS, MAX_WORD_LENGTH, foldForPrefix, matchExpression, tokenize, withoutControlCharacters } from './query-text.js';

describe('tokenize', () => {
  it('splits on everything but letters, digits and marks', () => {
    assert.deepEqual(tokenize('"title":NEAR(a* b) -x ^y café 東京 🦄 x2'), ['title', 'NEAR', 'a', 'b', 'x', 'y', 'café', '東京', 'x2']);
  });

  it('yields only words without syntax characters, bounded in count and length, for any input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const words = tokenize(text);
        assert.ok(words.length <= MAX_QUERY_WORDS);
        for (const word of words) {
          assert.ok(word.length > 0 && Array.from(word).length <= MAX_WORD_LENGTH);
          assert.doesNotMatch(word, /[\s"*():^{}+\-,.]/u);
        }
      }),
    );
  });
});

describe('matchExpression', () => {
  it('quotes every word so the expression is a plain AND of strings', () => {
    assert.equal(matchExpression(['NEAR', 'and']), '"NEAR" "and"');
    assert.equal(matchExpression(['a', 'fetc'], { prefixLast: true }), '"a" "fetc"*');
    assert.equal(matchExpression([]), undefined);
  });

  it('produces only quoted strings separated by spaces for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const expression = matchExpression(tokenize(text));
        if (expression !== undefined) assert.match(expression, /^"[^"]+"(?: "[^"]+")*$/u);
      }),
    );
  });
});

describe('foldForPrefix', () => {
  it('folds case, diacritics and whitespace', () => {
    assert.equal(foldForPrefix('  Élan\tVITAL  '), 'elan vital');
  });
});

describe('withoutControlCharacters', () => {
  it('replaces control characters but tab and line breaks with spaces, for any text', () => {
    assert.equal(withoutControlCharacters('a\u0002b\u0003c\td\ne\rf\u007f'), 'a b c\td\ne\rf ');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const cleaned = withoutControlCharacters(text);
        // eslint-disable-next-line no-control-regex -- the characters under test
        return cleaned.length === text.length && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(cleaned);
      }),
    );
  });
});
