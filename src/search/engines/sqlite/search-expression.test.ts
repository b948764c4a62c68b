import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { queryTerms } from '../../analysis/index.js';
import { countExpression, planQuery, requiredPositions, searchExpression, typedPhraseExpression, withoutWords, type ExpressionPlan } from './search-expression.js';

/** A plan of every typed word: the last one a prefix from 3 characters on, all of them one phrase. */
function typed(words: string[], plan: Partial<ExpressionPlan> = {}): ExpressionPlan {
  return { words, prefixLast: Array.from(words[words.length - 1] ?? '').length >= 3, phrases: words.length > 1 ? [[0, words.length]] : [], ...plan };
}

describe('planQuery', () => {
  const frequencies: Record<string, number> = { the: 9000, of: 8000, fetch: 300, element: 2000 };
  const frequency = (word: string) => frequencies[word];

  it('drops words in more than 30% of documents when a rarer word remains, and keeps all when none does', () => {
    assert.deepEqual(planQuery(['the', 'fetch', 'of', 'element'], 10_000, frequency), { words: ['fetch', 'element'], prefixLast: false, common: false, phrases: [], dropped: ['the', 'of'], typedPhrase: ['the', 'fetch', 'of', 'element'] });
    assert.deepEqual(planQuery(['the', 'of'], 10_000, frequency), { words: ['the', 'of'], prefixLast: false, common: true, phrases: [[0, 2]] });
    assert.deepEqual(planQuery(['the', 'fetch'], 500, frequency), { words: ['the', 'fetch'], prefixLast: false, common: false, phrases: [[0, 2]], typedPhrase: ['the', 'fetch'] }, 'a small index has no common words');
  });

  it('matches the last word as a prefix only when it is 3+ characters and not a term of the index', () => {
    assert.deepEqual(planQuery(['the', 'fet'], 10_000, frequency), { words: ['fet'], prefixLast: true, common: false, phrases: [], dropped: ['the'], typedPhrase: ['the', 'fet'] });
    assert.deepEqual(planQuery(['the', 'fe'], 10_000, frequency), { words: ['fe'], prefixLast: false, common: false, phrases: [], dropped: ['the'], typedPhrase: ['the', 'fe'] });
    assert.deepEqual(planQuery(['fetch'], 10_000, frequency), { words: ['fetch'], prefixLast: false, common: false, phrases: [] });
  });

  it('keeps as phrases only the runs of words that stand next to each other in the text when common words are dropped', () => {
    const words = ['fetch', 'element', 'of', 'fetch', 'zzz', 'the', 'element'];
    assert.deepEqual(planQuery(words, 10_000, frequency).phrases, [[0, 2], [2, 4]], 'fetch element | fetch zzz; the lone last element is no phrase');
    assert.deepEqual(planQuery(['fetch', 'element', 'zzz'], 10_000, frequency).phrases, [[0, 3]]);
    assert.deepEqual(planQuery(['of', 'fetch', 'element', 'the'], 10_000, frequency).phrases, [[0, 2]]);
  });
});

describe('typedPhrase', () => {
  const frequency = (word: string) => (word.startsWith('c') ? 9000 : 10);

  it('keeps every word typed in order, common ones included, when there are two or more and one is not common (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-e]{1,4}$/), { minLength: 1, maxLength: 6 }), (words) => {
        const plan = planQuery(words, 10_000, frequency);
        const expected = words.length > 1 && !plan.common ? words : undefined;
        assert.deepEqual(plan.typedPhrase, expected);
      }),
    );
  });

  it('is one quoted FTS5 phrase, its last word a prefix only when unfinished and not expanded', () => {
    assert.equal(typedPhraseExpression({ typedPhrase: ['als', 'hash'], prefixLast: false }), '"als hash"');
    assert.equal(typedPhraseExpression({ typedPhrase: ['als', 'has'], prefixLast: true }), '"als has"*');
    assert.equal(typedPhraseExpression({ typedPhrase: ['als', 'has'], prefixLast: true, expansions: ['hash'] }), '"als has"');
    assert.equal(typedPhraseExpression({ typedPhrase: ['say "hi"', 'x'], prefixLast: false }), '"say ""hi"" x"');
    assert.equal(typedPhraseExpression({ prefixLast: false }), undefined);
  });
});

describe('searchExpression', () => {
  it('leaves the dropped common words out, and matches each word or any of its alternatives', () => {
    const dropped = { ...typed(['fetch', 'element'], { prefixLast: false }), phrases: [], dropped: ['the', 'of'] };
    assert.equal(searchExpression(dropped), '"fetch" AND "element"');
    const plan = { ...typed(['getelementbyid', 'measure'], { prefixLast: false }), phrases: [], alternatives: [['get element by id'], ['\ufdd0measur', 'measur']] };
    assert.equal(searchExpression(plan), '("getelementbyid" OR "get element by id") AND ("measure" OR "\ufdd0measur" OR "measur")');
    assert.deepEqual(requiredWords({ ...plan, alternatives: [undefined, ['measur']] }), ['getelementbyid']);
  });


  it('requires every word, matches a long last word as a prefix, and boosts the exact word and the phrase', () => {
    assert.equal(searchExpression(typed(['fetch'])), '("fetch" OR "fetch"*)');
    assert.equal(searchExpression(typed(['of'])), '"of"');
    assert.equal(searchExpression(typed(['service', 'work'])), '("service" AND ("work" OR "work"*)) OR "service work"*');
    assert.equal(searchExpression(typed(['use', 'of'])), '("use" AND "of") OR "use of"');
    assert.equal(searchExpression(typed([])), undefined);
    assert.equal(countExpression(['service', 'work']), '"service" "work"*');
  });

  it('matches the listed completions instead of a prefix when the engine expands the last word', () => {
    assert.equal(searchExpression(typed(['service', 'work'], { expansions: ['worker', 'workshop'] })), '("service" AND ("work" OR "worker" OR "workshop")) OR "service work"');
    assert.equal(countExpression(['service', 'work'], true, ['work', 'worker']), '"service" AND ("work" OR "worker")');
    assert.equal(countExpression(['zzz'], true, []), '("zzz")');
  });

  it('adds each phrase of the plan, and none when the words never stand next to each other', () => {
    assert.equal(searchExpression(typed(['fetch', 'element'], { prefixLast: false, phrases: [] })), '"fetch" AND "element"');
    assert.equal(
      searchExpression(typed(['a', 'b', 'c', 'work'], { phrases: [[0, 2], [2, 4]] })),
      '("a" AND "b" AND "c" AND ("work" OR "work"*)) OR "a b" OR "c work"*',
      'only the phrase ending with the last word is a prefix',
    );
  });

  it('contains no user syntax outside quoted strings for any text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const expression = searchExpression(typed(queryTerms(text)));
        if (expression === undefined) return;
        const outside = expression.replace(/"(?:[^"]|"")*"/g, '');
        assert.match(outside, /^[()* ORAND]*$/);
      }),
      { numRuns: 500 },
    );
  });
});

/** The words at the required positions. */
const requiredWords = (plan: ExpressionPlan) => requiredPositions(plan).map((at) => plan.words[at]);

describe('requiredPositions', () => {
  it('holds every word but an unfinished last one, unless that one has no completion to match instead', () => {
    assert.deepEqual(requiredWords(typed(['service', 'work'], { prefixLast: false })), ['service', 'work']);
    assert.deepEqual(requiredWords(typed(['service', 'work'])), ['service'], 'work* may match as a prefix');
    assert.deepEqual(requiredWords(typed(['service', 'work'], { expansions: ['worker'] })), ['service'], 'or as a completion');
    assert.deepEqual(requiredWords(typed(['service', 'wxyz'], { expansions: [] })), ['service', 'wxyz'], 'no completion: as typed');
    assert.deepEqual(requiredWords(typed([])), []);
  });

  it('tells a repeated word required at one place from the same word unfinished at the last', () => {
    assert.deepEqual(requiredPositions(typed(['caf', 'caf'])), [0]);
    assert.deepEqual(requiredPositions(typed(['caf', 'caf'], { alternatives: [['cafe'], undefined] })), []);
    assert.deepEqual(requiredPositions(typed(['caf', 'caf'], { prefixLast: false })), [0, 1]);
  });
});

describe('withoutWords', () => {
  it('drops the words with their alternatives and splits the phrases that held them', () => {
    const plan = { words: ['a', 'b', 'c', 'd', 'e'], prefixLast: true, phrases: [[0, 5]] as const, alternatives: [['a1'], undefined, ['c1'], undefined, ['e1']] };
    assert.deepEqual(withoutWords(plan, new Set([2])), { words: ['a', 'b', 'd', 'e'], prefixLast: true, phrases: [[0, 2], [2, 4]], alternatives: [['a1'], undefined, undefined, ['e1']] });
    const lastGone = withoutWords(plan, new Set([4]));
    assert.deepEqual([lastGone.words, lastGone.prefixLast, lastGone.phrases], [['a', 'b', 'c', 'd'], false, [[0, 4]]]);
  });

  it('keeps every remaining word in order and no phrase over a dropped one, for any plan (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,4}$/), { minLength: 1, maxLength: 8 }), fc.array(fc.nat(8)), (words, cuts) => {
        const dropped = new Set(cuts.filter((cut) => cut < words.length));
        const plan = withoutWords({ words, prefixLast: false, phrases: [[0, words.length]] as const }, dropped);
        assert.deepEqual(plan.words, words.filter((_, at) => !dropped.has(at)));
        for (const [start, end] of plan.phrases) assert.ok(end - start > 1 && end <= plan.words.length);
      }),
    );
  });
});
