import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PINNED_TYPO_FROM, RARE_WORD_DOCUMENTS, RARE_WORD_RATIO, pinnedTypoDistance } from '../../policy/typo-rules.js';
import { editDistance } from '../../policy/spelling.js';
import { doc, ids } from './contract-support.js';
import type { IndexedDocument, SearchEngine } from '../../engines/types.js';

/**
 * The contract of results for typos (SearchQuery.corrections, typo-rules.ts), on words no analysis changes, so every
 * engine runs it: the Elasticsearch stand-in matches fuzzy clauses over the terms it stores, as Lucene does.
 */
export function typoTests(context: { engine: () => SearchEngine; indexWith: (documents: IndexedDocument[]) => Promise<string> }): void {
  const search = (index: string, text: string, extra: { corrections?: boolean; size?: number; locales?: string[] } = {}) =>
    context.engine().search({ index, text, sort: 'relevance', ...extra });
  const many = (count: number, id: string, title: string, body = '') => Array.from({ length: count }, (_, i) => doc(`${id}${i}`, `${title} ${i}`, { body }));

  describe('results for typos', () => {
    it('answers a misspelt word with the pages of its nearest word, says what it searched, and searches as typed when asked', async () => {
      const index = await context.indexWith([
        doc('rabin2', 'rabin2 binary info', { body: 'rabin2 shows the sections of a binary' }),
        doc('iperf3', 'iperf3 network throughput', { body: 'measure bandwidth with iperf3' }),
        doc('svg2png', 'svg2png converter', { body: 'convert svg2png quickly' }),
        doc('heron', 'Grey heron', { body: 'a wading bird' }),
      ]);
      const corrected = await search(index, 'rbin2');
      assert.equal(ids(corrected)[0], 'rabin2');
      assert.equal(corrected.corrected, 'rabin2');
      assert.equal(ids(await search(index, 'ipefr3 throughput'))[0], 'iperf3');
      assert.equal((await search(index, 'ipefr3 throughput')).corrected, 'iperf3 throughput');
      assert.equal(ids(await search(index, 'svr2png'))[0], 'svg2png');
      const asTyped = await search(index, 'rbin2', { corrections: false });
      assert.deepEqual([ids(asTyped), asTyped.corrected], [[], undefined]);
      const exact = await search(index, 'heron');
      assert.equal(exact.corrected, undefined, 'a query that matches as typed is not corrected');
      assert.deepEqual(ids(await search(index, 'hre')), [], 'a word of three characters is not corrected');
    });

    it('finds the pages of a far more frequent spelling neighbour of a word held in one page, below that page, correcting nothing', async () => {
      const kestrels = many(RARE_WORD_RATIO + 10, 'kestrel', 'Kestrel', 'a small falcon');
      const index = await context.indexWith([...kestrels, doc('kestral', 'Kestral sighting', { body: 'a small falcon' }), doc('heron', 'Grey heron')]);
      const result = await search(index, 'kestral', { size: 100 });
      assert.equal(ids(result)[0], 'kestral', 'the word as typed ranks first');
      assert.deepEqual(new Set(ids(result)), new Set(['kestral', ...kestrels.map((page) => page.id)]));
      assert.deepEqual([result.total, result.corrected], [{ value: kestrels.length + 1, relation: 'eq' }, undefined]);
      assert.equal(await context.engine().count({ index, text: 'kestral' }), kestrels.length + 1);
      assert.equal((await search(index, 'kestral falcon')).total.value, kestrels.length + 1, 'the other words still required');
      assert.deepEqual(ids(await search(index, 'kestral sighting')), ['kestral']);
      assert.deepEqual(ids(await search(index, 'kestral', { corrections: false })), ['kestral'], 'as typed when asked');
    });

    it('judges a word, corrects it and suggests only by the words of the locales searched', async () => {
      const index = await context.indexWith([
        doc('pt', 'Grebe ausente', { locale: 'pt-BR', body: 'grebe falcon' }),
        ...many(RARE_WORD_RATIO + 10, 'fr', 'Greve', 'grabe').map((page) => ({ ...page, locale: 'fr' })),
      ]);
      const ptBr = { locales: ['pt-BR'] };
      const typed = await search(index, 'grabe', ptBr);
      assert.deepEqual([ids(typed), typed.corrected], [['pt'], 'grebe'], 'a word held in French pages only is unknown to a pt-BR query');
      const near = await search(index, 'grede', ptBr);
      assert.deepEqual([ids(near), near.corrected], [['pt'], 'grebe'], 'the French neighbour, held more often, is not searched');
      const suggested = await context.engine().suggest({ index, text: 'grede ausente', locales: ['pt-BR'] });
      assert.equal(suggested[0]?.text, 'grebe ausente');
    });

    it('never corrects or suggests a word that no page of the locales searched holds, for any pages and typo', async () => {
      const word = fc.constantFrom('grebe', 'greve', 'plover', 'glover', 'curlew', 'curled', 'heron', 'baron');
      const page = fc.record({ words: fc.array(word, { minLength: 1, maxLength: 3 }), locale: fc.constantFrom('pt-BR', 'fr') });
      const typo = fc.tuple(word, fc.nat(), fc.constantFrom('a', 'e', 'x')).map(([typed, at, letter]) => typed.slice(0, at % typed.length) + letter + typed.slice((at % typed.length) + 1));
      await fc.assert(
        fc.asyncProperty(fc.array(page, { minLength: 1, maxLength: 12 }), typo, fc.constantFrom('pt-BR', 'fr'), async (pages, typed, locale) => {
          const index = await context.indexWith(pages.map((fields, i) => doc(`p${i}`, fields.words.join(' '), { locale: fields.locale })));
          const held = new Set<string>(pages.filter((fields) => fields.locale === locale).flatMap((fields) => fields.words));
          const result = await search(index, typed, { locales: [locale] });
          for (const corrected of result.corrected?.split(' ') ?? []) assert.ok(held.has(corrected), `${typed} corrected to ${corrected}`);
          for (const suggestion of await context.engine().suggest({ index, text: typed, locales: [locale] })) {
            assert.ok(suggestion.text.split(' ').every((suggested) => held.has(suggested)), `${typed} suggests ${suggestion.text}`);
          }
        }),
        { numRuns: 25 },
      );
    });

    it('ranks the title every word of which matches, one within its typo budget, above pages holding the typo as typed', async () => {
      const index = await context.indexWith([
        ...['merge', 'status', 'replay', 'diff'].map((name) => doc(name, `git ${name}`, { body: `The git ${name} command.` })),
        ...['mere', 'stats', 'reply', 'dif'].map((typo) => doc(`typed-${typo}`, `Notes on ${typo}`, { body: `git ${typo}`, popularity: 1 })),
      ]);
      const found = async (text: string) => ids(await context.engine().search({ index, text }));
      for (const [text, id] of [['git mere', 'merge'], ['git stats', 'status'], ['git reply', 'replay'], ['git dif', 'diff'], ['mere git', 'merge']] as const) {
        assert.equal((await found(text))[0], id, text);
      }
      assert.deepEqual(await found('mere'), ['typed-mere'], 'a short word alone pulls no title');
      // The last word also matches as a prefix, which Elasticsearch tries whether or not the index holds it (`dif` of `diff`).
      assert.equal((await found('dif'))[0], 'typed-dif', 'nor one a title word starts with');
      assert.deepEqual(await found('reply'), ['typed-reply'], 'nor a longer one');
      assert.deepEqual((await found('git reply')).slice(0, 2), ['replay', 'typed-reply'], 'the page of the typo as typed still matches');
    });

    it('matches a word of two or three letters one edit from a title word only when that title holds every other word too', async () => {
      const index = await context.indexWith([
        ...['rev', 'rm', 'log', 'rev-list'].map((name) => doc(name, `git ${name}`, { body: `The git ${name} command.` })),
        doc('typed-lag', 'Notes on latency', { body: 'git lag', popularity: 1 }),
        doc('lop', 'Lop notes', { body: 'git lop' }),
        doc('heron', 'Grey heron', { body: 'a wading bird' }),
      ]);
      const found = async (text: string) => ids(await context.engine().search({ index, text }));
      for (const [text, id] of [['git rv', 'rev'], ['rv git', 'rev'], ['git lgo', 'log'], ['git lag', 'log'], ['rv list', 'rev-list']] as const) {
        assert.equal((await found(text))[0], id, text);
      }
      const gitRv = await context.engine().search({ index, text: 'git rv' });
      assert.deepEqual([ids(gitRv).includes('rm'), gitRv.corrected], [false, undefined], 'rv is kept, and a letter of two replaced is no typo: rv is not rm');
      assert.deepEqual(await found('rv'), [], 'alone, a short word is corrected to no title word');
      assert.deepEqual(await found('lgo'), [], 'nor one of three letters');
      assert.deepEqual(await found('lag'), ['typed-lag']);
      assert.equal((await found('git lop'))[0], 'lop', 'a word of a title is taken as typed');
      assert.deepEqual(await found('rv bird'), ['heron'], 'no title holds rev with bird');
    });

    it('ranks first a title one short word of which lies one edit from the typed one when every other word names it, for any such titles and typo', async () => {
      const names = ['rev', 'log', 'tag', 'add', 'tig', 'bar', 'mv'];
      // A typo past the first letter: Elasticsearch's suggester keeps it (`prefix_length`). A word of two letters has none.
      const typo = fc.tuple(fc.constantFrom(...names.filter((name) => name.length === 3)), fc.nat(), fc.constantFrom('delete', 'replace')).map(([name, at, edit]) => {
        const place = 1 + (at % (name.length - 1));
        return { name, typed: edit === 'delete' ? name.slice(0, place) + name.slice(place + 1) : name.slice(0, place) + 'x' + name.slice(place + 1) };
      });
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 5 }), typo, async (titled, { name, typed }) => {
          fc.pre(typed.length >= PINNED_TYPO_FROM && !names.includes(typed));
          const index = await context.indexWith([...new Set([...titled, name])].map((word) => doc(word, `git ${word}`)));
          const first = (await search(index, `git ${typed}`)).documents[0]?.id ?? '';
          assert.ok(pinnedTypoDistance(typed.length, first.length) >= editDistance(typed, first), `git ${typed} finds ${first}`);
        }),
        { numRuns: 20 },
      );
    });

    it('takes the title words a typo may stand for from the titles of the locales searched when the query names locales', async () => {
      const index = await context.indexWith([
        doc('merge', 'git merge', { locale: 'pt-BR', body: 'The git merge command.' }),
        doc('typed-mere', 'Notes on mere', { locale: 'pt-BR', body: 'git mere', popularity: 1 }),
        ...many(5, 'fr', 'mare mire more mers').map((page) => ({ ...page, locale: 'fr' })),
      ]);
      assert.equal(ids(await search(index, 'git mere', { locales: ['pt-BR'] }))[0], 'merge');
    });

    it('leaves a rare word alone when no neighbour is held often enough, or when it is held in more than a few pages', async () => {
      const index = await context.indexWith([
        ...many(RARE_WORD_RATIO - 1, 'plover', 'Plover'),
        doc('plovar', 'Plovar notes'),
        ...many(RARE_WORD_RATIO + 10, 'curlew', 'Curlew'),
        ...many(2, 'curlaw', 'Curlaw'),
        ...many(RARE_WORD_DOCUMENTS + 1, 'dunlim', 'Dunlim'),
        ...many((RARE_WORD_DOCUMENTS + 1) * RARE_WORD_RATIO, 'dunlin', 'Dunlin'),
      ]);
      assert.deepEqual(ids(await search(index, 'plovar')), ['plovar'], `a neighbour held ${RARE_WORD_RATIO - 1} times as often`);
      assert.deepEqual(ids(await search(index, 'curlaw')).sort(), ['curlaw0', 'curlaw1'], `held in 2 pages, a neighbour in fewer than ${2 * RARE_WORD_RATIO}`);
      const dunlim = await search(index, 'dunlim', { size: 100 });
      assert.deepEqual([dunlim.total.value, dunlim.corrected], [RARE_WORD_DOCUMENTS + 1, undefined], `held in more than ${RARE_WORD_DOCUMENTS} pages`);
    });
  });
}
