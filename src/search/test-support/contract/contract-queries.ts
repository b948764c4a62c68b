import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { doc, ids, type ContractContext } from './contract-support.js';
import type { SearchEngine } from '../../engines/types.js';

/**
 * The contract of what queries answer, on any engine: matching, ranking, filters, pages, highlights, completions and
 * suggestions, and what a replaced or live-updated document changes in them.
 */
export function queryTests(context: ContractContext): void {
  describe('queries', () => {
    let engine: SearchEngine;
    const { indexWith, fresh } = context;
    before(() => {
      engine = context.engine();
    });

    it('matches every word in title, summary or body, ignoring case and diacritics', async () => {
      const index = await indexWith([
        doc('a', 'Café culture', { body: 'espresso and croissant' }),
        doc('b', 'Tea rooms', { summary: 'cafe alternatives', body: 'green tea' }),
        doc('c', 'Unrelated', { body: 'nothing here' }),
      ]);
      assert.deepEqual(ids(await engine.search({ index, text: 'CAFE' })).sort(), ['a', 'b']);
      assert.deepEqual(ids(await engine.search({ index, text: 'café espresso' })), ['a']);
      assert.deepEqual(ids(await engine.search({ index, text: 'cafe missingword', corrections: false })), []);
      // A word no page holds in any form, nor one edit from one, is left out while the others match.
      const partly = await engine.search({ index, text: 'cafe missingword' });
      assert.deepEqual([ids(partly).sort(), partly.corrected], [['a', 'b'], 'cafe']);
      assert.equal(await engine.count({ index, text: 'cafe missingword' }), 2);
      assert.equal(await engine.count({ index, text: 'café' }), 2);
    });

    it('never throws and never reads syntax when the text holds query operators or odd characters', async () => {
      const index = await indexWith([doc('a', 'Alpha beta', { body: 'near and or not title body' })]);
      const hostile = ['"', '"alpha', '*', 'alp*', 'NEAR(alpha beta)', 'title:alpha', 'alpha AND', 'OR', '(', ')', '^alpha',
        '{title body}: alpha', '-alpha', 'alpha + beta', '\u0000\u0007', '🦄🦄', 'مرحبا بالعالم', 'x'.repeat(200), '', '   ', '\u17b6', 'alpha \u0301\u17b6'];
      for (const text of hostile) {
        assert.ok(Array.isArray(await engine.suggest({ index, text })), text);
        const result = await engine.search({ index, text, highlight: true });
        assert.equal(typeof result.total.value, 'number', text);
        assert.equal(await engine.count({ index, text }), result.total.value, text);
      }
      assert.deepEqual(ids(await engine.search({ index, text: 'title:alpha' })), ['a'], 'a colon separates words');
      assert.deepEqual(ids(await engine.search({ index, text: 'NEAR' })), ['a'], 'NEAR is a word');
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 60 }), async (text) => {
          const result = await engine.search({ index, text });
          assert.ok(result.total.value >= 0);
        }),
        { numRuns: 150 },
      );
    });

    it('ranks a title match above a body match when sorting by relevance', async () => {
      const index = await indexWith([
        doc('body', 'Something else', { body: 'a long text that mentions the zeppelin once among many other words of prose' }),
        doc('title', 'Zeppelin', { body: 'a long text about airships and their history among many other words of prose' }),
      ]);
      assert.deepEqual(ids(await engine.search({ index, text: 'zeppelin', sort: 'relevance' })), ['title', 'body']);
    });

    it('orders by the documented formula for each sort', async () => {
      const documents = Array.from({ length: 30 }, (_, i) =>
        doc(`d${i}`, i % 3 === 0 ? `Kestrel ${i}` : `Bird ${i}`, {
          popularity: ((i * 7) % 10) / 10,
          body: `kestrel ${'falcon '.repeat(i % 5)} hover`,
        }),
      );
      const index = await indexWith(documents);
      const nonIncreasing = (values: number[]) => values.every((value, i) => i === 0 || value <= (values[i - 1] as number) + 1e-9);
      const best = await engine.search({ index, text: 'kestrel', sort: 'best', size: 30 });
      assert.equal(best.documents.length, 30);
      assert.ok(nonIncreasing(best.documents.map((hit) => hit.popularity * 10 + hit.score)));
      const relevance = await engine.search({ index, text: 'kestrel', sort: 'relevance', size: 30 });
      assert.ok(nonIncreasing(relevance.documents.map((hit) => hit.score)));
      const popularity = await engine.search({ index, text: 'kestrel', sort: 'popularity', size: 30 });
      assert.ok(nonIncreasing(popularity.documents.map((hit) => hit.popularity)));
      assert.ok(best.documents.every((hit) => hit.score > 0));
    });

    it('filters by locale and slug prefix, case-insensitively', async () => {
      const index = await indexWith([
        doc('/en-us/docs/web/a', 'Otter web', { locale: 'en-US', slug: 'docs/Web/a' }),
        doc('/en-us/docs/css/b', 'Otter css', { locale: 'en-US', slug: 'docs/CSS/b' }),
        doc('/fr/docs/web/a', 'Otter fr', { locale: 'fr', slug: 'docs/Web/a' }),
      ]);
      assert.deepEqual(ids(await engine.search({ index, text: 'otter', locales: ['EN-us'] })).sort(), ['/en-us/docs/css/b', '/en-us/docs/web/a']);
      assert.deepEqual(ids(await engine.search({ index, text: 'otter', slugPrefixes: ['DOCS/web'] })).sort(), ['/en-us/docs/web/a', '/fr/docs/web/a']);
      assert.deepEqual(ids(await engine.search({ index, text: 'otter', locales: ['fr', 'en-US'], slugPrefixes: ['docs/css', 'docs/web/'] })).sort(), [
        '/en-us/docs/css/b',
        '/en-us/docs/web/a',
        '/fr/docs/web/a',
      ]);
      assert.equal(await engine.count({ index, text: 'otter', locales: ['de'] }), 0);
      assert.equal(await engine.count({ index, text: 'otter', locales: [], slugPrefixes: [] }), 3);
    });

    it('pages without overlap and reports the full total when size and from are given', async () => {
      const index = await indexWith(Array.from({ length: 25 }, (_, i) => doc(`p${i}`, `Lynx ${i}`, { popularity: i / 25 })));
      const first = await engine.search({ index, text: 'lynx', size: 10 });
      const second = await engine.search({ index, text: 'lynx', size: 10, from: 10 });
      const third = await engine.search({ index, text: 'lynx', size: 10, from: 20 });
      assert.deepEqual(first.total, { value: 25, relation: 'eq' });
      assert.equal(third.documents.length, 5);
      const all = [...ids(first), ...ids(second), ...ids(third)];
      assert.equal(new Set(all).size, 25);
      assert.equal((await engine.search({ index, text: 'lynx' })).documents.length, 10, 'size defaults to 10');
    });

    it('returns escaped highlight fragments whose only markup is <mark> when highlighting is asked', async () => {
      const index = await indexWith([
        doc('x', '<script>alert(1)</script> Ocelot & friends', { body: 'The <b>ocelot</b> is a wild cat. "Quotes" & ampersands stay text.' }),
      ]);
      const [hit] = (await engine.search({ index, text: 'ocelot', highlight: true })).documents;
      assert.ok(hit?.highlight);
      const fragments = [...hit.highlight.title, ...hit.highlight.body];
      assert.ok(hit.highlight.title[0]?.includes('<mark>Ocelot</mark>'), hit.highlight.title[0]);
      assert.ok(hit.highlight.body.some((fragment) => /<mark>ocelot<\/mark>/i.test(fragment)));
      for (const fragment of fragments) {
        assert.equal(fragment.replace(/<\/?mark>/g, '').includes('<'), false, fragment);
        assert.ok(!fragment.includes('<script'));
      }
      assert.ok(hit.highlight.title[0]?.includes('&lt;script&gt;'));
      assert.equal((await engine.search({ index, text: 'ocelot' })).documents[0]?.highlight, undefined);
    });

    it('ranks and completes by the new popularity and title when documents are replaced', async () => {
      const index = await indexWith([
        doc('p1', 'Petrel one', { popularity: 0.9 }),
        doc('p2', 'Petrel two', { popularity: 0.5 }),
        doc('p3', 'Petrel three', { popularity: 0.1 }),
      ]);
      await engine.bulk(index, [doc('p3', 'Petrel three', { popularity: 1 }), doc('p1', 'Shearwater one', { popularity: 0.9, body: 'petrel' })]);
      await engine.refresh(index);
      assert.deepEqual(ids(await engine.search({ index, text: 'petrel', sort: 'popularity' })), ['p3', 'p1', 'p2']);
      assert.deepEqual((await engine.autocomplete({ index, prefix: 'pet' })).map((match) => match.url), ['/p3', '/p2']);
      assert.deepEqual((await engine.autocomplete({ index, prefix: 'shearwater o' })).map((match) => match.url), ['/p1']);
      assert.equal(await engine.count({ index, text: 'petrel' }), 3);
      assert.equal((await engine.listIndices(index))[0]?.docCount, 3);
    });

    it('suggests a known word with its count when a query word has a typo, and nothing for a correct query', async () => {
      const index = await indexWith([
        doc('1', 'Flexbox layout', { body: 'flexbox aligns items' }),
        doc('2', 'Grid layout', { body: 'grid and flexbox compared' }),
        doc('3', 'Colours', { body: 'colour values' }),
      ]);
      const suggestions = await engine.suggest({ index, text: 'flexbx layout' });
      assert.deepEqual(suggestions, [{ text: 'flexbox layout', total: 2, relation: 'eq' }]);
      assert.deepEqual(await engine.suggest({ index, text: 'flexbox layout' }), []);
      assert.deepEqual(await engine.suggest({ index, text: 'qqqqqqq' }), []);
    });

    it('matches an unfinished last word as a prefix and ranks adjacent words above scattered ones', async () => {
      const filler = 'lorem ipsum dolor sit amet '.repeat(8);
      const index = await indexWith([
        doc('phrase', 'Offline', { body: 'a service worker caches responses' }),
        doc('scattered', 'Tasks', { body: `a worker runs ${filler} in its own service` }),
        doc('other', 'Workshop', { body: 'nothing to see' }),
      ]);
      assert.deepEqual(ids(await engine.search({ index, text: 'service worker', sort: 'relevance' })), ['phrase', 'scattered']);
      assert.deepEqual(ids(await engine.search({ index, text: 'service work', sort: 'relevance' })), ['phrase', 'scattered']);
      assert.deepEqual(ids(await engine.search({ index, text: 'worksh' })), ['other']);
    });

    it('ranks the words typed in a row above the same words apart when one of them is common, apostrophes alike', async () => {
      // A word in most pages of a large index is one an engine may leave out of matching (see the SQLite planQuery).
      const common = Array.from({ length: 1000 }, (_, i) => doc(`c${i}`, `Page ${i}`, { body: `als Beispiel dient l'option ${i}` }));
      const filler = 'lorem ipsum dolor sit amet '.repeat(8);
      const index = await indexWith([
        ...common,
        doc('phrase', 'Uuidgen', { body: `verwendet MD5 als Hash ${filler}` }),
        doc('apart', 'Digest', { body: `als Eingabe ${filler} ein Hash`, popularity: 1 }),
        doc('apart-too', 'Checksum', { body: `ein Hash ${filler} als Zahl`, popularity: 1 }),
        doc('elided', 'Vdso', { body: `le code est l’appelant ${filler}` }),
        doc('scattered', 'Signal', { body: `l'option ${filler} un appelant`, popularity: 1 }),
      ]);
      for (const sort of ['best', 'relevance'] as const) {
        assert.equal(ids(await engine.search({ index, text: 'als Hash', sort }))[0], 'phrase', sort);
        for (const text of ["l'appelant", 'l’appelant', 'est l’appelant']) assert.equal(ids(await engine.search({ index, text, sort }))[0], 'elided', `${text} ${sort}`);
      }
    });

    it('ranks the page whose whole title is the query above a far more popular page', async () => {
      const index = await indexWith([
        doc('exact', 'Heron', { popularity: 0 }),
        doc('popular', 'Heron watching and heron feeding', { popularity: 1, body: 'heron heron heron' }),
      ]);
      assert.deepEqual(ids(await engine.search({ index, text: 'heron' })), ['exact', 'popular']);
    });

    it('ranks the title that is the query as typed above one that only adds signs to it, whatever their popularity', async () => {
      const index = await indexWith([doc('plus', 'clang++', { popularity: 1 }), doc('clang', 'clang', { popularity: 0 }), doc('other', 'clang options', { popularity: 1 })]);
      for (const sort of ['best', 'relevance'] as const) {
        assert.deepEqual(ids(await engine.search({ index, text: 'clang', sort })).slice(0, 2), ['clang', 'plus'], sort);
        assert.equal(ids(await engine.search({ index, text: 'clang++', sort }))[0], 'plus', sort);
      }
    });

    it('ranks the exact title first and pages through title matches when hundreds of titles match', async () => {
      const index = await indexWith([
        ...Array.from({ length: 300 }, (_, i) => doc(`c${i}`, `Cormorant ${i}`, { popularity: 0.5 + i / 1000 })),
        doc('exact', 'Cormorant', { popularity: 0 }),
      ]);
      const first = await engine.search({ index, text: 'cormorant', size: 5 });
      assert.equal(first.documents[0]?.id, 'exact');
      assert.deepEqual(first.total, { value: 301, relation: 'eq' });
      for (const totalUpTo of [1, 50, 150, 300, 301, 302]) {
        const { total } = await engine.search({ index, text: 'cormorant', size: 5, totalUpTo });
        assert.deepEqual(total, totalUpTo < 301 ? { value: totalUpTo, relation: 'gte' } : { value: 301, relation: 'eq' }, `totalUpTo ${totalUpTo}`);
      }
      const second = await engine.search({ index, text: 'cormorant', size: 5, from: 5 });
      assert.equal(new Set([...ids(first), ...ids(second)]).size, 10);
    });

    it('returns up to 3 body fragments around matched words when the body is long', async () => {
      const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
      const index = await indexWith([doc('long', 'Long', { body: `${words(40)} osprey ${words(40)} osprey ${words(40)} osprey ${words(40)} osprey ${words(40)}` })]);
      const [hit] = (await engine.search({ index, text: 'osprey', highlight: true })).documents;
      assert.equal(hit?.highlight?.body.length, 3);
      for (const fragment of hit?.highlight?.body ?? []) {
        assert.match(fragment, /<mark>osprey<\/mark>/);
        assert.ok(fragment.replace(/<\/?mark>/g, '').length < 200);
      }
    });

    it('caps the total at 1000 with relation gte and counts exactly below it', async () => {
      const index = await indexWith(Array.from({ length: 1001 }, (_, i) => doc(`c${i}`, `Crane ${i}`)));
      assert.deepEqual((await engine.search({ index, text: 'crane' })).total, { value: 1000, relation: 'gte' });
      assert.equal(await engine.count({ index, text: 'crane' }), 1001);
    });

    it('suggests a transposition within the filters, and a neighbour of a known word when known words match nothing', async () => {
      const index = await indexWith([
        doc('1', 'Pelican', { body: 'pelican' }),
        doc('2', 'Pelican fr', { body: 'pelican', locale: 'fr' }),
        doc('3', 'Cart layout', { body: 'cart' }),
        doc('4', 'Card games', { body: 'card' }),
      ]);
      assert.deepEqual(await engine.suggest({ index, text: 'Pelcian' }), [{ text: 'pelican', total: 2, relation: 'eq' }]);
      assert.deepEqual(await engine.suggest({ index, text: 'pelcian', locales: ['fr'] }), [{ text: 'pelican', total: 1, relation: 'eq' }]);
      assert.deepEqual(await engine.suggest({ index, text: 'card layout' }), [{ text: 'cart layout', total: 1, relation: 'eq' }]);
      assert.deepEqual(await engine.suggest({ index, text: 'card games' }), []);
      // The same answers when the caller says how many documents the query matches, as the search API does.
      assert.deepEqual(await engine.suggest({ index, text: 'card layout', knownTotal: 0 }), [{ text: 'cart layout', total: 1, relation: 'eq' }]);
      assert.deepEqual(await engine.suggest({ index, text: 'card games', knownTotal: 1 }), []);
      assert.deepEqual(await engine.suggest({ index, text: 'Pelcian', knownTotal: 0 }), [{ text: 'pelican', total: 2, relation: 'eq' }]);
    });

    it('suggests and completes the new title words and no longer the replaced ones after a live update', async () => {
      const alias = fresh();
      const index = await indexWith([doc('post', 'Pangolin habits', { body: 'scales' }), doc('other', 'Armadillo', { body: 'armour' })]);
      await engine.updateAliases([{ add: { index, alias } }]);
      assert.deepEqual(await engine.suggest({ index: alias, text: 'pangolim' }), [{ text: 'pangolin', total: 1, relation: 'eq' }]);
      assert.deepEqual(await engine.suggest({ index: alias, text: 'echidma' }), []);
      await engine.bulk(index, [doc('post', 'Echidna spines', { body: 'quills' })]);
      await engine.refresh(index);
      assert.deepEqual(await engine.suggest({ index: alias, text: 'echidma' }), [{ text: 'echidna', total: 1, relation: 'eq' }]);
      assert.deepEqual(await engine.suggest({ index: alias, text: 'echidna quils' }), [{ text: 'echidna quills', total: 1, relation: 'eq' }]);
      assert.deepEqual(await engine.suggest({ index: alias, text: 'pangolim' }), []);
      assert.deepEqual(await engine.autocomplete({ index: alias, prefix: 'echid' }), [{ title: 'Echidna spines', url: '/post', locale: 'en-US' }]);
      assert.deepEqual(await engine.autocomplete({ index: alias, prefix: 'pango' }), []);
      assert.deepEqual((await engine.search({ index: alias, text: 'pangolin' })).total, { value: 0, relation: 'eq' });
      assert.deepEqual(ids(await engine.search({ index: alias, text: 'echidna' })), ['post']);
      await engine.bulk(index, [doc('new', 'Numbat', { body: 'termites' })]);
      await engine.refresh(index);
      assert.deepEqual(await engine.suggest({ index: alias, text: 'numbta' }), [{ text: 'numbat', total: 1, relation: 'eq' }]);
      assert.deepEqual((await engine.autocomplete({ index: alias, prefix: 'num' })).map((match) => match.url), ['/new']);
    });

    it('finds the pages of a word typed twice, unfinished the second time', async () => {
      const index = await indexWith([doc('cafe', 'Measuring', { body: 'café' }), doc('other', 'Measuring')]);
      for (const text of ['caf caf', 'measuring measuring', 'measuring meas']) {
        const result = await engine.search({ index, text });
        assert.equal(result.total.value, await engine.count({ index, text }), text);
        assert.ok(result.documents.length > 0, text);
      }
    });

    it('counts body matches in the total when title matches fill the page', async () => {
      const index = await indexWith([
        ...Array.from({ length: 12 }, (_, i) => doc(`t${i}`, `Measuring ${i}`, { popularity: 0.5 })),
        ...Array.from({ length: 4 }, (_, i) => doc(`b${i}`, `Page ${i}`, { body: 'measuring tape', popularity: 0.9 })),
        doc('none', 'Unrelated'),
      ]);
      for (const sort of ['best', 'relevance', 'popularity'] as const) {
        assert.deepEqual((await engine.search({ index, text: 'measuring', sort })).total, { value: 16, relation: 'eq' }, sort);
        assert.deepEqual((await engine.search({ index, text: 'measuring', sort, totalUpTo: 10 })).total, { value: 10, relation: 'gte' }, sort);
      }
      assert.deepEqual((await engine.search({ index, text: 'measuring', slugPrefixes: ['b'] })).total, { value: 4, relation: 'eq' });
      assert.deepEqual((await engine.search({ index, text: 'measuring tape', size: 1 })).total, { value: 4, relation: 'eq' });
    });
  });
}
