import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { tokenize } from './query-text.js';
import { countExpression, planQuery, searchExpression } from './search-expression.js';

describe('planQuery', () => {
  const frequencies: Record<string, number> = { the: 9000, of: 8000, fetch: 300, element: 2000 };
  const frequency = (word: string) => frequencies[word];

  it('drops words in more than 30% of documents when a rarer word remains, and keeps all when none does', () => {
    assert.deepEqual(planQuery(['the', 'fetch', 'of', 'element'], 10_000, frequency), { words: ['fetch', 'element'], prefixLast: false, common: false });
    assert.deepEqual(planQuery(['the', 'of'], 10_000, frequency), { words: ['the', 'of'], prefixLast: false, common: true });
    assert.deepEqual(planQuery(['the', 'fetch'], 500, frequency), { words: ['the', 'fetch'], prefixLast: false, common: false }, 'a small index has no common words');
  });

  it('matches the last word as a prefix only when it is 3+ characters and not a term of the index', () => {
    assert.deepEqual(planQuery(['the', 'fet'], 10_000, frequency), { words: ['fet'], prefixLast: true, common: false });
    assert.deepEqual(planQuery(['the', 'fe'], 10_000, frequency), { words: ['fe'], prefixLast: false, common: false });
    assert.deepEqual(planQuery(['fetch'], 10_000, frequency), { words: ['fetch'], prefixLast: false, common: false });
  });
});

describe('searchExpression', () => {
  it('requires every word, matches a long last word as a prefix, and boosts the exact word and the phrase', () => {
    assert.equal(searchExpression(['fetch']), '("fetch" OR "fetch"*)');
    assert.equal(searchExpression(['of']), '"of"');
    assert.equal(searchExpression(['service', 'work']), '("service" AND ("work" OR "work"*)) OR "service work"*');
    assert.equal(searchExpression(['use', 'of']), '("use" AND "of") OR "use of"');
    assert.equal(searchExpression([]), undefined);
    assert.equal(countExpression(['service', 'work']), '"service" "work"*');
  });

  it('matches the listed completions instead of a prefix when the engine expands the last word', () => {
    assert.equal(searchExpression(['service', 'work'], true, ['worker', 'workshop']), '("service" AND ("work" OR "worker" OR "workshop")) OR "service work"');
    assert.equal(countExpression(['service', 'work'], true, ['work', 'worker']), '"service" AND ("work" OR "worker")');
    assert.equal(countExpression(['zzz'], true, []), '("zzz")');
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
