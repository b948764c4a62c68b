import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { eachTermAWord, fragmentsOf } from '../../policy/highlight-fragments.js';
import { matchWords } from '../../policy/highlight-matches.js';
import { HIGHLIGHTED_BYTES } from './hits.js';
import { testDirectory, withEngine } from '../../test-support/sqlite-engine.js';

const dir = testDirectory('sitestack-sqlite-hits-');

describe('readHits', () => {
  const filler = (words: number) => Array.from({ length: words }, (_, i) => `w${i % 89}`).join(' ');
  const terms = new Set(['heron']);

  it('looks for fragments in the first HIGHLIGHTED_BYTES of a body only, and still finds a page whose match lies past them', async () => {
    await withEngine(join(dir, 'bounded.sqlite'), async (engine) => {
      await engine.createIndex('bounded');
      const past = HIGHLIGHTED_BYTES / 2;
      const bodies = {
        // A match in the beginning, another past the bound: the beginning alone shows what is shown.
        both: `a heron. ${filler(past)} a second heron at the end`,
        // The only match past the bound: the title shows why the page was found.
        late: `${filler(past)} a heron at the end`,
      };
      await engine.bulk('bounded', Object.entries(bodies).map(([id, body]) => ({ id, url: `/${id}`, title: `${id} heron`, body, summary: '', popularity: 0.5, locale: 'en-US', slug: id })));
      const hits = (await engine.search({ index: 'bounded', text: 'heron', highlight: true })).documents;
      const both = hits.find((hit) => hit.id === 'both');
      const late = hits.find((hit) => hit.id === 'late');
      assert.ok(bodies.both.length > HIGHLIGHTED_BYTES && bodies.late.length > HIGHLIGHTED_BYTES);
      const within = bodies.both.slice(0, HIGHLIGHTED_BYTES);
      assert.deepEqual(both?.highlight?.body, fragmentsOf(matchWords(within.slice(0, within.lastIndexOf(' ')), { terms }), {}, eachTermAWord(terms)));
      assert.equal(both?.highlight?.body.length, 1);
      assert.deepEqual(late?.highlight, { title: ['late <mark>heron</mark>'], body: [] });
    });
  });

  it('ends a fragment that reaches the bound with an ellipsis, as the body goes on', async () => {
    await withEngine(join(dir, 'ellipsis.sqlite'), async (engine) => {
      await engine.createIndex('ellipsis');
      const lead = filler(HIGHLIGHTED_BYTES / 2);
      const head = lead.slice(0, lead.lastIndexOf(' ', HIGHLIGHTED_BYTES - 20));
      const body = `${head} heron ${filler(1000)}`;
      await engine.bulk('ellipsis', [{ id: 'cut', url: '/cut', title: 'cut', body, summary: '', popularity: 0.5, locale: 'en-US', slug: 'cut' }]);
      const [hit] = (await engine.search({ index: 'ellipsis', text: 'heron', highlight: true })).documents;
      const [fragment] = hit?.highlight?.body ?? [];
      assert.match(fragment ?? '', /<mark>heron<\/mark> w\d+.*…$/);
      assert.equal(hit?.highlight?.body.length, 1);
    });
  });

  it('continues the beginning in a longer read, in text of two- and three-byte characters', async () => {
    await withEngine(join(dir, 'read-on.sqlite'), async (engine) => {
      await engine.createIndex('on');
      const bodies = {
        cyrillic: `цапля ${'серая птица '.repeat(3000)}ещё одна цапля ${'птица '.repeat(100)}`,
        japanese: `鷺 ${'日本語の文章。'.repeat(2000)} もう一羽の鷺 ${'日本 '.repeat(100)}`,
      };
      await engine.bulk('on', Object.entries(bodies).map(([id, body]) => ({ id, url: `/${id}`, title: id, body, summary: '', popularity: 0.5, locale: id === 'japanese' ? 'ja' : 'ru', slug: id })));
      for (const [id, body] of Object.entries(bodies)) {
        const word = id === 'japanese' ? '鷺' : 'цапля';
        assert.ok(Buffer.byteLength(body) > 24_576 && Buffer.byteLength(body) < HIGHLIGHTED_BYTES);
        const [hit] = (await engine.search({ index: 'on', text: word, highlight: true })).documents;
        const terms = new Set([word]);
        assert.deepEqual(hit?.highlight?.body, fragmentsOf(matchWords(body, { terms }), {}, eachTermAWord(terms)), id);
        assert.equal(hit?.highlight?.body.length, 2, id);
      }
    });
  });
});
