import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { doc, type ContractContext } from './contract-support.js';
import type { SearchEngine } from '../../engines/types.js';

/** The contract of autocomplete (see policy/autocomplete.ts): a prefix of any word of a title, title starts first. */
export function autocompleteTests(context: ContractContext): void {
  describe('autocomplete', () => {
    let engine: SearchEngine;
    const { indexWith } = context;
    before(() => {
      engine = context.engine();
    });
    const urls = async (index: string, prefix: string, locales?: string[]) => (await engine.autocomplete({ index, prefix, locales })).map((match) => match.url);

    it('completes title prefixes by popularity, at most the asked size, case- and diacritic-insensitively', async () => {
      const index = await indexWith([
        doc('1', 'Élan vital', { popularity: 0.2 }),
        doc('2', 'Elastic search', { popularity: 0.9 }),
        doc('3', 'elapsed time', { popularity: 0.5, locale: 'fr' }),
        doc('4', 'Other elan', { popularity: 1 }),
        ...Array.from({ length: 15 }, (_, i) => doc(`z${i}`, `Zebra ${i}`, { popularity: i / 20 })),
      ]);
      assert.deepEqual((await engine.autocomplete({ index, prefix: 'EL' })).map((match) => match.title), ['Elastic search', 'elapsed time', 'Élan vital', 'Other elan']);
      assert.deepEqual(await urls(index, 'ela', ['en-us']), ['/2', '/1', '/4']);
      assert.deepEqual(await engine.autocomplete({ index, prefix: 'élan' }), [
        { title: 'Élan vital', url: '/1', locale: 'en-US' },
        { title: 'Other elan', url: '/4', locale: 'en-US' },
      ]);
      assert.equal((await engine.autocomplete({ index, prefix: 'zebra' })).length, 10, 'at most 10 by default');
      assert.equal((await engine.autocomplete({ index, prefix: 'zebra', size: 3 }))[0]?.title, 'Zebra 14');
      assert.deepEqual(await engine.autocomplete({ index, prefix: '"*' }), []);
    });

    it('completes the start of any word of a title, title starts first, when the prefix begins a later word', async () => {
      const index = await indexWith([
        doc('measuring-nginx', 'Measuring nginx as a reverse proxy', { popularity: 0.9 }),
        doc('nginx', 'Nginx as a reverse proxy', { popularity: 0.1 }),
        doc('measuring-ssr', 'Measuring server-side rendering', { popularity: 0.8 }),
        doc('ssr', 'Server-side rendering in production', { popularity: 0.3 }),
        doc('deploy', 'Deploying to production', { popularity: 0.5 }),
      ]);
      assert.deepEqual(await urls(index, 'ngi'), ['/nginx', '/measuring-nginx']);
      assert.deepEqual(await urls(index, 'serv'), ['/ssr', '/measuring-ssr']);
      assert.deepEqual(await urls(index, 'prod'), ['/deploy', '/ssr']);
      assert.deepEqual(await urls(index, 'side ren'), ['/measuring-ssr', '/ssr'], 'a word after a hyphen, running on into the next');
      assert.deepEqual(await urls(index, 'nginx as a rev'), ['/nginx', '/measuring-nginx']);
      assert.deepEqual(await urls(index, 'reverse proxy'), ['/measuring-nginx', '/nginx'], 'longer than the filed prefixes');
      assert.deepEqual(await urls(index, 'ginx'), [], 'never inside a word');
      assert.deepEqual(await urls(index, 'nginx proxy'), [], 'words in the order of the title');
    });

    it('completes later words of the locales asked only, and forgets the words of a replaced title', async () => {
      const index = await indexWith([
        doc('en', 'Guide to caching', { popularity: 0.9 }),
        doc('fr', 'Guide du caching', { popularity: 0.5, locale: 'fr' }),
        doc('old', 'Notes on plovers', { popularity: 0.2 }),
      ]);
      assert.deepEqual(await urls(index, 'cach', ['fr']), ['/fr']);
      assert.deepEqual(await urls(index, 'caching', ['en-US', 'fr']), ['/en', '/fr']);
      await engine.bulk(index, [doc('old', 'Notes on avocets', { popularity: 0.2 })]);
      await engine.refresh(index);
      assert.deepEqual(await urls(index, 'plov'), []);
      assert.deepEqual(await urls(index, 'avocet'), ['/old']);
      await engine.deleteDocuments(index, ['old']);
      await engine.refresh(index);
      assert.deepEqual(await urls(index, 'avo'), []);
    });

    it('fills the asked size from later words when too few titles start with the prefix', async () => {
      const index = await indexWith([
        ...Array.from({ length: 4 }, (_, i) => doc(`start${i}`, `Kestrel ${i}`, { popularity: i / 100 })),
        ...Array.from({ length: 12 }, (_, i) => doc(`later${i}`, `Common kestrel ${i}`, { popularity: 0.5 + i / 100 })),
      ]);
      const found = await urls(index, 'kest');
      assert.equal(found.length, 10);
      assert.deepEqual(found.slice(0, 5), ['/start3', '/start2', '/start1', '/start0', '/later11']);
    });

    it('indexes a title of thousands of words with the documents around it, completing its first words, when a page’s text became its title', async () => {
      const words = Array.from({ length: 12_000 }, (_, i) => `word${i}`);
      const index = await indexWith([
        doc('before', 'Harrier notes', { popularity: 0.5 }),
        doc('long', `${words.join(' ')} リストファイル${'の名前'.repeat(500)}`, { popularity: 0.4 }),
        doc('after', 'Harrier sightings', { popularity: 0.3 }),
      ]);
      assert.deepEqual(await urls(index, 'harr'), ['/before', '/after']);
      assert.deepEqual(await urls(index, 'word0 word1'), ['/long'], 'from its start');
      assert.deepEqual(await urls(index, 'word2 word3 word4'), ['/long'], 'from an early later word');
      assert.deepEqual((await engine.search({ index, text: 'word11999', size: 3 })).documents.map((hit) => hit.url), ['/long'], 'every word is searchable');
    });
  });
}
