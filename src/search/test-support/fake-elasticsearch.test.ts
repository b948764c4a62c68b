import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { indexDefinition } from '../engines/elasticsearch-schema.js';
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

  it('html-encodes highlights as Lucene does, leaving only the tags it was given', async () => {
    await client.indices.create({ index: 'marks', ...indexDefinition() });
    await client.bulk({ refresh: true, operations: [{ index: { _index: 'marks', _id: 'a' } }, { url: '/a', title: `<b>"Tom's"</b> & Jerry/Cat`, summary: '', body: '', popularity: 0, locale: 'en', slug: 'a' }] });
    await client.indices.refresh({ index: 'marks' });
    const result = await client.search({ index: 'marks', query: { match: { title: 'jerry' } }, highlight: { encoder: 'html', pre_tags: ['<mark>'], post_tags: ['</mark>'], fields: { title: { number_of_fragments: 0 } } } });
    assert.deepEqual(result.hits.hits[0]?.highlight?.['title'], ['&lt;b&gt;&quot;Tom&#x27;s&quot;&lt;&#x2F;b&gt; &amp; <mark>Jerry</mark>&#x2F;Cat']);
  });
});
