import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { queryWords } from '../../analysis/index.js';
import { PINNED_TYPO_FROM, RARE_WORD_DOCUMENTS, RARE_WORD_RATIO } from '../../policy/typo-rules.js';
import { FUZZINESS, wordQuery } from './schema.js';
import { TITLE_CANDIDATES, TITLE_NEIGHBOURS, allowedEdits, correctedText, formsProbe, heldCorrections, heldTitles, leftOut, optionsProbe, titlesProbe, typoPlan, typoProbe } from './typos.js';
import { orPinnedTitles } from './pinned-titles.js';

/** A response as the search as typed carries it back: documents per word, and options per word from the suggester. */
function probed(words: readonly string[], held: readonly number[], options: readonly (readonly [string, number])[][]) {
  let offset = 0;
  const typos = words.map((word, at) => {
    const entry = { text: word, offset, length: word.length, options: (options[at] ?? []).map(([text, freq]) => ({ text, score: 0.8, freq })) };
    offset += word.length + 1;
    return entry;
  });
  return {
    aggregations: { held: { doc_count: 100, words: { buckets: Object.fromEntries(held.map((count, at) => [String(at), { doc_count: count }])) } } },
    suggest: { typos },
  } as never;
}

const formsAnswer = (counts: Record<string, number>) =>
  ({ aggregations: { forms: { doc_count: 100, words: { buckets: Object.fromEntries(Object.entries(counts).map(([at, count]) => [at, { doc_count: count }])) } } } }) as never;

describe('elasticsearch typo policy', () => {
  it('asks how the whole index holds each word as typed, and the neighbours of the missing and rare ones', () => {
    assert.deepEqual(typoProbe(['kestral', 'falcon']), {
      aggs: { held: { global: {}, aggs: { words: { filters: { filters: { 0: { term: { words: 'kestral' } }, 1: { term: { words: 'falcon' } } } } } } } },
      suggest: {
        typos: { text: 'kestral falcon', term: { field: 'words', suggest_mode: 'popular', max_edits: 2, prefix_length: 1, min_word_length: 3, size: 3, sort: 'score', max_term_freq: RARE_WORD_DOCUMENTS } },
        titles: { text: 'kestral falcon', term: { field: 'title', suggest_mode: 'always', max_edits: 2, prefix_length: 1, min_word_length: PINNED_TYPO_FROM, size: TITLE_CANDIDATES, sort: 'score', max_term_freq: 2 ** 31 - 1 } },
      },
    });
  });

  it('asks how the pages of the locales searched hold each word, and every word its neighbours, when the query names locales', () => {
    const inPtBr = (clause: object) => ({ bool: { filter: [clause, { terms: { locale: ['pt-br'] } }] } });
    const probe = typoProbe(['grabe'], ['pt-BR']);
    assert.deepEqual(probe.aggs, { held: { global: {}, aggs: { words: { filters: { filters: { 0: inPtBr({ term: { words: 'grabe' } }) } } } } } });
    assert.equal((probe.suggest?.['typos'] as { term: { suggest_mode: string } }).term.suggest_mode, 'always');
    const options = optionsProbe(new Map([[0, ['greve', 'grebe']]]), ['pt-BR']);
    assert.deepEqual(options.aggs, {
      options: { global: {}, aggs: { words: { filters: { filters: { '0:0': inPtBr({ term: { words: 'greve' } }), '0:1': inPtBr({ term: { words: 'grebe' } }) } } } } },
    });
  });

  it('corrects a word to its nearest neighbour the locales searched hold, and not at all when they hold none', () => {
    const answer = (counts: Record<string, number>) =>
      ({ aggregations: { options: { doc_count: 9, words: { buckets: Object.fromEntries(Object.entries(counts).map(([key, count]) => [key, { doc_count: count }])) } } } }) as never;
    const options = new Map([[0, ['greve', 'grebe']], [2, ['tutorial']]]);
    assert.deepEqual(heldCorrections(options, answer({ '0:0': 0, '0:1': 1, '2:0': 0 })), new Map([[0, 'grebe']]));
  });

  it('asks whether the index holds a word in another form by the clause the query matches it with, without neighbours', () => {
    const typed = queryWords('kestral missingword');
    const probe = formsProbe(typed, new Set([1]), []);
    assert.deepEqual(probe, { aggs: { forms: { global: {}, aggs: { words: { filters: { filters: { 1: wordQuery(typed[1] as never, [], true) } } } } } } });
    assert.ok(JSON.stringify(probe).includes('"prefix"') && !JSON.stringify(probe).includes('fuzziness'));
  });

  it('widens a word held in a few documents when a neighbour within its edits is held RARE_WORD_RATIO times as often, correcting nothing', () => {
    const words = ['kestral', 'falcon', 'plovar', 'dunlim', 'curlaw'];
    const plan = typoPlan(
      words,
      probed(words, [1, 40, 1, RARE_WORD_DOCUMENTS + 1, 2], [
        [['kestrel', RARE_WORD_RATIO], ['kestrels', 10_000]],
        [],
        [['plover', RARE_WORD_RATIO - 1], ['plumber', 10_000]],
        [['dunlin', 10_000]],
        [['curlew', 2 * RARE_WORD_RATIO - 1]],
      ]),
      false,
    );
    assert.deepEqual(plan, { fuzzy: new Set([0]), corrections: new Map(), options: new Map(), unknown: new Set(), titles: new Map(), pinned: new Map() }, 'kestrels lies two edits away, plumber three');
    assert.deepEqual(typoPlan(words, probed(words, [1, 40, 1, 9, 2], [[['kestrel', 60]]]), true).fuzzy, new Set([0]), 'whether or not the query found something');
  });

  it('corrects a missing word to its nearest neighbour, then the most frequent, only when the query found nothing', () => {
    const words = ['flexbx', 'grid', 'tutorail', 'zzzz', 'lay'];
    const response = probed(words, [0, 5, 0, 0, 0], [
      [['flexbox', 3], ['flexbux', 9], ['flexboxes', 900]],
      [],
      [['tutorial', 4], ['tutorials', 50]],
      [['zyzzyva', 1]],
      [['law', 6]],
    ]);
    const plan = typoPlan(words, response, false);
    assert.deepEqual(plan.corrections, new Map([[0, 'flexbux'], [2, 'tutorial']]), 'flexboxes lies three edits away, tutorials two');
    assert.deepEqual(plan.options, new Map([[0, ['flexbux', 'flexbox']], [2, ['tutorial', 'tutorials']]]), 'every neighbour within the edits, nearest first');
    assert.deepEqual([plan.fuzzy, plan.unknown], [new Set([0, 2]), new Set([3, 4])]);
    assert.deepEqual(typoPlan(words, response, true), { fuzzy: new Set(), corrections: new Map(), options: new Map(), unknown: new Set(), titles: new Map(), pinned: new Map() });
    assert.deepEqual(typoPlan(['zzzz'], probed(['zzzz'], [0], []), false).unknown, new Set(), 'the only word is never left out');
    assert.equal(FUZZINESS, 'AUTO:4,8');
    assert.deepEqual([0, 3, 4, 7, 8].map((length) => allowedEdits('x'.repeat(length))), [0, 0, 1, 1, 2]);
    assert.deepEqual(['浏览器兼容性', 'インストール', 'การติดตั้ง'].map(allowedEdits), [0, 0, 0], 'no typos in words of scripts written without spaces');
  });

  it('matches a held word of a query of several words to the title words within its typo budget, counted on the longer word', () => {
    const words = ['git', 'mere', 'dif', 'rv', 'statuz', 'bar'];
    const titles = (options: readonly (readonly string[])[]) => {
      let offset = 0;
      return words.map((word, at) => {
        const entry = { text: word, offset, length: word.length, options: (options[at] ?? []).map((text) => ({ text, score: 0.8, freq: 1 })) };
        offset += word.length + 1;
        return entry;
      });
    };
    const response = (held: readonly number[]) => ({ ...(probed(words, held, []) as object), suggest: { typos: [], titles: titles([['gitk'], ['merge', 'mere', 'meres'], ['diff', 'dig'], ['rev'], ['status', 'statue', 'stout'], ['barely']]) } }) as never;
    const plan = typoPlan(words, response([9, 1, 1, 1, 0, 1]), true);
    assert.deepEqual(plan.titles, new Map([[0, ['gitk']], [1, ['merge', 'meres']], [2, ['diff']]]), 'dif gets an edit against diff, not dig; rv none even against rev; barely lies three edits from bar');
    assert.deepEqual(plan.pinned, new Map([[2, ['dig']], [3, ['rev']]]), 'dig and rev only in a title the other words pin; gitk is within the budget of git');
    assert.equal(plan.corrections.size + plan.fuzzy.size, 0, 'statuz is held by no page: it is corrected, if at all, by its own neighbours');
    assert.deepEqual(typoPlan(['mere'], { ...(probed(['mere'], [1], []) as object), suggest: { typos: [], titles: titles([[], ['merge']]) } } as never, true).titles, new Map(), 'one word alone pins no title');
  });

  it('never corrects or leaves out a held word, and widens every missing word one way when the query found nothing', () => {
    const word = fc.stringMatching(/^[a-z]{2,10}$/);
    fc.assert(
      fc.property(
        fc.array(fc.record({ word, held: fc.nat(6), options: fc.array(fc.tuple(word, fc.nat(400)), { maxLength: 3 }) }), { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        (query, found) => {
          const words = query.map((entry) => entry.word);
          const plan = typoPlan(words, probed(words, query.map((entry) => entry.held), query.map((entry) => entry.options)), found);
          query.forEach(({ held }, at) => {
            const ways = [plan.corrections.has(at), plan.unknown.has(at)].filter(Boolean).length;
            if (held > 0 || found) assert.equal(ways, 0);
            else assert.equal(ways, words.length === 1 && !plan.corrections.has(at) ? 0 : 1);
            if (plan.corrections.has(at)) assert.ok(plan.fuzzy.has(at));
            if (held > RARE_WORD_DOCUMENTS) assert.ok(!plan.fuzzy.has(at));
          });
        },
      ),
    );
  });

  it('asks whether a title holds each word too short for a typo as typed, in the locales searched, when the query has several words', () => {
    const inPtBr = (clause: object) => ({ bool: { filter: [clause, { terms: { locale: ['pt-br'] } }] } });
    assert.deepEqual(typoProbe(['git', 'rv', 'merge'], ['pt-BR']).aggs?.['titled'], {
      global: {},
      aggs: { words: { filters: { filters: { 0: inPtBr({ term: { title: 'git' } }), 1: inPtBr({ term: { title: 'rv' } }) } } } },
    });
    assert.equal(typoProbe(['rv']).aggs?.['titled'], undefined, 'one word alone pins no title');
  });

  it('gives a short word no pinned title word when a title holds it as typed, and one letter dropped only to a word of two', () => {
    const words = ['git', 'lag', 'rv'];
    const options = [[], ['log', 'lags'], ['rev', 'rm', 'av']];
    const suggested = { typos: [], titles: words.map((word, at) => ({ text: word, offset: [0, 4, 8][at], length: word.length, options: (options[at] ?? []).map((text) => ({ text, score: 0.7, freq: 1 })) })) };
    const titled = (counts: Record<string, number>) => ({ doc_count: 9, words: { buckets: Object.fromEntries(Object.entries(counts).map(([at, count]) => [at, { doc_count: count }])) } });
    const response = (counts: Record<string, number>) => ({ aggregations: { ...(probed(words, [9, 1, 0], []) as { aggregations: object }).aggregations, titled: titled(counts) }, suggest: suggested }) as never;
    assert.deepEqual(typoPlan(words, response({ 0: 5, 1: 0, 2: 0 }), true).pinned, new Map([[1, ['log']], [2, ['rev']]]));
    assert.deepEqual(typoPlan(words, response({ 0: 5, 1: 2, 2: 0 }), true).pinned, new Map([[2, ['rev']]]), 'lag names a title of its own');
  });

  it('keeps every title word within the budget when the query names locales, and then the first the titles of the locales hold', () => {
    const words = ['git', 'mere'];
    const near = ['mare', 'mire', 'more', 'mers', 'merge'];
    const suggested = { typos: [], titles: [{ text: 'git', offset: 0, length: 3, options: [] }, { text: 'mere', offset: 4, length: 4, options: near.map((text) => ({ text, score: 0.75, freq: 5 })) }] };
    const response = { ...(probed(words, [9, 1], []) as object), suggest: suggested } as never;
    assert.deepEqual(typoPlan(words, response, true).titles, new Map([[1, near.slice(0, TITLE_NEIGHBOURS)]]));
    const titles = typoPlan(words, response, true, ['pt-BR']).titles;
    assert.deepEqual(titles, new Map([[1, near]]));
    const inPtBr = (text: string) => ({ bool: { filter: [{ term: { title: text } }, { terms: { locale: ['pt-br'] } }] } });
    assert.deepEqual(titlesProbe(titles, ['pt-BR']).aggs, { 'title-words': { global: {}, aggs: { words: { filters: { filters: Object.fromEntries(near.map((text, rank) => [`1:${rank}`, inPtBr(text)])) } } } } });
    const answer = (held: readonly number[]) => ({ aggregations: { 'title-words': { doc_count: 9, words: { buckets: Object.fromEntries(held.map((count, rank) => [`1:${rank}`, { doc_count: count }])) } } } }) as never;
    assert.deepEqual(heldTitles(titles, answer([0, 0, 0, 0, 1])), { titles: new Map([[1, ['merge']]]), trimmed: false });
    assert.deepEqual(heldTitles(titles, answer([1, 1, 0, 1, 1])), { titles: new Map([[1, ['mare', 'mire', 'mers']]]), trimmed: true });
  });

  it('asks whether a short word names a title that the other words pin, as the query would match it', () => {
    const typed = queryWords('git rv');
    const pinned = new Map([[1, ['rev']]]);
    const probe = formsProbe(typed, new Set([1]), [], undefined, pinned);
    assert.deepEqual(probe.aggs?.['forms'], { global: {}, aggs: { words: { filters: { filters: { 1: orPinnedTitles(wordQuery(typed[1] as never, [], true), ['rev'], [['git']], 1) } } } } });
    assert.deepEqual(orPinnedTitles({ match_all: {} }, ['rev'], [['git', 'gitk']], 2), {
      bool: { should: [{ match_all: {} }, { bool: { must: [{ terms: { title: ['rev'], boost: 2 } }], filter: [{ terms: { title: ['git', 'gitk'] } }] } }], minimum_should_match: 1 },
    });
    assert.deepEqual(orPinnedTitles({ match_all: {} }, undefined, [['git']], 2), { match_all: {} });
  });

  it('leaves out the unknown words the index holds in no other form, unless that is every word', () => {
    assert.deepEqual(leftOut(new Set([1, 3]), formsAnswer({ 1: 0, 3: 2 }), 4), new Set([1]));
    assert.deepEqual(leftOut(new Set([0, 1]), formsAnswer({ 0: 0, 1: 0 }), 2), new Set());
    assert.deepEqual(leftOut(new Set([0, 1]), formsAnswer({ 0: 0, 1: 5 }), 2), new Set([0]));
  });

  it('says the text searched: corrected words replaced, words left out gone, the others as typed', () => {
    const typed = queryWords('Flexbx Grid missingword tutorail');
    assert.equal(correctedText(typed, new Map([[0, 'flexbox'], [3, 'tutorial']])), 'flexbox Grid missingword tutorial');
    assert.equal(correctedText(typed, new Map([[0, 'flexbox']]), new Set([2])), 'flexbox Grid tutorail');
  });
});
