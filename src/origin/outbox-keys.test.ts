import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '../log.js';
import type { OriginDatabase } from './database.js';
import { PurgeOutbox, type CdnPurge } from './outbox.js';
import { ContentStore } from './store.js';
import { tempOriginDatabase } from './test-support/temp-database.js';
import { waitFor } from '../test-support/wait-for.js';

/** What a front was sent, as parsed from the body. */
interface PurgeBody {
  pathnames: string[];
  keys?: string[];
}

/**
 * A front's purge route as the outbox meets it: records each body and answers what `answer` makes of it (by default
 * `{ purged: [] }`), with `status`, after `delayMs`.
 */
interface Front {
  url: string;
  received: PurgeBody[];
  status: (body: PurgeBody) => number;
  answer: (body: PurgeBody) => string;
  delayMs: (body: PurgeBody) => number;
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function front(): Promise<Front> {
  const state: Front = { url: '', received: [], status: () => 200, answer: () => '{"purged":[]}', delayMs: () => 0 };
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as PurgeBody;
      const status = state.status(body);
      if (status === 200) state.received.push(body);
      const answer = state.answer(body);
      setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end(answer), state.delayMs(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/__purge__`;
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return state;
}

/** The edge step, recording each call. */
function cdn(): { purge: CdnPurge; calls: string[][]; refreshed: () => string[] } {
  const calls: string[][] = [];
  return {
    calls,
    purge: async (urls) => {
      calls.push(urls);
      return [];
    },
    refreshed: () => [...new Set(calls.flat())].sort(),
  };
}

function outbox(db: OriginDatabase, routes: string[], cdnPurge?: CdnPurge): PurgeOutbox {
  const worker = new PurgeOutbox({ db, routes, secret: 's3cret', logger: silentLogger(), backoff: { baseMs: 20, maxMs: 60 }, ...(cdnPurge === undefined ? {} : { cdnPurge }) });
  cleanups.push(() => worker.stop());
  return worker;
}

const database = () => tempOriginDatabase(cleanups, 'sitestack-outbox-keys-');
const post = (categories: string[]) => ({ title: 'T', body: '<p>b</p>', summary: '', categories, pub_date: '2026-01-01T00:00:00.000Z' });
const settled = (worker: PurgeOutbox) => worker.pendingJobs() === 0 && worker.pendingCdnUrls() === 0;

describe('PurgeOutbox with surrogate keys', () => {
  it('sends every front the keys beside the pathnames when a change names both', async () => {
    const { db } = database();
    const [a, b] = [await front(), await front()];
    const worker = outbox(db, [a.url, b.url]);
    worker.start();
    new ContentStore(db).putPost('hello', post(['Web']));
    worker.notify();
    await waitFor('delivered', () => worker.pendingJobs() === 0);
    for (const route of [a, b]) {
      assert.deepEqual(route.received, [
        {
          pathnames: ['/plog/hello', '/', '/plog', '/feed.xml', '/sitemap.xml', '/plog/category/Web'],
          keys: ['post:hello', 'listing:home', 'listing:archive', 'listing:feed', 'listing:sitemap', 'category:Web'],
        },
      ]);
    }
  });

  it('sends the pathnames alone when a job from before keys names none', async () => {
    const { db } = database();
    db.prepare(`INSERT INTO purge_jobs (pathnames, created_at) VALUES (?, '2026-11-20')`).run(JSON.stringify(['/plog/old']));
    const route = await front();
    const worker = outbox(db, [route.url]);
    worker.start();
    await waitFor('delivered', () => worker.pendingJobs() === 0);
    assert.deepEqual(route.received, [{ pathnames: ['/plog/old'] }]);
  });

  it('refreshes at the edge the pathnames and every URL any front reported purging, each once, when every front confirmed', async () => {
    const { db } = database();
    const [a, b] = [await front(), await front()];
    a.answer = () => JSON.stringify({ purged: ['/plog/category/Web?ref=home', '/_render/data/b1/en-US/plog/category/Web.json', '/plog/hello'] });
    b.answer = () => JSON.stringify({ purged: ['/plog/category/Web?ref=home', '/plog/category/Web [dark|en]', '//evil.example/x', '/caf\u00e9', 42, '/a b'] });
    const edge = cdn();
    const worker = outbox(db, [a.url, b.url], edge.purge);
    worker.start();
    new ContentStore(db).putPost('hello', post(['Web']));
    worker.notify();
    await waitFor('settled', () => settled(worker) && edge.calls.length > 0);
    assert.deepEqual(edge.refreshed(), [
      '/',
      '/_render/data/b1/en-US/plog/category/Web.json',
      '/a',
      '/feed.xml',
      '/plog',
      '/plog/category/Web',
      '/plog/category/Web?ref=home',
      '/plog/hello',
      '/sitemap.xml',
    ]);
    assert.equal(edge.calls.flat().length, edge.refreshed().length, 'no URL refreshed twice');
    assert.equal(db.prepare('SELECT count(*) FROM purge_reports').pluck().get(), 0, 'reports are forgotten once handed on');
  });

  it('counts a front that answers without a purged list as delivered, and refreshes the pathnames alone', async () => {
    for (const answer of ['{}', 'OK', '{"purged":"all"}', '']) {
      const { db } = database();
      const route = await front();
      route.answer = () => answer;
      const edge = cdn();
      const worker = outbox(db, [route.url], edge.purge);
      worker.start();
      new ContentStore(db).putPost('hello', post([]));
      worker.notify();
      await waitFor(`settled after ${JSON.stringify(answer)}`, () => settled(worker) && edge.calls.length > 0);
      assert.deepEqual(edge.refreshed(), ['/', '/feed.xml', '/plog', '/plog/hello', '/sitemap.xml'], answer);
      await worker.stop();
    }
  });

  it('holds a reported URL back until every front has confirmed every job of the delivery that reported it', async () => {
    const { db } = database();
    const store = new ContentStore(db);
    const [a, b] = [await front(), await front()];
    store.putPost('one', post([]));
    store.putPost('two', post(['Two']));
    // b has confirmed one and waits out a backoff on two; a has seen neither, so one delivery brings it both.
    const [one, two] = db.prepare<[], number>('SELECT id FROM purge_jobs ORDER BY id').pluck().all();
    db.prepare(`INSERT INTO purge_deliveries (job_id, route, attempts, delivered) VALUES (?, ?, 1, 1)`).run(one, b.url);
    db.prepare(`INSERT INTO purge_deliveries (job_id, route, attempts, next_at) VALUES (?, ?, 1, ?)`).run(two, b.url, Date.now() + 400);
    a.answer = (body) => JSON.stringify({ purged: body.keys?.includes('post:two') === true ? ['/plog/category/Two?x=1'] : [] });
    const edge = cdn();
    const worker = outbox(db, [a.url, b.url], edge.purge);
    worker.start();
    await waitFor('one finished', () => edge.calls.flat().includes('/plog/one'));
    assert.deepEqual(a.received.map((body) => body.keys?.filter((key) => key.startsWith('post:'))), [['post:one', 'post:two']]);
    assert.equal(edge.calls.flat().includes('/plog/category/Two?x=1'), false, 'b has not purged two yet: a refresh could fetch its old copy');
    await waitFor('settled', () => settled(worker) && edge.calls.flat().includes('/plog/category/Two?x=1'));
    assert.equal(b.received.length, 1);
  });

  for (const { deliveryMs, refreshMs, when } of [
    { deliveryMs: 200, refreshMs: 0, when: 'the purge outlasts the refresh' },
    { deliveryMs: 30, refreshMs: 150, when: 'the purge ends during the refresh' },
  ]) {
    it(`refreshes a URL at the edge once more after a front purge that overlapped its refresh when ${when}`, async () => {
      const { db } = database();
      const store = new ContentStore(db);
      const route = await front();
      // The next change is committed while the first is delivered, and its delivery is slow: the edge step for the
      // first runs while the front purges for the second, so a render the refresh started may be one the purge outdated.
      route.answer = (body) => {
        if (!body.keys?.includes('post:one')) return '{"purged":[]}';
        store.putPost('two', post([]));
        return JSON.stringify({ purged: ['/plog/category/X?ref=1'] });
      };
      route.delayMs = (body) => (body.keys?.includes('post:two') === true ? deliveryMs : 0);
      const calls: string[][] = [];
      const slowCdn: CdnPurge = async (urls) => {
        calls.push(urls);
        await new Promise((resolve) => setTimeout(resolve, refreshMs));
        return [];
      };
      const worker = outbox(db, [route.url], slowCdn);
      worker.start();
      store.putPost('one', post([]));
      worker.notify();
      await waitFor('settled', () => settled(worker) && calls.flat().includes('/plog/two'));
      const refreshes = calls.filter((call) => call.includes('/plog/category/X?ref=1')).length;
      assert.equal(refreshes, 2, 'once for its change, once after the purge it overlapped, and no more');
    });
  }

  it('merges jobs into one delivery only while their keys stay within 1,000', async () => {
    const { db } = database();
    const job = db.prepare(`INSERT INTO purge_jobs (pathnames, keys, created_at) VALUES (?, ?, '2026-11-20')`);
    const keys = (from: number) => JSON.stringify(Array.from({ length: 600 }, (_, i) => `post:p${from + i}`));
    job.run(JSON.stringify(['/plog/a']), keys(0));
    job.run(JSON.stringify(['/plog/b']), keys(600));
    job.run(JSON.stringify(['/plog/c']), keys(800));
    const route = await front();
    const worker = outbox(db, [route.url]);
    worker.start();
    await waitFor('delivered', () => worker.pendingJobs() === 0);
    assert.deepEqual(route.received.map((body) => [body.pathnames, body.keys?.length]), [
      [['/plog/a'], 600],
      [['/plog/b', '/plog/c'], 800],
    ]);
  });
});
