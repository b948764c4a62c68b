import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { isAppError } from '../../../errors.js';
import { runIndexer } from '../../indexing/indexer.js';
import { writePages } from '../../test-support/build-files.js';
import { FakeElasticsearch } from '../../test-support/fake-elasticsearch.js';
import { ElasticsearchEngine, elasticsearchOptionsFromUrl, type ElasticsearchEngineOptions } from './engine.js';
import { doc, hasCode } from '../../test-support/engine-fixtures.js';

describe('elasticsearch engine: cluster failures', () => {
  const engines: ElasticsearchEngine[] = [];
  const servers: Server[] = [];
  const make = (faults: FakeElasticsearch, options: Partial<ElasticsearchEngineOptions> = {}) => {
    const engine = new ElasticsearchEngine({ node: 'http://fake-es:9200', Connection: faults.Connection, backoffMs: 5, maxBackoffMs: 20, ...options });
    engines.push(engine);
    return engine;
  };
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close();
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  async function listen(handler: (request: IncomingMessage) => void): Promise<string> {
    const server = createServer((request) => handler(request));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('sends bulk items rejected with 429 again until they are stored', async () => {
    const cluster = new FakeElasticsearch();
    const engine = make(cluster);
    await engine.createIndex('retry_items');
    cluster.rejectBulkItems(2);
    const results = await engine.bulk('retry_items', [doc('a', 'Alpha'), doc('b', 'Beta'), doc('c', 'Gamma')]);
    assert.deepEqual(results, [{ id: 'a', ok: true }, { id: 'b', ok: true }, { id: 'c', ok: true }]);
    assert.equal(cluster.requests.filter((line) => line.endsWith('/_bulk')).length, 2);
    await engine.refresh('retry_items');
    assert.equal(await engine.count({ index: 'retry_items', text: 'alpha' }), 1);
  });

  it('reports a 429 item as failed when it is still rejected after every retry', async () => {
    const cluster = new FakeElasticsearch();
    const engine = make(cluster, { writeRetries: 2 });
    await engine.createIndex('retry_exhausted');
    cluster.rejectBulkItems(100);
    const [result] = await engine.bulk('retry_exhausted', [doc('a', 'Alpha')]);
    assert.equal(result?.ok, false);
    assert.equal(result?.error?.type, 'es_rejected_execution_exception');
    assert.equal(cluster.requests.filter((line) => line.endsWith('/_bulk')).length, 3);
  });

  it('sends deletions rejected with 429 again, and answers SEARCH_ENGINE_ERROR when one stays rejected', async () => {
    const cluster = new FakeElasticsearch();
    const engine = make(cluster, { writeRetries: 2 });
    await engine.createIndex('retry_deletes');
    await engine.bulk('retry_deletes', [doc('a', 'Alpha'), doc('b', 'Beta')]);
    cluster.rejectBulkItems(1);
    assert.deepEqual(await engine.deleteDocuments('retry_deletes', ['a', 'zzz']), [{ id: 'a', deleted: true }, { id: 'zzz', deleted: false }]);
    assert.equal(cluster.requests.filter((line) => line.endsWith('/_bulk')).length, 3);
    cluster.rejectBulkItems(100);
    await assert.rejects(engine.deleteDocuments('retry_deletes', ['b']), hasCode('SEARCH_ENGINE_ERROR', 502));
    assert.deepEqual(await engine.deleteDocuments('retry_deletes', ['', 'x'.repeat(600)]), [{ id: '', deleted: false }, { id: 'x'.repeat(600), deleted: false }]);
    cluster.rejectBulkItems(0);
    await engine.refresh('retry_deletes');
    assert.deepEqual((await engine.search({ index: 'retry_deletes', text: 'beta' })).documents.map((hit) => hit.id), ['b']);
  });

  it('retries a whole bulk request when the cluster answers 429, a connection error or a timeout', async () => {
    const cluster = new FakeElasticsearch();
    const engine = make(cluster);
    await engine.createIndex('retry_request');
    cluster.failNext(1, { status: 429 }, /_bulk/);
    cluster.failNext(1, 'connection', /_bulk/);
    cluster.failNext(1, 'timeout', /_bulk/);
    const results = await engine.bulk('retry_request', [doc('a', 'Alpha')]);
    assert.deepEqual(results, [{ id: 'a', ok: true }]);
    assert.equal(cluster.requests.filter((line) => line.endsWith('/_bulk')).length, 4);
  });

  it('answers SEARCH_UNAVAILABLE (503) when the cluster keeps failing a search', async () => {
    const cluster = new FakeElasticsearch();
    const engine = make(cluster);
    await engine.createIndex('down');
    for (const fault of ['connection', 'timeout', { status: 429 }, { status: 503 }] as const) {
      cluster.failNext(2, fault, /_search/);
      await assert.rejects(engine.search({ index: 'down', text: 'alpha' }), hasCode('SEARCH_UNAVAILABLE', 503));
    }
    // A count that may be widened by typo results is a search of no hits (see ElasticsearchEngine.count).
    cluster.failNext(2, 'connection', /_search/);
    await assert.rejects(engine.count({ index: 'down', text: 'alpha' }), hasCode('SEARCH_UNAVAILABLE', 503));
    cluster.failNext(2, 'timeout', /_search/);
    await assert.rejects(engine.autocomplete({ index: 'down', prefix: 'al' }), hasCode('SEARCH_UNAVAILABLE', 503));
    cluster.failNext(1, 'connection', /_search/);
    assert.deepEqual((await engine.search({ index: 'down', text: 'alpha' })).total, { value: 0, relation: 'eq' }, 'one failure is retried');
  });

  it('answers SEARCH_UNAVAILABLE within the read timeout when the cluster accepts the connection and never answers', async () => {
    const url = await listen(() => undefined);
    const engine = new ElasticsearchEngine({ node: url, readTimeoutMs: 150, readRetries: 1, backoffMs: 5 });
    engines.push(engine);
    const started = performance.now();
    await assert.rejects(engine.search({ index: 'site_docs', text: 'alpha' }), hasCode('SEARCH_UNAVAILABLE', 503));
    assert.ok(performance.now() - started < 5_000);
  });

  it('answers SEARCH_UNAVAILABLE without the credentials when nothing listens at the address', async () => {
    const url = await listen(() => undefined);
    const { port } = new URL(url);
    const server = servers.pop() as Server;
    await new Promise((resolve) => server.close(resolve));
    const engine = new ElasticsearchEngine({ ...elasticsearchOptionsFromUrl(`http://elastic:hunter2@127.0.0.1:${port}`), readRetries: 0 });
    engines.push(engine);
    const error = await engine.search({ index: 'site_docs', text: 'alpha' }).catch((caught: unknown) => caught);
    assert.ok(isAppError(error) && error.code === 'SEARCH_UNAVAILABLE');
    assert.ok(!JSON.stringify({ message: error.message, cause: String(error.cause) }).includes('hunter2'));
  });

  it('sends the credentials as basic auth and maps a refused login to SEARCH_UNAVAILABLE', async () => {
    let authorization: string | undefined;
    const url = await listen(() => undefined);
    const server = servers[0] as Server;
    server.removeAllListeners('request');
    server.on('request', (request: IncomingMessage, response) => {
      authorization = request.headers.authorization;
      response.writeHead(401, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' });
      response.end(JSON.stringify({ error: { type: 'security_exception', reason: 'unable to authenticate' }, status: 401 }));
    });
    const engine = new ElasticsearchEngine({ ...elasticsearchOptionsFromUrl(url.replace('//', '//elastic:s3cret@')), readRetries: 0 });
    engines.push(engine);
    await assert.rejects(engine.health(), (error: unknown) => isAppError(error) && error.status >= 500);
    assert.equal(authorization, `Basic ${Buffer.from('elastic:s3cret').toString('base64')}`);
  });

  it('completes an indexing run through connection errors, 429s and timeouts, and refuses a red cluster', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sitestack-es-run-'));
    after(() => rmSync(root, { recursive: true, force: true }));
    writePages(root, Array.from({ length: 30 }, (_, i) => ({ folder: `en-us/docs/page${i}`, title: `Puffin ${i}`, body: `puffin colony ${i}` })));
    const cluster = new FakeElasticsearch();
    const engine = make(cluster);
    cluster.failNext(1, 'connection', /_bulk/);
    cluster.failNext(1, { status: 429 }, /_bulk/);
    cluster.failNext(1, 'timeout', /_aliases/);
    cluster.rejectBulkItems(5);
    const report = await runIndexer({ engine, root, prefix: 'docs', chunkSize: 10 });
    assert.equal(report.ok, true);
    assert.equal(report.documents, 30);
    assert.equal(report.aliasLive, true);
    assert.equal(await engine.count({ index: 'docs', text: 'puffin' }), 30);
    cluster.setHealth('red');
    await assert.rejects(runIndexer({ engine, root, prefix: 'docs' }), hasCode('SEARCH_UNHEALTHY'));
  });

  it('never creates an index by writing to a missing one or to an alias', async () => {
    const cluster = new FakeElasticsearch();
    const engine = make(cluster);
    await engine.createIndex('real');
    await engine.updateAliases([{ add: { index: 'real', alias: 'pointer' } }]);
    await assert.rejects(engine.bulk('pointer', [doc('a', 'A')]), hasCode('INDEX_NOT_FOUND'));
    await assert.rejects(engine.bulk('absent', [doc('a', 'A')]), hasCode('INDEX_NOT_FOUND'));
    await assert.rejects(engine.deleteIndex('re*'), hasCode('INDEX_NOT_FOUND'));
    await assert.rejects(engine.deleteIndex('pointer'));
    assert.deepEqual((await engine.listIndices('')).map((info) => info.name), ['real']);
  });
});
