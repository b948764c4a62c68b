import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { queryTerms } from '../analysis/index.js';
import { matchExpression, withoutControlCharacters } from './query-text.js';

describe('matchExpression', () => {
  it('quotes every word so the expression is a plain AND of strings', () => {
    assert.equal(matchExpression(['NEAR', 'and']), '"NEAR" "and"');
    assert.equal(matchExpression(['a', 'fetc'], { prefixLast: true }), '"a" "fetc"*');
    assert.equal(matchExpression([]), undefined);
  });

  it('produces only quoted strings separated by spaces for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const expression = matchExpression(queryTerms(text));
        if (expression !== undefined) assert.match(expression, /^"[^"]+"(?: "[^"]+")*$/u);
      }),
    );
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
