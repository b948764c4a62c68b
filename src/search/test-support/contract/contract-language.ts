import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { doc, ids } from './contract-support.js';
import type { IndexedDocument, SearchEngine } from '../../engines/types.js';

/**
 * The contract of an engine that analyses language (see analysis/): other forms of a word and identifiers and their
 * parts, each ranked below what matches as typed, also beside the pages of a typo's neighbour. Run by
 * engineContractTests with `languageAnalysis`.
 */
export function languageAnalysisTests(context: { engine: () => SearchEngine; indexWith: (documents: IndexedDocument[]) => Promise<string> }): void {
  const search = (index: string, text: string, extra: { corrections?: boolean; locales?: string[] } = {}) =>
    context.engine().search({ index, text, sort: 'relevance', ...extra });

  describe('language analysis', () => {
    it('finds the other forms of a word, the word itself ranked first, in English and by the locale of the page', async () => {
      const index = await context.indexWith([
        doc('measuring', 'Measuring tape', { popularity: 0.9 }),
        doc('measured', 'Measured results', { popularity: 0.9 }),
        doc('measure', 'Measure twice', { popularity: 0.1 }),
        doc('maisons', 'Les maisons', { locale: 'fr' }),
        doc('other', 'Unrelated page'),
      ]);
      const measure = await search(index, 'measure');
      assert.deepEqual(new Set(ids(measure)), new Set(['measuring', 'measured', 'measure']));
      assert.equal(ids(measure)[0], 'measure', 'the word as typed ranks above its other forms');
      assert.equal(ids(await search(index, 'measurements'))[0] !== undefined, true, 'another form not in any page still finds them');
      assert.deepEqual(ids(await search(index, 'maison', { locales: ['fr'] })), ['maisons']);
      assert.equal((await context.engine().count({ index, text: 'measures' })), 3);
    });

    it('finds an identifier by its parts, its whole and its lower-cased name, ranked first when it is the title', async () => {
      const index = await context.indexWith([
        doc('by-id', 'Document.getElementById()', { popularity: 0.2, body: 'Returns the element whose id matches.' }),
        doc('map', 'Array.prototype.map()', { popularity: 0.2, body: 'Creates a new array from calling a function on every element.' }),
        doc('elements', 'Element lookup by id and class', { popularity: 0.9, body: 'get the element by id or by class name' }),
        doc('vector', 'std::vector', { body: 'A sequence container.' }),
        doc('other', 'Unrelated page'),
      ]);
      for (const text of ['getElementById', 'get element by id', 'getelementbyid', 'document.getElementById']) {
        assert.equal(ids(await search(index, text))[0], 'by-id', text);
      }
      assert.ok(ids(await search(index, 'element by id')).includes('by-id'));
      assert.equal(ids(await search(index, 'array map'))[0], 'map');
      assert.equal(ids(await search(index, 'vector'))[0], 'vector');
      assert.equal(ids(await search(index, 'std::vector'))[0], 'vector');
    });

    it('corrects an identifier typed with a wrong part as a whole, when its parts are words of other pages', async () => {
      const index = await context.indexWith([
        doc('cms', 'SitestackCMS guide', { body: 'Install SitestackCMS on a server.' }),
        doc('cmd', 'The cmd shell', { body: 'Sitestack builds run from cmd.' }),
      ]);
      const typed = await search(index, 'SitestackCMD');
      assert.deepEqual([ids(typed)[0], typed.corrected], ['cms', 'sitestackcms']);
      assert.equal(ids(await search(index, 'sitestack cmd'))[0], 'cmd', 'the parts typed apart still find their page');
    });

    it('ranks the word as typed, then its other forms, then the pages of a far more common spelling neighbour', async () => {
      const index = await context.indexWith([
        ...Array.from({ length: 60 }, (_, i) => doc(`kestrel${i}`, `Kestrel ${i}`)),
        doc('kestral', 'Kestral sighting'),
        doc('kestrals', 'Kestrals sighting'),
      ]);
      const result = await search(index, 'kestral');
      assert.deepEqual(ids(result).slice(0, 2), ['kestral', 'kestrals'], 'exact, then stem');
      assert.ok(ids(result).slice(2).every((id) => id.startsWith('kestrel')) && result.documents.length === 10, 'then the common neighbour');
      assert.equal(result.corrected, undefined);
    });
  });
}
