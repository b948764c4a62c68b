import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { analyzeDocument } from '../../analysis/index.js';
import { engineContractTests } from '../../test-support/contract/contract.js';
import { doc } from '../../test-support/contract/contract-support.js';
import { eachTermAWord, fragmentsOf } from '../../policy/highlight-fragments.js';
import { matchWords } from '../../policy/highlight-matches.js';
import { localePartition } from './static-rank.js';
import { BODY_BEGINNING, BODY_CANDIDATES, SUGGESTION_TOTAL_CAP, SqliteEngine } from './engine.js';
import { indexed, numberedPages, testDirectory, withEngine } from '../../test-support/sqlite-engine.js';

const dir = testDirectory('sitestack-sqlite-engine-');

engineContractTests('sqlite', async () => new SqliteEngine({ path: join(dir, 'search.sqlite') }), { languageAnalysis: true });

describe('SqliteEngine suggestions', () => {
  it('counts a suggestion up to SUGGESTION_TOTAL_CAP, then answers the cap with relation gte', async () => {
    await withEngine(join(dir, 'suggest-cap.sqlite'), async (engine) => {
      await engine.createIndex('cap');
      const documents = (word: string, count: number) => Array.from({ length: count }, (_, i) => ({
        id: `${word}${i}`, url: `/${word}${i}`, title: `${word} ${i}`, body: '', summary: '', popularity: 0, locale: 'en-US', slug: `${word}${i}`,
      }));
      await engine.bulk('cap', [...documents('pelican', SUGGESTION_TOTAL_CAP + 20), ...documents('cormorant', SUGGESTION_TOTAL_CAP)]);
      await engine.refresh('cap');
      assert.deepEqual(await engine.suggest({ index: 'cap', text: 'pelcian' }), [{ text: 'pelican', total: SUGGESTION_TOTAL_CAP, relation: 'gte' }]);
      assert.deepEqual(await engine.suggest({ index: 'cap', text: 'cormorat' }), [{ text: 'cormorant', total: SUGGESTION_TOTAL_CAP, relation: 'eq' }], 'exactly the cap');
      assert.equal(await engine.count({ index: 'cap', text: 'pelican' }), SUGGESTION_TOTAL_CAP + 20, 'count() stays exact');
    });
  });
});

describe('SqliteEngine term counts across reads', () => {
  it('forgets a word it found in no document once another connection or its own writes and refreshes one', async () => {
    const file = join(dir, 'term-memo.sqlite');
    const page = (id: string, title: string) => ({ id, url: `/${id}`, title, body: '', summary: '', popularity: 0.5, locale: 'en-US', slug: id });
    await withEngine(file, async (reader) => {
      await reader.createIndex('memo');
      await reader.bulk('memo', [page('a', 'Pelicans of the coast'), page('b', 'Gannet colony')]);
      await reader.refresh('memo');
      // "pelican" and "gannets" are no terms yet: the reader remembers that, and suggests the words it holds.
      assert.deepEqual(await reader.suggest({ index: 'memo', text: 'pelican coast' }), [{ text: 'pelicans coast', total: 1, relation: 'eq' }]);
      assert.deepEqual(await reader.suggest({ index: 'memo', text: 'gannets colony' }), [{ text: 'gannet colony', total: 1, relation: 'eq' }]);
      await withEngine(file, async (writer) => {
        await writer.bulk('memo', [page('c', 'The pelican coast')]);
        await writer.refresh('memo');
      });
      assert.deepEqual(await reader.suggest({ index: 'memo', text: 'pelican coast' }), [], 'written by another connection: now a known word');
      await reader.bulk('memo', [page('d', 'Gannets colony')]);
      await reader.refresh('memo');
      assert.deepEqual(await reader.suggest({ index: 'memo', text: 'gannets colony' }), [], 'written by itself');
    });
  });
});

describe('SqliteEngine suggestions after a search', () => {
  it('takes the total the caller knows instead of looking whether a query of known words matches', async () => {
    await withEngine(join(dir, 'known-total.sqlite'), async (engine) => {
      await engine.createIndex('known');
      await engine.bulk('known', ['Cart layout', 'Card games'].map((title, i) => ({ id: `${i}`, url: `/${i}`, title, body: '', summary: '', popularity: 0.5, locale: 'en-US', slug: `${i}` })));
      await engine.refresh('known');
      assert.deepEqual(await engine.suggest({ index: 'known', text: 'card layout' }), [{ text: 'cart layout', total: 1, relation: 'eq' }]);
      assert.deepEqual(await engine.suggest({ index: 'known', text: 'card layout', knownTotal: 3 }), [], 'told it matches: no lookup, no suggestion');
    });
  });
});

describe('SqliteEngine highlighting', () => {
  it('marks the forms that matched: other forms of a word, an identifier by its part, a corrected word', async () => {
    await withEngine(join(dir, 'forms.sqlite'), async (engine) => {
      await engine.createIndex('forms');
      await engine.bulk('forms', [
        { id: 'a', url: '/a', title: 'Measuring tape', body: 'Call getElementById, then measure what was measured.', summary: '', popularity: 0, locale: 'en-US', slug: 'a' },
        { id: 'b', url: '/b', title: 'rabin2', body: 'rabin2 reads binaries', summary: '', popularity: 0, locale: 'en-US', slug: 'b' },
      ]);
      await engine.refresh('forms');
      const [measure] = (await engine.search({ index: 'forms', text: 'measures element', highlight: true })).documents;
      assert.deepEqual(measure?.highlight, { title: ['<mark>Measuring</mark> tape'], body: ['Call <mark>getElementById</mark>, then <mark>measure</mark> what was <mark>measured</mark>.'] });
      const [typo] = (await engine.search({ index: 'forms', text: 'rbin2', highlight: true })).documents;
      assert.deepEqual(typo?.highlight, { title: ['<mark>rabin2</mark>'], body: ['<mark>rabin2</mark> reads binaries'] });
    });
  });


  it('answers a hit whose body is empty with no body fragments', async () => {
    {
      const engine = new SqliteEngine({ path: join(dir, 'empty-body.sqlite') });
      try {
        await engine.createIndex('empty_body');
        await engine.bulk('empty_body', [{ id: 'a', url: '/a', title: 'Heron logbook', body: '', summary: '', popularity: 0, locale: 'en-US', slug: 'a' }]);
        await engine.refresh('empty_body');
        const { documents } = await engine.search({ index: 'empty_body', text: 'heron', highlight: true });
        assert.deepEqual(documents.map((hit) => hit.highlight), [{ title: ['<mark>Heron</mark> logbook'], body: [] }]);
      } finally {
        await engine.close();
      }
    }
  });

  it('gives a long body the fragments of the whole of it, whether they lie in its beginning or past it', async () => {
    await withEngine(join(dir, 'long-bodies.sqlite'), async (engine) => {
      await engine.createIndex('long');
      const filler = (words: number) => Array.from({ length: words }, (_, i) => `w${i % 89}é`).join(' ');
      const bodies = {
        early: `a wading heron. ${filler(60)} a grey heron. ${filler(60)} a third heron. ${filler(BODY_BEGINNING / 2)} the last heron`,
        late: `${filler(BODY_BEGINNING / 2)} only now a heron 😀 at the end`,
      };
      await engine.bulk('long', Object.entries(bodies).map(([id, body]) => ({ id, url: `/${id}`, title: id, body, summary: '', popularity: 0.5, locale: 'en-US', slug: id })));
      const hits = (await engine.search({ index: 'long', text: 'heron', highlight: true })).documents;
      const terms = new Set(['heron']);
      for (const [id, body] of Object.entries(bodies)) {
        assert.ok(body.length > BODY_BEGINNING);
        assert.deepEqual(hits.find((hit) => hit.id === id)?.highlight?.body, fragmentsOf(matchWords(body, { terms }), {}, eachTermAWord(terms)), id);
      }
      assert.match(hits.find((hit) => hit.id === 'late')?.highlight?.body.join(' ') ?? '', /a <mark>heron<\/mark> 😀 at the end$/);
    });
  });

  it('reads a beginning that ends inside a character without showing the cut', async () => {
    await withEngine(join(dir, 'cut-character.sqlite'), async (engine) => {
      await engine.createIndex('cut');
      const early = `鷺 ${'日本 '.repeat(20)}鷺 ${'日本 '.repeat(20)}鷺 `;
      // A lead of 0–2 bytes that puts the last byte read inside a three-byte character.
      const lead = ['', 'a', 'ab'].find((prefix) => {
        const bytes = Buffer.from(`${prefix} ${early}${'日本語 '.repeat(4000)}`);
        return ((bytes[BODY_BEGINNING] as number) & 0xc0) === 0x80;
      });
      assert.ok(lead !== undefined, 'one of three leads cuts a character');
      const body = `${lead} ${early}${'日本語 '.repeat(4000)}鷺`;
      await engine.bulk('cut', [{ id: 'cjk', url: '/cjk', title: 'CJK', body, summary: '', popularity: 0.5, locale: 'ja', slug: 'cjk' }]);
      const [hit] = (await engine.search({ index: 'cut', text: '鷺', highlight: true })).documents;
      const terms = new Set(['鷺']);
      assert.deepEqual(hit?.highlight?.body, fragmentsOf(matchWords(body, { terms }), {}, eachTermAWord(terms)));
      assert.equal(hit?.highlight?.body.length, 3);
      assert.ok(!hit?.highlight?.body.join('').includes('\uFFFD'));
    });
  });
});

describe('SqliteEngine totals', () => {
  it('counts the total exactly up to totalUpTo when the query holds words common enough to be dropped', async () => {
    await withEngine(join(dir, 'common-totals.sqlite'), async (engine) => {
      // Enough documents for words in more than COMMON_WORD_SHARE of them to be common (COMMON_WORD_MIN_DOCUMENTS).
      const words = ['the', 'of', 'grid', 'layout', 'flexbox', 'measuring', 'colour', 'animation'];
      const pick = (i: number, salt: number) => words[(i * salt + (i >> 3)) % words.length] as string;
      const documents = Array.from({ length: 1200 }, (_, i) => ({
        id: `d${i}`,
        url: `/d${i}`,
        title: `${i % 2 === 0 ? 'The ' : ''}${pick(i, 7)} ${pick(i, 3)}`,
        body: `the ${i % 3 === 0 ? 'of ' : ''}${pick(i, 5)} ${pick(i, 11)}`,
        summary: '',
        popularity: (i % 10) / 10,
        locale: i % 4 === 0 ? 'fr' : 'en-US',
        slug: `d${i}`,
      }));
      await engine.createIndex('common');
      await engine.bulk('common', documents);
      await engine.refresh('common');
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom(...words, 'measu', 'anim', 'lay'), { minLength: 1, maxLength: 3 }),
          fc.constantFrom('best', 'relevance', 'popularity') as fc.Arbitrary<'best' | 'relevance' | 'popularity'>,
          fc.integer({ min: 1, max: 20 }),
          fc.integer({ min: 0, max: 40 }),
          fc.option(fc.integer({ min: 1, max: 1200 }), { nil: undefined }),
          fc.subarray(['fr', 'en-US']),
          async (text, sort, size, from, totalUpTo, locales) => {
            const query = { index: 'common', text: text.join(' '), locales };
            const matching = await engine.count(query);
            const { total } = await engine.search({ ...query, sort, size, from, totalUpTo });
            const cap = totalUpTo ?? 1000;
            assert.deepEqual(total, matching <= cap ? { value: matching, relation: 'eq' } : { value: cap, relation: 'gte' }, JSON.stringify({ text, sort, size, from, totalUpTo, locales, matching }));
          },
        ),
        { numRuns: 150 },
      );
    });
  });
});

describe('SqliteEngine corrections', () => {
  it('plans a word corrected to a common word as that word typed: not required while a rarer word remains', async () => {
    await withEngine(join(dir, 'common-correction.sqlite'), async (engine) => {
      // Enough documents for `grid`, in four of five, to be common (COMMON_WORD_MIN_DOCUMENTS).
      const documents = numberedPages(1200, (i) => ({ title: i % 40 === 0 ? `Heron ${i}` : `Egret ${i}`, body: i % 5 === 0 ? 'a pond' : 'a grid of ponds' }));
      await indexed(engine, 'corrections', documents);
      const typed = await engine.search({ index: 'corrections', text: 'grid heron', size: 50 });
      const misspelt = await engine.search({ index: 'corrections', text: 'gird heron', size: 50 });
      assert.equal(misspelt.corrected, 'grid heron');
      assert.equal(misspelt.total.value, 30, 'every heron, with or without the grid');
      assert.deepEqual(misspelt.documents.map((hit) => hit.id), typed.documents.map((hit) => hit.id));
    });
  });

  it('matches a misspelt word of several neighbours by them all, however common one of them is', async () => {
    await withEngine(join(dir, 'ambiguous-correction.sqlite'), async (engine) => {
      // `with` stands in four pages of five, `watch` in a few heron titles: `wath` is one edit from both.
      const documents = numberedPages(1200, (i) => ({
        title: i % 80 === 0 ? `Heron watch ${i}` : i % 40 === 0 ? `Heron ${i}` : `Egret ${i}`,
        body: i % 5 === 0 ? 'a pond' : 'a grid of ponds with reeds',
      }));
      await indexed(engine, 'ambiguous', documents);
      const result = await engine.search({ index: 'ambiguous', text: 'wath heron', size: 50 });
      assert.equal(result.corrected, 'with heron');
      assert.equal(result.total.value, 15, 'the heron pages that hold one of the neighbours: a required word, not a dropped common one');
      assert.ok(result.documents.every((hit) => hit.title.startsWith('Heron watch')));
    });
  });

  it('corrects an identifier whose short part lost a letter as a whole, when a title holds it joined', async () => {
    await withEngine(join(dir, 'short-part.sqlite'), async (engine) => {
      await indexed(engine, 'short-part', [
        doc('rev-parse', 'git rev-parse', { body: 'Pick out and massage parameters.' }),
        doc('rev-list', 'git rev-list', { body: 'Lists commit objects.' }),
        doc('notes', 'Notes', { body: 'git parse', popularity: 1 }),
      ]);
      const result = await engine.search({ index: 'short-part', text: 'git rv-parse' });
      assert.deepEqual([result.documents[0]?.id, result.corrected], ['rev-parse', 'git revparse']);
    });
  });
});

describe('SqliteEngine locale partitions', () => {
  it('keeps two locales of one partition apart, and merges partitions in popularity order when no locale is asked', async () => {
    assert.equal(localePartition('fr'), localePartition('si'), 'fr and si share a partition');
    await withEngine(join(dir, 'partitions.sqlite'), async (engine) => {
      await engine.createIndex('parts');
      const documents = ['fr', 'si', 'en-US', 'de'].flatMap((locale, l) =>
        Array.from({ length: 5 + l }, (_, i) => ({
          id: `${locale}-${i}`, url: `/${locale}/heron-${i}`, title: `Heron ${locale} ${i}`, body: 'heron', summary: '',
          popularity: ((i * 7 + l * 3) % 10) / 10, locale, slug: `heron-${i}`,
        })),
      );
      await engine.bulk('parts', documents);
      await engine.refresh('parts');
      assert.equal(await engine.count({ index: 'parts', text: 'heron', locales: ['fr'] }), 5);
      assert.equal(await engine.count({ index: 'parts', text: 'heron', locales: ['SI'] }), 6);
      assert.equal(await engine.count({ index: 'parts', text: 'heron', locales: ['fr', 'de'] }), 13);
      assert.equal(await engine.count({ index: 'parts', text: 'heron' }), 26);
      const fr = await engine.search({ index: 'parts', text: 'heron', locales: ['fr'], size: 20 });
      assert.deepEqual(fr.total, { value: 5, relation: 'eq' });
      assert.ok(fr.documents.every((hit) => hit.locale === 'fr'));
      assert.deepEqual(await engine.suggest({ index: 'parts', text: 'hreon', locales: ['si'] }), [{ text: 'heron', total: 6, relation: 'eq' }]);
      const nonIncreasing = (values: number[]) => values.every((value, i) => i === 0 || value <= (values[i - 1] as number));
      const all = await engine.search({ index: 'parts', text: 'heron', sort: 'popularity', size: 26 });
      assert.equal(all.documents.length, 26);
      assert.ok(nonIncreasing(all.documents.map((hit) => hit.popularity)));
      const firstPage = await engine.search({ index: 'parts', text: 'heron', sort: 'popularity', size: 4 });
      assert.deepEqual(firstPage.documents.map((hit) => hit.popularity), all.documents.slice(0, 4).map((hit) => hit.popularity), 'the most popular of every partition');
      const completions = await engine.autocomplete({ index: 'parts', prefix: 'her', size: 26 });
      assert.equal(completions.length, 26);
      const popularity = new Map(documents.map((document) => [document.url, document.popularity]));
      assert.ok(nonIncreasing(completions.map((match) => popularity.get(match.url) as number)));
    });
  });
});

describe('SqliteEngine body candidates', () => {
  it('finds and scores whole-phrase matches past the body cut-off above the scattered matches before it', async () => {
    await withEngine(join(dir, 'phrase.sqlite'), async (engine) => {
      await engine.createIndex('phrase');
      const filler = 'lorem ipsum dolor sit amet '.repeat(6);
      const scattered = Array.from({ length: BODY_CANDIDATES + 50 }, (_, i) => ({
        id: `s${i}`, url: `/s${i}`, title: `Page ${i}`, body: `service ${filler} worker`, summary: '', popularity: 0.9, locale: 'en-US', slug: `s${i}`,
      }));
      const phrase = Array.from({ length: 3 }, (_, i) => ({
        id: `p${i}`, url: `/p${i}`, title: `Note ${i}`, body: `a service worker caches ${filler}`, summary: '', popularity: 0.1, locale: 'en-US', slug: `p${i}`,
      }));
      await engine.bulk('phrase', [...scattered, ...phrase]);
      await engine.refresh('phrase');
      const result = await engine.search({ index: 'phrase', text: 'service worker', sort: 'relevance', size: 5 });
      assert.deepEqual(result.documents.slice(0, 3).map((hit) => hit.url).sort(), ['/p0', '/p1', '/p2']);
      assert.ok((result.documents[0]?.score ?? 0) > (result.documents[3]?.score ?? Infinity));
      assert.deepEqual(result.total, { value: BODY_CANDIDATES + 53, relation: 'eq' });
    });
  });
});

describe('SqliteEngine documents analysed ahead', () => {
  it('writes a document with its analysis given as it writes it analysing it itself, and refuses a malformed one', async () => {
    await withEngine(join(dir, 'analysed.sqlite'), async (engine) => {
      await engine.createIndex('ahead');
      const page = { id: 'a', url: '/a', title: 'Measuring getElementById', body: 'measured values', summary: '', popularity: 0, locale: 'en-US', slug: 'a' };
      const results = await engine.bulk('ahead', [
        { ...page, analysis: analyzeDocument(page) },
        { ...page, id: 'b', url: '/b' },
        { ...page, id: 'c', analysis: { title: 1 } as never },
      ]);
      assert.deepEqual(results.map((result) => result.ok), [true, true, false]);
      await engine.refresh('ahead');
      for (const text of ['measure', 'element by id', 'getelementbyid']) {
        assert.deepEqual((await engine.search({ index: 'ahead', text })).documents.map((hit) => hit.id).sort(), ['a', 'b'], text);
      }
    });
  });
});

describe('SqliteEngine typed phrase', () => {
  it('ranks the words typed in a row above titles holding only the rarer words when the common ones are dropped', async () => {
    await withEngine(join(dir, 'typed-phrase.sqlite'), async (engine) => {
      await engine.createIndex('typed');
      const page = (id: string, title: string, body: string, popularity = 0) => ({ id, url: `/${id}`, title, body, summary: '', popularity, locale: 'de', slug: id });
      await engine.bulk('typed', [
        ...Array.from({ length: 1000 }, (_, i) => page(`c${i}`, `Seite ${i}`, `als Beispiel ${i}`)),
        page('phrase', 'uuidgen', 'verwendet MD5 als Hash'),
        ...Array.from({ length: 12 }, (_, i) => page(`title${i}`, `Hash ${i}`, 'Werte', 1)),
        page('both', 'Hash als Wert', 'Werte'),
      ]);
      await engine.refresh('typed');
      const found = (await engine.search({ index: 'typed', text: 'als Hash', locales: ['de'] })).documents.map((hit) => hit.id);
      assert.deepEqual(found.slice(0, 2), ['both', 'phrase'], 'a title holding every word typed, then the phrase, then titles of the rarer word only');
    });
  });
});
