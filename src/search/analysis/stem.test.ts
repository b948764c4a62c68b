import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { StemLanguage } from './index.js';
import { STEM_LANGUAGES, STEM_MARKER, stemLanguageOf, stemLanguagesOf, stemOf, termsOf } from './index.js';
import { stemTokensOf } from './stem.js';
import { TermTable } from './term-table.js';

/** Inflected forms that each language's stemmer must bring to one stem (folded, as the analysis stems them). */
const FORMS: Record<string, string[][]> = {
  english: [['measure', 'measuring', 'measured', 'measures'], ['page', 'pages'], ['connect', 'connected', 'connecting', 'connection'], ['run', 'running', 'runs']],
  german: [['haus', 'hauser', 'hauses'], ['kind', 'kinder', 'kindern']],
  spanish: [['casa', 'casas'], ['hablar', 'hablando', 'hablado']],
  french: [['maison', 'maisons'], ['grand', 'grande', 'grandes']],
  italian: [['casa', 'case'], ['parlare', 'parlando']],
  dutch: [['boek', 'boeken'], ['lopen', 'lop']],
  portuguese: [['casa', 'casas'], ['falar', 'falando']],
  russian: [['книга', 'книги', 'книгой'], ['читать', 'читал']],
  swedish: [['hus', 'husen'], ['bil', 'bilar', 'bilen']],
};

describe('stemming', () => {
  it('maps each language table of inflected forms to one stem', () => {
    for (const [name, groups] of Object.entries(FORMS)) {
      const language = STEM_LANGUAGES.find((candidate) => candidate.name === name);
      assert.ok(language !== undefined, name);
      for (const forms of groups) {
        const stems: Set<string> = new Set(forms.map((form): string => stemOf(language, form)));
        assert.equal(stems.size, 1, `${name}: ${forms.join(', ')} → ${[...stems].join(', ')}`);
      }
    }
  });

  it('takes the stemmer of the locale language, and none for a language without one', () => {
    assert.equal(stemLanguageOf('en-US')?.name, 'english');
    assert.equal(stemLanguageOf('EN')?.name, 'english');
    assert.equal(stemLanguageOf('pt-BR')?.name, 'portuguese');
    assert.equal(stemLanguageOf('nb_NO')?.name, 'norwegian');
    assert.equal(stemLanguageOf('ja'), undefined);
    assert.equal(stemLanguageOf('zh-CN'), undefined);
  });

  it('leaves numbers, codes and short terms as they are', () => {
    const english = stemLanguageOf('en') as NonNullable<ReturnType<typeof stemLanguageOf>>;
    for (const term of ['iperf3', 'x2', '2026', 'is', 'be']) assert.equal(stemOf(english, term), term);
  });

  it('marks the stem of each term whose stem differs, once each, and no other (property)', () => {
    const english = stemLanguagesOf('en');
    const table = new TermTable();
    fc.assert(
      fc.property(fc.array(fc.constantFrom('measuring', 'measured', 'pages', 'search', 'the', 'connection', 'iperf3', 'élan'), { maxLength: 10 }), (words) => {
        const terms = termsOf(words.join(' '));
        const expected = [...new Set(terms.filter((term) => stemOf(english[0] as StemLanguage, term) !== term).map((term) => `${STEM_MARKER}${stemOf(english[0] as StemLanguage, term)}`))];
        assert.deepEqual(stemTokensOf(table, english, terms.map((term) => table.intern(term))), expected);
        assert.deepEqual(stemTokensOf(table, [], terms.map((term) => table.intern(term))), []);
      }),
    );
  });

  it('gives each term the stems of every language of the set once, across several lists, and starts afresh with each call (property)', () => {
    const languages = stemLanguagesOf('de-DE');
    const words = ['häuser', 'hauses', 'properties', 'property', 'kinder', 'running', 'runs', 'xyz', 'the'].map((word) => termsOf(word)[0] as string);
    const model = (lists: string[][]) => {
      const tokens: string[] = [];
      for (const term of lists.flat()) {
        for (const language of languages) {
          const stem = stemOf(language, term);
          if (stem !== term && !tokens.includes(STEM_MARKER + stem)) tokens.push(STEM_MARKER + stem);
        }
      }
      return tokens;
    };
    // A small table empties itself often: what is remembered by id must follow it.
    const table = new TermTable({ maxTerms: 4 });
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(...words), { maxLength: 8 }), { maxLength: 3 }), (lists) => {
        table.makeRoom();
        const ids = lists.map((list) => list.map((term) => table.intern(term)));
        assert.deepEqual(stemTokensOf(table, languages, ...ids), model(lists));
        assert.deepEqual(stemTokensOf(table, languages, ...ids), model(lists), 'the same again: a call keeps no token of the one before');
      }),
      { numRuns: 300 },
    );
  });
});
