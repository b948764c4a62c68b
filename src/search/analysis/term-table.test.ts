import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { TermTable, hashOf } from './term-table.js';
import { scanTerms, termsOf, type TermSink } from './terms.js';

/** The ids of a text's terms in a table, read as analyzeDocument reads them. */
function idsOf(table: TermTable, text: string): number[] {
  const ids: number[] = [];
  const sink: TermSink = {
    word: (source, start, end, capital, hash) => ids.push(table.word(source, start, end, capital, hash)),
    term: (term) => ids.push(table.intern(term)),
  };
  scanTerms(text, sink);
  return ids;
}

const WORD = fc.stringMatching(/^[A-Za-z][a-z0-9]{0,9}$|^[0-9]{1,4}$|^[a-zé]{1,6}$/);

describe('TermTable', () => {
  it('gives one id per distinct term, the same for a word read from text and the term itself (property)', () => {
    fc.assert(
      fc.property(fc.array(WORD, { maxLength: 40 }), fc.constantFrom(' ', ', ', '\n', ' (', '. '), (words, separator) => {
        const table = new TermTable();
        const text = words.join(separator);
        const ids = idsOf(table, text);
        const terms = termsOf(text);
        assert.deepEqual(ids.map((id) => table.term(id)), terms);
        for (const [i, term] of terms.entries()) assert.equal(table.intern(term), ids[i], term);
        assert.equal(table.size, new Set(terms).size);
      }),
      { numRuns: 500 },
    );
  });

  it('tells apart terms whose hashes collide in its slots', () => {
    const table = new TermTable();
    const terms = Array.from({ length: 20_000 }, (_, i) => `t${i.toString(36)}`);
    const ids = terms.map((term) => table.intern(term));
    assert.equal(new Set(ids).size, terms.length);
    terms.forEach((term, i) => assert.equal(table.term(ids[i] as number), term));
    assert.equal(hashOf('ab'), hashOf('ab'));
  });

  it('empties itself at makeRoom once full, and says so by its generation', () => {
    const table = new TermTable({ maxTerms: 3 });
    for (const term of ['a', 'b']) table.intern(term);
    table.makeRoom();
    assert.deepEqual([table.size, table.generation], [2, 0], 'not full: kept');
    table.intern('c');
    table.makeRoom();
    assert.deepEqual([table.size, table.generation], [0, 1]);
    assert.equal(table.term(table.intern('z')), 'z');
  });
});
