import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { indexDefinition } from '../engines/elasticsearch/schema.js';
import { FakeElasticsearch } from './fake-elasticsearch.js';

/** The stand-in must behave like Elasticsearch where the engine relies on it, and refuse what it does not model. */
describe('in-memory Elasticsearch on the mock transport', () => {
  const fake = new FakeElasticsearch();
  const client = new Client({ node: 'http://fake-es:9200', Connection: fake.Connection, maxRetries: 0 });
  after(() => client.close());
  const status = async (promise: Promise<unknown>) => promise.then(() => 200, (error: { statusCode?: number; body?: { error?: { type?: string } } }) => `${error.statusCode} ${error.body?.error?.type}`);

  it('shows documents to search only after a refresh, as Elasticsearch does', async () => {
    await client.indices.create({ index: 'refresh', ...indexDefinition() });
    await client.bulk({ operations: [{ index: { _index: 'refresh', _id: 'a' } }, { url: '/a', title: 'Walrus', summary: '', body: '', popularity: 0, locale: 'en', slug: 'a' }] });
    assert.equal((await client.count({ index: 'refresh', query: { match: { title: 'walrus' } } })).count, 0);
    await client.indices.refresh({ index: 'refresh' });
    assert.equal((await client.count({ index: 'refresh', query: { match: { title: 'walrus' } } })).count, 1);
  });

  it('refuses what it does not model, with Elasticsearch error types, rather than guessing', async () => {
    await client.indices.create({ index: 'refuse', ...indexDefinition() });
    assert.equal(await status(client.search({ index: 'refuse', query: { query_string: { query: 'x' } } })), '400 parsing_exception');
    assert.equal(await status(client.indices.create({ index: 'bad', settings: { analysis: { analyzer: { a: { type: 'custom', tokenizer: 'whitespace' } } } } })), '400 illegal_argument_exception');
    assert.equal(await status(client.indices.create({ index: 'Upper' })), '400 invalid_index_name_exception');
    assert.equal(await status(client.search({ index: 'missing', query: { match_all: {} } })), '404 index_not_found_exception');
    const response = await client.bulk({ operations: [{ index: { _index: 'refuse', _id: 'x' } }, { title: 'T', stray: 1 }, { index: { _index: 'missing', _id: 'y' } }, { title: 'T' }] });
    assert.deepEqual(response.items.map((item) => [item.index?.status, item.index?.error?.type]), [
      [400, 'strict_dynamic_mapping_exception'],
      [404, 'index_not_found_exception'],
    ]);
  });

  it('indexes every value of an array field and matches a prefix on any of them, refusing an object among them', async () => {
    await client.indices.create({ index: 'arrays', ...indexDefinition() });
    const source = { url: '/a', title: 'Measuring nginx', summary: '', body: '', popularity: 0, locale: 'en', slug: 'a' };
    await client.bulk({ operations: [{ index: { _index: 'arrays', _id: 'a' } }, { ...source, title_words: ['measuring nginx', 'nginx'] }] });
    await client.indices.refresh({ index: 'arrays' });
    assert.equal((await client.count({ index: 'arrays', query: { prefix: { title_words: { value: 'ngi' } } } })).count, 1);
    assert.equal((await client.count({ index: 'arrays', query: { prefix: { title_words: { value: 'ginx' } } } })).count, 0);
    const response = await client.bulk({ operations: [{ index: { _index: 'arrays', _id: 'b' } }, { ...source, title_words: ['x', { y: 1 }] }] });
    assert.equal(response.items[0]?.index?.error?.type, 'document_parsing_exception');
  });

  it('matches a terms query on a text field by the indexed terms as given, with a constant score, and suggests the terms a title holds', async () => {
    await client.indices.create({ index: 'title-terms', ...indexDefinition() });
    const page = (id: string, title: string) => [{ index: { _index: 'title-terms', _id: id } }, { url: `/${id}`, title, summary: '', body: 'git mere', popularity: 0, locale: 'en', slug: id }];
    await client.bulk({ operations: [...page('a', 'git merge'), ...page('b', 'Notes on mere')] });
    await client.indices.refresh({ index: 'title-terms' });
    const found = await client.search({ index: 'title-terms', query: { terms: { title: ['merge', 'Merge', 'mer'], boost: 2.5 } } });
    assert.deepEqual(found.hits.hits.map((hit) => [hit._id, hit._score]), [['a', 2.5]]);
    const suggested = await client.search({ index: 'title-terms', size: 0, suggest: { t: { text: 'mere', term: { field: 'title', suggest_mode: 'always' } } } });
    assert.deepEqual((suggested.suggest?.['t']?.[0]?.options as { text: string }[]).map((option) => option.text), ['merge']);
  });

  it('counts the whole index under a global aggregation, and the matches under a filters one', async () => {
    await client.indices.create({ index: 'counts', ...indexDefinition() });
    const page = (id: string, title: string) => [{ index: { _index: 'counts', _id: id } }, { url: `/${id}`, title, summary: '', body: '', popularity: 0, locale: 'en', slug: id }];
    await client.bulk({ operations: [...page('a', 'Kestrel'), ...page('b', 'Kestrel hovering'), ...page('c', 'Heron')] });
    await client.indices.refresh({ index: 'counts' });
    const filters = { filters: { filters: { kestrel: { term: { words: 'kestrel' } }, heron: { term: { words: 'heron' } } } } };
    const result = await client.search({ index: 'counts', size: 0, query: { match: { title: 'hovering' } }, aggs: { all: { global: {}, aggs: { words: filters } }, matched: filters } });
    assert.deepEqual(result.aggregations, {
      all: { doc_count: 3, words: { buckets: { kestrel: { doc_count: 2 }, heron: { doc_count: 1 } } } },
      matched: { buckets: { kestrel: { doc_count: 1 }, heron: { doc_count: 0 } } },
    });
    assert.equal(await status(client.search({ index: 'counts', aggs: { outer: { filter: { match_all: {} }, aggs: { inner: { global: {} } } } } })), '400 aggregation_execution_exception');
    assert.equal(await status(client.search({ index: 'counts', aggs: { terms: { terms: { field: 'locale' } } } })), '400 parsing_exception');
  });

  it('expands a fuzzy clause to the stored terms within its edits, the first letters kept, and suggests more popular words in popular mode', async () => {
    await client.indices.create({ index: 'fuzzy', ...indexDefinition() });
    const titles = ['Kestrel', 'Kestrel', 'Kestral', 'Kestrels', 'Gestral', 'Kest'];
    await client.bulk({ operations: titles.flatMap((title, i) => [{ index: { _index: 'fuzzy', _id: `${i}` } }, { url: `/${i}`, title, summary: '', body: '', popularity: 0, locale: 'en', slug: `${i}` }]) });
    await client.indices.refresh({ index: 'fuzzy' });
    const fuzzy = (fuzziness: string) => client.search({ index: 'fuzzy', query: { multi_match: { query: 'kestral', type: 'best_fields', fields: ['title'], fuzziness, prefix_length: 1 } } });
    const found = await fuzzy('AUTO:4,8');
    assert.deepEqual(found.hits.hits.map((hit) => hit._id).sort(), ['0', '1', '2'], 'one edit for seven letters (kestrels is two), the first letter kept');
    assert.equal(found.hits.hits[0]?._id, '2', 'the word itself scores highest');
    assert.deepEqual((await fuzzy('AUTO:8,9')).hits.hits.map((hit) => hit._id), ['2']);
    assert.equal(await status(client.search({ index: 'fuzzy', query: { multi_match: { query: 'kestral', type: 'cross_fields', fields: ['title'], fuzziness: 'AUTO' } } })), '400 parsing_exception');
    const suggest = async (mode: string, extra: object = {}, text = 'kestral kest') => {
      const response = await client.search({ index: 'fuzzy', size: 0, suggest: { s: { text, term: { field: 'words', suggest_mode: mode as 'popular', min_word_length: 3, ...extra } } } });
      return (response.suggest?.['s'] as { options: { text: string; freq: number }[] }[]).map((entry) => entry.options.map((option) => `${option.text}:${option.freq}`));
    };
    assert.deepEqual(await suggest('popular', { max_term_freq: 3 }), [['kestrel:2'], []], 'more frequent than the word; kest is too short to change');
    assert.deepEqual(await suggest('missing'), [[], []]);
    assert.deepEqual(await suggest('always', { sort: 'frequency' }), [['kestrel:2', 'kestrels:1'], []]);
    assert.deepEqual(await suggest('always', { max_term_freq: 0.1 }, 'kestrel'), [[]], 'a word in more than a tenth of the documents gets none');
    assert.deepEqual(await suggest('always', { max_term_freq: 2 }, 'kestrel'), [['kestral:1', 'kestrels:1']]);
  });

  it('html-encodes highlights as Lucene does, leaving only the tags it was given', async () => {
    await client.indices.create({ index: 'marks', ...indexDefinition() });
    await client.bulk({ refresh: true, operations: [{ index: { _index: 'marks', _id: 'a' } }, { url: '/a', title: `<b>"Tom's"</b> & Jerry/Cat`, summary: '', body: '', popularity: 0, locale: 'en', slug: 'a' }] });
    await client.indices.refresh({ index: 'marks' });
    const result = await client.search({ index: 'marks', query: { match: { title: 'jerry' } }, highlight: { encoder: 'html', pre_tags: ['<mark>'], post_tags: ['</mark>'], fields: { title: { number_of_fragments: 0 } } } });
    assert.deepEqual(result.hits.hits[0]?.highlight?.['title'], ['&lt;b&gt;&quot;Tom&#x27;s&quot;&lt;&#x2F;b&gt; &amp; <mark>Jerry</mark>&#x2F;Cat']);
  });
});
