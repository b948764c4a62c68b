import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { Client, type BaseConnection } from '@elastic/elasticsearch';
import { isAppError } from '../../../errors.js';
import { silentLogger } from '../../../log.js';
import { createApiApp } from '../../../server/api.js';
import { searchRoutes } from '../../api/routes.js';
import { runIndexer } from '../../indexing/indexer.js';
import { writePages } from '../../test-support/build-files.js';
import { FakeElasticsearch } from '../../test-support/fake-elasticsearch.js';
import { engineContractTests } from '../../test-support/contract/contract.js';
import { ElasticsearchEngine, elasticsearchOptionsFromUrl, type ElasticsearchEngineOptions } from './engine.js';
import { createEngine } from '../factory.js';
import type { IndexedDocument } from '../types.js';

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

const doc = (id: string, title: string, body = ''): IndexedDocument => ({
  id,
  url: `/${id}`,
  title,
  body,
  summary: '',
  popularity: 0,
  locale: 'en-US',
  slug: id,
});

const hasCode = (code: string, status?: number) => (error: unknown) => {
  assert.ok(isAppError(error), `expected an AppError ${code}, got ${String(error)}`);
  assert.equal(error.code, code);
  if (status !== undefined) assert.equal(error.status, status);
  return true;
};

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

  it('is answered by the search API as 503 JSON SEARCH_UNAVAILABLE, never a 500, and searches again once the cluster is back', async () => {
    const cluster = new FakeElasticsearch();
    const engine = make(cluster);
    await engine.createIndex('site_docs_1');
    await engine.bulk('site_docs_1', [doc('a', 'Alpha page')]);
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
