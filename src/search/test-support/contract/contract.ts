import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, afterEach, before, describe, it } from 'node:test';
import { hasCode } from '../engine-fixtures.js';
import { doc, ids } from './contract-support.js';
import { languageAnalysisTests } from './contract-language.js';
import { exactCountTests } from './contract-counts.js';
import { typoTests } from './contract-typos.js';
import { queryTests } from './contract-queries.js';
import { scriptTests } from './contract-scripts.js';
import { autocompleteTests } from './contract-autocomplete.js';
import type { IndexedDocument, SearchEngine } from '../../engines/types.js';

/**
 * The contract every search engine passes, written against the SearchEngine interface only (model: undici's
 * `cacheStoreTests`). `makeEngine` returns a connected engine; every test uses index names of its own, so one
 * Elasticsearch cluster can serve the whole suite.
 */
/** What an engine under the contract models. */
export interface ContractOptions {
  /**
   * Whether the engine analyses language: stemming and word splitting (see analysis/). The Elasticsearch stand-in
   * does not model Lucene's analysis; the embedded engine and a real cluster do. Results for typos are every engine's
   * (see contract-typos.ts).
   * @default false
   */
  languageAnalysis?: boolean;
}

export function engineContractTests(name: string, makeEngine: () => Promise<SearchEngine>, options: ContractOptions = {}): void {
  const languageAnalysis = options.languageAnalysis ?? false;
  describe(`search engine contract: ${name}`, () => {
    let engine: SearchEngine;
    const run = `ct${randomBytes(4).toString('hex')}`;
    let counter = 0;
    const created: string[] = [];
    const fresh = () => `${run}_${++counter}`;
    async function indexWith(documents: IndexedDocument[]): Promise<string> {
      const index = fresh();
      await engine.createIndex(index);
      created.push(index);
      const results = await engine.bulk(index, documents);
      assert.deepEqual(results.filter((result) => !result.ok), []);
      await engine.refresh(index);
      return index;
    }

    before(async () => {
      engine = await makeEngine();
    });
    afterEach(async () => {
      for (const index of created.splice(0)) {
        const [info] = await engine.listIndices(index);
        if (info?.name === index) await engine.deleteIndex(index);
      }
    });
    after(async () => {
      await engine.close();
    });

    if (languageAnalysis) languageAnalysisTests({ engine: () => engine, indexWith });
    typoTests({ engine: () => engine, indexWith });
    exactCountTests({ engine: () => engine, indexWith, forget: (index) => created.splice(created.indexOf(index), 1), languageAnalysis });
    queryTests({ engine: () => engine, indexWith, fresh });
    scriptTests({ engine: () => engine, indexWith });
    autocompleteTests({ engine: () => engine, indexWith, fresh });

    it('reports green or yellow health when the engine is up', async () => {
      assert.ok(['green', 'yellow'].includes(await engine.health()));
    });

    it('creates an empty index and lists it by prefix when asked', async () => {
      const index = await indexWith([]);
      const other = await indexWith([doc('other', 'Other')]);
      assert.deepEqual(await engine.listIndices(`${index}`), [{ name: index, aliases: [], docCount: 0 }]);
      const listed = await engine.listIndices(`${run}_`);
      assert.deepEqual(listed.map((info) => info.name), [index, other].sort());
      assert.equal(listed.find((info) => info.name === other)?.docCount, 1);
    });

    it('refuses a second index of the same name', async () => {
      const index = await indexWith([]);
      await assert.rejects(engine.createIndex(index), hasCode('INDEX_EXISTS'));
    });

    it('rejects index names outside the shared rules when they carry case, spaces, quotes or paths', async () => {
      for (const bad of ['', 'Upper', 'a b', '../x', '"x', "x'; DROP TABLE search_indices; --", '_leading', 'a/b', 'é']) {
        await assert.rejects(engine.createIndex(bad), hasCode('INDEX_NAME_INVALID'), bad);
      }
    });

    it('returns one result per document in order when some documents are invalid', async () => {
      const index = fresh();
      await engine.createIndex(index);
      created.push(index);
      const bad = [
        { ...doc('no-title', 'x'), title: '' },
        { ...doc('too-popular', 'y'), popularity: 2 },
        { ...doc('', 'empty id') },
        { ...doc('wrong-type', 'z'), body: 42 as unknown as string },
      ];
      const results = await engine.bulk(index, [doc('good-1', 'Good one'), ...bad, doc('good-2', 'Good two')]);
      assert.deepEqual(results.map((result) => [result.id, result.ok]), [
        ['good-1', true],
        ['no-title', false],
        ['too-popular', false],
        ['', false],
        ['wrong-type', false],
        ['good-2', true],
      ]);
      for (const result of results.filter((item) => !item.ok)) {
        assert.equal(typeof result.error?.type, 'string');
        assert.equal(typeof result.error?.reason, 'string');
      }
      await engine.refresh(index);
      assert.equal((await engine.listIndices(index))[0]?.docCount, 2);
    });

    it('rejects a bulk call when the index does not exist', async () => {
      await assert.rejects(engine.bulk(fresh(), [doc('a', 'A')]), hasCode('INDEX_NOT_FOUND'));
    });

    it('replaces the earlier document when an id repeats, across and within bulk calls', async () => {
      const index = await indexWith([doc('page', 'Original walrus'), doc('twice', 'First heron'), doc('twice', 'Second heron')]);
      await engine.bulk(index, [doc('page', 'Replaced narwhal')]);
      await engine.refresh(index);
      assert.equal(await engine.count({ index, text: 'walrus' }), 0);
      assert.deepEqual(ids(await engine.search({ index, text: 'narwhal' })), ['page']);
      assert.deepEqual((await engine.search({ index, text: 'heron' })).documents.map((hit) => hit.title), ['Second heron']);
      assert.equal((await engine.listIndices(index))[0]?.docCount, 2);
    });

    it('answers SEARCH_NOT_READY when the index or alias does not exist', async () => {
      await assert.rejects(engine.search({ index: fresh(), text: 'x' }), hasCode('SEARCH_NOT_READY'));
      await assert.rejects(engine.count({ index: fresh(), text: 'x' }), hasCode('SEARCH_NOT_READY'));
      await assert.rejects(engine.autocomplete({ index: fresh(), prefix: 'x' }), hasCode('SEARCH_NOT_READY'));
      await assert.rejects(engine.suggest({ index: fresh(), text: 'x' }), hasCode('SEARCH_NOT_READY'));
    });

    it('searches through an alias and swaps it atomically between indices', async () => {
      const alias = fresh();
      const old = await indexWith([doc('old', 'Pelican old')]);
      const next = await indexWith([doc('new', 'Pelican new')]);
      await engine.updateAliases([{ add: { index: old, alias } }]);
      assert.deepEqual(ids(await engine.search({ index: alias, text: 'pelican' })), ['old']);
      await engine.updateAliases([{ remove: { index: old, alias } }, { add: { index: next, alias } }]);
      assert.deepEqual(ids(await engine.search({ index: alias, text: 'pelican' })), ['new']);
      assert.deepEqual((await engine.listIndices(next))[0]?.aliases, [alias]);
      assert.deepEqual((await engine.listIndices(old))[0]?.aliases, []);
    });

    it('applies none of the actions when one of them fails', async () => {
      const alias = fresh();
      const index = await indexWith([doc('a', 'Heron')]);
      const other = await indexWith([doc('b', 'Heron')]);
      await engine.updateAliases([{ add: { index, alias } }]);
      await assert.rejects(engine.updateAliases([{ remove: { index, alias } }, { add: { index: fresh(), alias } }]));
      await assert.rejects(engine.updateAliases([{ add: { index: other, alias } }, { remove: { index: other, alias: fresh() } }]));
      assert.deepEqual((await engine.listIndices(index))[0]?.aliases, [alias]);
      assert.deepEqual((await engine.listIndices(other))[0]?.aliases, []);
    });

    it('keeps index and alias names apart', async () => {
      const index = await indexWith([]);
      const other = await indexWith([]);
      await assert.rejects(engine.updateAliases([{ add: { index, alias: other } }]));
      const alias = fresh();
      await engine.updateAliases([{ add: { index, alias } }]);
      await assert.rejects(engine.createIndex(alias), hasCode('INDEX_EXISTS'));
    });

    it('deletes an index with its aliases, and refuses to delete a missing one', async () => {
      const alias = fresh();
      const index = await indexWith([doc('a', 'Ibis')]);
      await engine.updateAliases([{ add: { index, alias } }]);
      await engine.deleteIndex(index);
      assert.deepEqual(await engine.listIndices(index), []);
      await assert.rejects(engine.search({ index: alias, text: 'ibis' }), hasCode('SEARCH_NOT_READY'));
      await assert.rejects(engine.deleteIndex(index), hasCode('INDEX_NOT_FOUND'));
    });

    it('keeps every document findable after a force merge', async () => {
      const index = await indexWith(Array.from({ length: 50 }, (_, i) => doc(`m${i}`, `Merge ${i}`, { body: `stork body ${i}` })));
      await engine.bulk(index, [doc('m0', 'Merge zero', { body: 'crane' })]);
      await engine.forceMerge(index);
      await engine.refresh(index);
      assert.equal(await engine.count({ index, text: 'stork' }), 49);
      assert.deepEqual(ids(await engine.search({ index, text: 'crane' })), ['m0']);
      await assert.rejects(engine.forceMerge(fresh()), hasCode('INDEX_NOT_FOUND'));
    });

    it('deletes documents by id and reports the ids it did not hold, when the index is live', async () => {
      const alias = fresh();
      const index = await indexWith([
        doc('keep', 'Flamingo colony', { body: 'pink flamingo' }),
        doc('gone', 'Quetzal plumage', { body: 'flamingo quetzal' }),
        doc('nest', 'Quetzal nest'),
      ]);
      await engine.updateAliases([{ add: { index, alias } }]);
      assert.deepEqual(await engine.suggest({ index: alias, text: 'plumagr' }), [{ text: 'plumage', total: 1, relation: 'eq' }]);
      assert.deepEqual(await engine.deleteDocuments(index, ['gone', 'missing', 'gone']), [
        { id: 'gone', deleted: true },
        { id: 'missing', deleted: false },
        { id: 'gone', deleted: false },
      ]);
      await engine.refresh(index);
      assert.deepEqual(await engine.search({ index: alias, text: 'plumage' }), { documents: [], total: { value: 0, relation: 'eq' } });
      assert.deepEqual(ids(await engine.search({ index: alias, text: 'flamingo' })), ['keep']);
      assert.equal(await engine.count({ index: alias, text: 'quetzal' }), 1);
      assert.deepEqual(await engine.suggest({ index: alias, text: 'plumagr' }), []);
      assert.deepEqual((await engine.autocomplete({ index: alias, prefix: 'quetzal' })).map((match) => match.url), ['/nest']);
      assert.deepEqual(await engine.autocomplete({ index: alias, prefix: 'quetzal p' }), []);
      assert.equal((await engine.listIndices(index))[0]?.docCount, 2);
      assert.deepEqual(await engine.deleteDocuments(index, []), []);
    });

    it('deletes documents from an index no alias points at, seen after refresh', async () => {
      const index = await indexWith([doc('a', 'Gannet'), doc('b', 'Gannet diving')]);
      assert.deepEqual(await engine.deleteDocuments(index, ['b']), [{ id: 'b', deleted: true }]);
      await engine.refresh(index);
      assert.deepEqual(ids(await engine.search({ index, text: 'gannet' })), ['a']);
      assert.deepEqual(await engine.suggest({ index, text: 'divng' }), []);
    });

    it('refuses to delete when the index is missing or the name is an alias', async () => {
      const alias = fresh();
      const index = await indexWith([doc('a', 'Avocet')]);
      await engine.updateAliases([{ add: { index, alias } }]);
      await assert.rejects(engine.deleteDocuments(fresh(), ['a']), hasCode('INDEX_NOT_FOUND'));
      await assert.rejects(engine.deleteDocuments(alias, ['a']), hasCode('INDEX_NOT_FOUND'));
      assert.equal(await engine.count({ index: alias, text: 'avocet' }), 1);
    });
  });
}
