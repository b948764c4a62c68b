import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { isAppError } from '../../../errors.js';
import { FakeElasticsearch } from '../../test-support/fake-elasticsearch.js';
import { engineContractTests } from '../../test-support/contract/contract.js';
import { ElasticsearchEngine, elasticsearchOptionsFromUrl } from './engine.js';
import { createEngine } from '../factory.js';
import { doc, hasCode } from '../../test-support/engine-fixtures.js';

const fake = new FakeElasticsearch();
// The stand-in does not model Lucene's analysis (word splitting, stemming, fuzzy matching): the language tests run
// against a real cluster only.
engineContractTests('elasticsearch on the mock transport', async () => new ElasticsearchEngine({ node: 'http://fake-es:9200', Connection: fake.Connection }), { languageAnalysis: false });

const liveUrl = process.env['ELASTICSEARCH_TEST_URL'];
if (liveUrl === undefined || liveUrl === '') {
  describe('search engine contract: elasticsearch (live cluster)', () => {
    it('runs against a live cluster when ELASTICSEARCH_TEST_URL is set', {
      skip: 'SKIPPED: set ELASTICSEARCH_TEST_URL=http://localhost:9200 (see docs/scale.md, "Elasticsearch engine") to run the contract against a real cluster',
    });
  });
} else {
  // A one-node test cluster cannot place replicas; 0 keeps its health green.
  engineContractTests('elasticsearch (live cluster)', async () => new ElasticsearchEngine({ ...elasticsearchOptionsFromUrl(liveUrl), index: { replicas: 0 } }), { languageAnalysis: true });
}

describe('elasticsearch engine: ranking', () => {
  it('ranks the query words in a row above the same words apart when both documents hold them', async () => {
    const cluster = new FakeElasticsearch();
    const engine = new ElasticsearchEngine({ node: 'http://fake-es:9200', Connection: cluster.Connection });
    try {
      await engine.createIndex('phrase');
      await engine.bulk('phrase', [
        doc('apart', 'Notes', 'grid systems and the layout of a page with a flexible grid'),
        doc('together', 'Notes', 'systems for a page with a flexible grid layout of cards'),
      ]);
      await engine.refresh('phrase');
      const result = await engine.search({ index: 'phrase', text: 'grid layout', sort: 'relevance' });
      assert.deepEqual(result.documents.map((hit) => hit.id), ['together', 'apart']);
    } finally {
      await engine.close();
    }
  });
});

describe('elasticsearch engine: stemmed copies', () => {
  it('sends each document with the stemmed copy of its text in its locale language, and none for a locale without a stemmer', async () => {
    const cluster = new FakeElasticsearch();
    const engine = new ElasticsearchEngine({ node: 'http://fake-es:9200', Connection: cluster.Connection });
    const client = new Client({ node: 'http://fake-es:9200', Connection: cluster.Connection, maxRetries: 0 });
    try {
      await engine.createIndex('stems');
      const results = await engine.bulk('stems', [
        { ...doc('de', 'Häuser am See', 'Uferweg'), locale: 'de-DE' },
        { ...doc('en', 'Houses by the lake', 'shore path'), locale: 'en-GB' },
        { ...doc('ja', '湖畔の家', '道'), locale: 'ja' },
      ]);
      assert.deepEqual(results.map((result) => result.ok), [true, true, true]);
      await engine.refresh('stems');
      const found = async (field: string, text: string) =>
        (await client.search({ index: 'stems', query: { match: { [field]: text } } })).hits.hits.map((hit) => hit._id);
      assert.deepEqual(await found('stemmed_german.title', 'häuser'), ['de']);
      assert.deepEqual(await found('stemmed_english.body', 'shore'), ['en']);
      assert.deepEqual(await found('stemmed_german.body', 'shore'), []);
      assert.deepEqual(await found('title', 'houses'), ['en']);
      assert.deepEqual((await engine.search({ index: 'stems', text: 'houses', locales: ['en-GB'] })).documents.map((hit) => hit.id), ['en']);
    } finally {
      await client.close();
      await engine.close();
    }
  });
});

describe('elasticsearch engine: SEARCH_URL', () => {
  it('takes the credentials out of the node address when the URL carries them', () => {
    assert.deepEqual(elasticsearchOptionsFromUrl('https://elastic:s%40cret@es.example:9243/'), {
      node: 'https://es.example:9243',
      auth: { username: 'elastic', password: 's@cret' },
    });
    assert.deepEqual(elasticsearchOptionsFromUrl('http://localhost:9200'), { node: 'http://localhost:9200' });
  });

  it('refuses a URL that is not http(s) without echoing it when it is malformed', () => {
    assert.throws(() => elasticsearchOptionsFromUrl('ftp://u:p@host:21'), hasCode('SEARCH_URL_INVALID'));
    assert.throws(() => elasticsearchOptionsFromUrl('http://u:hunter2@'), (error: unknown) => {
      assert.ok(isAppError(error));
      assert.ok(!error.message.includes('hunter2'));
      return true;
    });
  });

  it('selects the Elasticsearch engine when SEARCH_URL is http(s)', async () => {
    const engine = createEngine('http://user:password@127.0.0.1:9');
    assert.ok(engine instanceof ElasticsearchEngine);
    await engine.close();
  });
});
