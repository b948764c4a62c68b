import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createApiApp } from '../../http/index.js';
import { silentLogger } from '../../log.js';
import { ElasticsearchEngine } from '../engines/elasticsearch/engine.js';
import { FakeElasticsearch } from '../test-support/fake-elasticsearch.js';
import { searchRoutes } from './routes.js';

describe('search API over a failing elasticsearch cluster', () => {
  const cluster = new FakeElasticsearch();
  const engine = new ElasticsearchEngine({ node: 'http://fake-es:9200', Connection: cluster.Connection, backoffMs: 5, maxBackoffMs: 20 });
  after(() => engine.close());

  it('is answered by the search API as 503 JSON SEARCH_UNAVAILABLE, never a 500, and searches again once the cluster is back', async () => {
    await engine.createIndex('site_docs_1');
    await engine.bulk('site_docs_1', [{ id: 'a', url: '/a', title: 'Alpha page', body: '', summary: '', popularity: 0, locale: 'en-US', slug: 'a' }]);
    await engine.refresh('site_docs_1');
    await engine.updateAliases([{ add: { index: 'site_docs_1', alias: 'site_docs' } }]);
    const app = await createApiApp({ logger: silentLogger(), plugins: [searchRoutes({ engine, logger: silentLogger(), rateLimit: { max: 1000, windowMs: 60_000 } })] });
    try {
      for (const fault of ['timeout', 'connection', { status: 429 }] as const) {
        cluster.failNext(2, fault, /_search|_count/);
        const response = await app.inject({ method: 'GET', url: '/api/v1/search?q=alpha' });
        assert.equal(response.statusCode, 503, JSON.stringify(fault));
        assert.equal(response.json().code, 'SEARCH_UNAVAILABLE');
        assert.equal(response.headers['cache-control'], undefined, 'an error is not cacheable');
      }
      cluster.failNext(2, 'timeout', /_search/);
      assert.equal((await app.inject({ method: 'GET', url: '/api/search/autocomplete?q=al' })).statusCode, 503);
      const answer = await app.inject({ method: 'GET', url: '/api/v1/search?q=alpha' });
      assert.equal(answer.statusCode, 200);
      assert.deepEqual(answer.json().documents.map((hit: { url: string }) => hit.url), ['/a']);
    } finally {
      await app.close();
    }
  });
});
