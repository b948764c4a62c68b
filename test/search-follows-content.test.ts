import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../src/log.js';
import { ContentStore, openOriginDatabase, SearchOutbox } from '../src/origin/index.js';
import { ElasticsearchEngine } from '../src/search/engines/elasticsearch/engine.js';
import { createLiveUpdater } from '../src/search/index.js';
import { FakeElasticsearch } from '../src/search/test-support/fake-elasticsearch.js';
import { eventually } from './support/stack.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const post = (title: string, words: string) => ({ title, summary: 'S', body: `<p>${words}</p>`, pub_date: '2026-11-20', categories: ['Web'] });

/** The origin's content store and search outbox writing through the Elasticsearch engine, on the local stand-in. */
async function originWithElasticsearch() {
  const dir = mkdtempSync(join(tmpdir(), 'sitestack-search-follows-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const db = openOriginDatabase(join(dir, 'origin.sqlite'), { seed: false });
  cleanups.push(() => {
    db.close();
  });
  const cluster = new FakeElasticsearch();
  const engine = new ElasticsearchEngine({ node: 'http://fake-es:9200', Connection: cluster.Connection });
  cleanups.push(() => engine.close());
  await engine.createIndex('site_docs_1');
  await engine.updateAliases([{ add: { index: 'site_docs_1', alias: 'site_docs' } }]);
  const store = new ContentStore(db);
  const update = createLiveUpdater({ engine, prefix: 'site_docs' });
  const outbox = new SearchOutbox({
    db,
    logger: silentLogger(),
    readPost: (oid) => store.getPost(oid)?.post,
    apply: async (changes) => {
      await update(changes);
    },
    backoff: { baseMs: 20, maxMs: 100 },
  });
  cleanups.push(() => outbox.stop());
  outbox.start();
  const titles = async (text: string) => (await engine.search({ index: 'site_docs', text })).documents.map((hit) => hit.title);
  return { db, store, outbox, cluster, titles };
}

describe('search follows content on Elasticsearch', () => {
  it('indexes, re-indexes and removes posts as the origin changes them', async () => {
    const { store, outbox, titles } = await originWithElasticsearch();
    store.putPost('heron', post('Heron logbook', 'Mudflat'));
    outbox.notify();
    await eventually('created post found', async () => (await titles('heron')).length === 1, 3_000);
    store.putPost('heron', post('Egret logbook', 'Estuary'));
    outbox.notify();
    await eventually('edited post found by its new words only', async () => (await titles('egret')).length === 1 && (await titles('heron')).length === 0, 3_000);
    store.deletePost('heron');
    outbox.notify();
    await eventually('deleted post gone', async () => (await titles('egret')).length === 0, 3_000);
  });

  it('keeps the jobs while the cluster cannot be reached and applies the newest state when it is back', async () => {
    const { db, store, outbox, cluster, titles } = await originWithElasticsearch();
    cluster.failNext(40, 'connection');
    store.putPost('okapi', post('Okapi register', 'Gannet'));
    store.putPost('okapi', post('Tapir register', 'Heron'));
    store.putPost('ibex', post('Ibex ledger', 'Sorrel'));
    store.deletePost('ibex');
    outbox.notify();
    await eventually('a failed attempt recorded', async () => ((db.prepare('SELECT max(attempts) FROM search_jobs').pluck().get() as number | null) ?? 0) >= 1, 5_000);
    assert.ok(outbox.pendingJobs() > 0, 'the jobs wait');
    await eventually('applied once the cluster answers', async () => outbox.pendingJobs() === 0, 10_000);
    assert.deepEqual(await titles('tapir'), ['Tapir register']);
    assert.deepEqual(await titles('okapi'), []);
    assert.deepEqual(await titles('ibex'), []);
  });
});
