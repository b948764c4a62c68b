import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { tokenize } from './query-text.js';
import { countExpression, searchExpression } from './search-expression.js';

describe('searchExpression', () => {
  it('requires every word, matches a long last word as a prefix, and boosts the exact word and the phrase', () => {
    assert.equal(searchExpression(['fetch']), '("fetch" OR "fetch"*)');
    assert.equal(searchExpression(['of']), '"of"');
    assert.equal(searchExpression(['service', 'work']), '("service" AND ("work" OR "work"*)) OR "service work"*');
    assert.equal(searchExpression(['use', 'of']), '("use" AND "of") OR "use of"');
    assert.equal(searchExpression([]), undefined);
    assert.equal(countExpression(['service', 'work']), '"service" "work"*');
  });

  it('contains no user syntax outside quoted strings for any text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const expression = searchExpression(tokenize(text));
        if (expression === undefined) return;
        const outside = expression.replace(/"(?:[^"]|"")*"/g, '');
        assert.match(outside, /^[()* ORAND]*$/);
      }),
      { numRuns: 500 },
    );
  });
});
