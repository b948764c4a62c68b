import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import type { BaseConnection } from '@elastic/elasticsearch';
import { ElasticsearchEngine } from './engine.js';

interface MockRequest {
  path: string;
  body: unknown;
}

/**
 * A cluster that answers every `_search` and `_count` by a script, recording the bodies: for the decisions the engine
 * takes from Elasticsearch's answers (typo results), which the stand-in, matching fuzzy clauses exactly, never gives.
 */
function scriptedCluster(answer: (body: Record<string, unknown>, path: string) => Record<string, unknown>) {
  const Mock = createRequire(import.meta.url)('@elastic/elasticsearch-mock') as new () => {
    add(pattern: { method: string | string[]; path: string | string[] }, resolver: (params: MockRequest) => unknown): void;
    getConnection(): typeof BaseConnection;
  };
  const mock = new Mock();
  const bodies: { path: string; body: Record<string, unknown> }[] = [];
  mock.add({ method: ['POST', 'GET'], path: ['/:index/_search', '/:index/_count'] }, ({ path, body }) => {
    const request = (body ?? {}) as Record<string, unknown>;
    bodies.push({ path, body: request });
    return answer(request, path);
  });
  const Connection = class extends mock.getConnection() {
    override async close(): Promise<void> {}
  };
  return { bodies, engine: new ElasticsearchEngine({ node: 'http://scripted:9200', Connection }) };
}

const hitsOf = (ids: readonly string[]) => ({
  hits: {
    total: { value: ids.length, relation: 'eq' },
    hits: ids.map((id) => ({ _index: 'i', _id: id, _score: 1, _source: { url: `/${id}`, title: id, summary: '', locale: 'en', slug: id, popularity: 0 } })),
  },
});
/** A global `filters` aggregation's answer (see typos.ts): documents by word position. */
const counted = (name: string, counts: readonly number[]) => ({
  [name]: { doc_count: 100, words: { buckets: Object.fromEntries(counts.map((count, at) => [String(at), { doc_count: count }])) } },
});
const option = (text: string, freq: number) => ({ text, score: 0.8, freq });
/** What the search as typed carries back: each word's documents and the suggester's options. */
const probed = (counts: readonly number[], typos: readonly { text: string; offset: number; options: ReturnType<typeof option>[] }[]) => ({
  aggregations: counted('held', counts),
  suggest: { typos: typos.map((entry) => ({ ...entry, length: entry.text.length })) },
});
const flexbxGrid = probed([0, 5], [
  { text: 'flexbx', offset: 0, options: [option('flexbox', 4)] },
  { text: 'grid', offset: 7, options: [] },
]);
const isFuzzy = (body: unknown) => JSON.stringify(body).includes('"fuzziness"');
const fuzzyWords = (body: unknown) => [...JSON.stringify(body).matchAll(/"query":"([^"]+)","type":"best_fields","fields":\[[^\]]*\],"fuzziness"/g)].map((match) => match[1]);

describe('elasticsearch engine: typo results', () => {
  it('searches again with fuzzy words only when the search finds nothing and an unknown word has a near neighbour, and says what it searched', async () => {
    const { bodies, engine } = scriptedCluster((body) => (isFuzzy(body) ? hitsOf(['a', 'b']) : { ...hitsOf([]), ...flexbxGrid }));
    try {
      const result = await engine.search({ index: 'i', text: 'Flexbx grid' });
      assert.equal(result.corrected, 'flexbox grid');
      assert.deepEqual(result.documents.map((hit) => hit.id), ['a', 'b']);
      assert.deepEqual(result.total, { value: 2, relation: 'eq' });
      assert.equal(bodies.length, 2);
      // The search as typed learns how the whole index holds each word, and the neighbours of the missing or rare ones.
      assert.deepEqual(bodies[0]?.body['aggs'], {
        held: { global: {}, aggs: { words: { filters: { filters: { 0: { term: { words: 'flexbx' } }, 1: { term: { words: 'grid' } } } } } } },
      });
      assert.deepEqual(bodies[0]?.body['suggest'], {
        typos: { text: 'flexbx grid', term: { field: 'words', suggest_mode: 'popular', max_edits: 2, prefix_length: 1, min_word_length: 3, size: 3, sort: 'score', max_term_freq: 3 } },
        titles: { text: 'flexbx grid', term: { field: 'title', suggest_mode: 'always', max_edits: 2, prefix_length: 1, min_word_length: 2, size: 12, sort: 'score', max_term_freq: 2 ** 31 - 1 } },
      });
      assert.ok(!isFuzzy(bodies[0]?.body));
      assert.deepEqual([bodies[1]?.body['suggest'], bodies[1]?.body['aggs']], [undefined, undefined]);
      assert.deepEqual(fuzzyWords(bodies[1]?.body), ['flexbx'], 'only the unknown word matches its neighbours');
      bodies.length = 0;
      assert.equal(await engine.count({ index: 'i', text: 'Flexbx grid' }), 2);
      assert.deepEqual(bodies.map((request) => [request.path.split('/').at(-1), request.body['size'], request.body['track_total_hits'], isFuzzy(request.body)]), [
        ['_search', 0, true, false],
        ['_search', 0, true, true],
      ]);
    } finally {
      await engine.close();
    }
  });

  it('widens a word held in a few documents by its neighbours when one is held far more often, even when the search finds something, correcting nothing', async () => {
    const rare = (held: number, freq: number) => scriptedCluster((body) => (isFuzzy(body) ? hitsOf(['kestral', 'kestrel1', 'kestrel2']) : { ...hitsOf(['kestral']), ...probed([held, 9], [{ text: 'kestral', offset: 0, options: [option('kestrel', freq)] }, { text: 'sighting', offset: 8, options: [] }]) }));
    const widened = rare(1, 60);
    const few = rare(1, 49);
    const notRare = rare(4, 1000);
    try {
      const result = await widened.engine.search({ index: 'i', text: 'kestral sighting', sort: 'relevance' });
      assert.deepEqual([result.documents.map((hit) => hit.id), result.corrected], [['kestral', 'kestrel1', 'kestrel2'], undefined]);
      assert.equal(widened.bodies.length, 2);
      assert.deepEqual(fuzzyWords(widened.bodies[1]?.body), ['kestral']);
      assert.equal(JSON.stringify(widened.bodies[1]?.body).includes('"aggs"'), false);
      for (const { engine, bodies } of [few, notRare]) {
        assert.deepEqual((await engine.search({ index: 'i', text: 'kestral sighting' })).documents.map((hit) => hit.id), ['kestral']);
        assert.equal(bodies.length, 1);
      }
    } finally {
      await Promise.all([widened.engine.close(), few.engine.close(), notRare.engine.close()]);
    }
  });

  it('leaves out a word the index holds in no form, and searches again keeping one it holds in another form', async () => {
    const probe = probed([2, 0, 0], [
      { text: 'cafe', offset: 0, options: [] },
      { text: 'missingword', offset: 5, options: [] },
      { text: 'flexbx', offset: 17, options: [option('flexbox', 4)] },
    ]);
    /** The index holds `missingword` in `forms` documents in another form. */
    const script = (forms: number) =>
      scriptedCluster((body) => {
        if (body['suggest'] !== undefined) return { ...hitsOf([]), ...probe };
        const dropped = !JSON.stringify(body['query']).includes('missingword');
        return dropped ? { ...hitsOf(['a', 'b']), aggregations: counted('forms', [0, forms, 0]) } : hitsOf(['c']);
      });
    const unknown = script(0);
    const otherForm = script(3);
    try {
      const result = await unknown.engine.search({ index: 'i', text: 'Cafe missingword flexbx' });
      assert.deepEqual([result.documents.map((hit) => hit.id), result.corrected], [['a', 'b'], 'Cafe flexbox']);
      assert.equal(unknown.bodies.length, 2);
      assert.deepEqual(fuzzyWords(unknown.bodies[1]?.body), ['flexbx']);
      const forms = (unknown.bodies[1]?.body['aggs'] as { forms: { global: object; aggs: { words: { filters: { filters: Record<string, unknown> } } } } }).forms;
      assert.deepEqual(Object.keys(forms.aggs.words.filters.filters), ['1'], 'whether the index holds the left-out word in another form');
      assert.deepEqual(forms.global, {});
      assert.ok(!JSON.stringify(forms).includes('fuzziness'), 'in its own forms, not its neighbours');
      assert.equal(await unknown.engine.count({ index: 'i', text: 'Cafe missingword flexbx' }), 2);
      const kept = await otherForm.engine.search({ index: 'i', text: 'Cafe missingword flexbx' });
      assert.deepEqual([kept.documents.map((hit) => hit.id), kept.corrected], [['c'], 'Cafe missingword flexbox']);
      assert.equal(otherForm.bodies.length, 3);
      assert.equal(otherForm.bodies[2]?.body['aggs'], undefined);
      assert.deepEqual(fuzzyWords(otherForm.bodies[2]?.body), ['flexbx']);
    } finally {
      await Promise.all([unknown.engine.close(), otherForm.engine.close()]);
    }
  });

  it('answers with one request, uncorrected, when the search finds something, corrections are off or no neighbour is near', async () => {
    const found = scriptedCluster(() => ({ ...hitsOf(['a']), ...flexbxGrid }));
    const off = scriptedCluster(() => hitsOf([]));
    const far = scriptedCluster(() => ({ ...hitsOf([]), ...probed([0], [{ text: 'grd', offset: 0, options: [option('grid', 1)] }]) }));
    try {
      const result = await found.engine.search({ index: 'i', text: 'flexbx grid' });
      assert.equal(result.corrected, undefined);
      assert.equal(found.bodies.length, 1);
      assert.deepEqual(await off.engine.search({ index: 'i', text: 'flexbx grid', corrections: false }), { documents: [], total: { value: 0, relation: 'eq' } });
      assert.equal(off.bodies.length, 1);
      assert.deepEqual([off.bodies[0]?.body['suggest'], off.bodies[0]?.body['aggs']], [undefined, undefined]);
      assert.deepEqual(await far.engine.search({ index: 'i', text: 'grd' }), { documents: [], total: { value: 0, relation: 'eq' } });
      assert.equal(far.bodies.length, 1, 'a 3-letter word has no neighbour within the fuzziness, and the only word is not left out');
    } finally {
      await Promise.all([found.engine.close(), off.engine.close(), far.engine.close()]);
    }
  });

  it('searches again naming the title words near a held word as terms of the title, never a fuzzy clause, and keeps the text as typed', async () => {
    const gitMere = { ...probed([9, 1], []), suggest: { typos: [], titles: [{ text: 'git', offset: 0, length: 3, options: [] }, { text: 'mere', offset: 4, length: 4, options: [option('merge', 1)] }] } };
    const { bodies, engine } = scriptedCluster((body) => (body['suggest'] === undefined ? hitsOf(['merge', 'typed-mere']) : { ...hitsOf(['typed-mere']), ...gitMere }));
    try {
      const result = await engine.search({ index: 'i', text: 'git mere' });
      assert.deepEqual([result.documents.map((hit) => hit.id), result.corrected], [['merge', 'typed-mere'], undefined]);
      assert.equal(bodies.length, 2);
      const widened = JSON.stringify(bodies[1]?.body['query']);
      assert.ok(widened.includes('{"terms":{"title":["merge"]'), widened);
      assert.ok(widened.includes('{"terms":{"title":["git"]') && widened.includes('{"terms":{"title":["mere","merge"]'), 'a title holding every word ranks first');
      assert.ok(!isFuzzy(bodies[1]?.body));
      bodies.length = 0;
      await engine.search({ index: 'i', text: 'mere' });
      assert.equal(JSON.stringify(bodies[0]?.body['suggest']).includes('"title"'), false, 'one word alone asks for no title words');
    } finally {
      await engine.close();
    }
  });

  it('keeps the title words the titles of the locales searched hold, sending the search again only when a word had more than three', async () => {
    const near = ['mare', 'mire', 'more', 'mers', 'merge'];
    const gitMere = { ...probed([9, 1], []), suggest: { typos: [], titles: [{ text: 'git', offset: 0, length: 3, options: [] }, { text: 'mere', offset: 4, length: 4, options: near.map((text) => option(text, 5)) }] } };
    const judged = (held: readonly number[]) => ({ 'title-words': { doc_count: 9, words: { buckets: Object.fromEntries(held.map((count, rank) => [`1:${rank}`, { doc_count: count }])) } } });
    const cluster = (held: readonly number[]) =>
      scriptedCluster((body) => (body['suggest'] !== undefined ? { ...hitsOf(['typed-mere']), ...gitMere } : body['aggs'] !== undefined ? { ...hitsOf(['merge']), aggregations: judged(held) } : hitsOf(['mare'])));
    const one = cluster([0, 0, 0, 0, 1]);
    const more = cluster([1, 1, 0, 1, 1]);
    try {
      assert.deepEqual((await one.engine.search({ index: 'i', text: 'git mere', locales: ['pt-BR'] })).documents.map((hit) => hit.id), ['merge']);
      assert.equal(one.bodies.length, 2, 'the titles of other locales hold the others: they match nothing in pt-BR');
      assert.ok(JSON.stringify(one.bodies[1]?.body['query']).includes(`{"terms":{"title":${JSON.stringify(near)}`));
      assert.deepEqual((await more.engine.search({ index: 'i', text: 'git mere', locales: ['pt-BR'] })).documents.map((hit) => hit.id), ['mare']);
      assert.equal(more.bodies.length, 3);
      const again = JSON.stringify(more.bodies[2]?.body['query']);
      assert.ok(again.includes('{"terms":{"title":["mare","mire","mers"]') && !again.includes('merge'), again);
    } finally {
      await Promise.all([one.engine.close(), more.engine.close()]);
    }
  });

  it('keeps the first answer when the fuzzy search finds nothing either', async () => {
    const { bodies, engine } = scriptedCluster((body) => (isFuzzy(body) ? hitsOf([]) : { ...hitsOf([]), ...flexbxGrid }));
    try {
      assert.deepEqual(await engine.search({ index: 'i', text: 'flexbx grid' }), { documents: [], total: { value: 0, relation: 'eq' } });
      assert.equal(bodies.length, 2);
    } finally {
      await engine.close();
    }
  });
});
