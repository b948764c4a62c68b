import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '../log.js';
import { PurgeOutbox, type PurgeOutboxOptions, type PurgeStream } from './outbox.js';
import { ContentStore } from './store.js';
import { waitFor } from '../test-support/wait-for.js';
import { tempOriginDatabase } from './test-support/temp-database.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const post = { title: 'T', body: '<p>b</p>', summary: '', categories: [], pub_date: '2026-01-01T00:00:00.000Z' };

/** A stream route whose deliveries the test settles: each call waits on the next outcome it is given. */
function scriptedStream(): { stream: PurgeStream; batches: { pathnames: string[]; keys: string[] }[]; outcomes: (() => Promise<string[]>)[] } {
  const batches: { pathnames: string[]; keys: string[] }[] = [];
  const outcomes: (() => Promise<string[]>)[] = [];
  return {
    batches,
    outcomes,
    stream: {
      route: 'redis-stream:{test}:purges',
      async deliver(batch, signal) {
        batches.push(batch);
        const next = outcomes.shift();
        if (next === undefined) return [];
        // Like the real stream's wait, a stop of the outbox ends it.
        return Promise.race([next(), new Promise<string[]>((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true }))]);
      },
    },
  };
}

async function frontRoute(): Promise<{ url: string; received: number }> {
  const state = { url: '', received: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.received++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"purged":[]}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/__purge__`;
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return state;
}

function outbox(options: Omit<PurgeOutboxOptions, 'logger' | 'secret'>): PurgeOutbox {
  const worker = new PurgeOutbox({ secret: 's3cret', logger: silentLogger(), backoff: { baseMs: 20, maxMs: 100 }, ...options });
  cleanups.push(() => worker.stop());
  return worker;
}

describe('PurgeOutbox with a stream route', () => {
  it('refreshes the edge only once both the fronts and the stream confirmed a job when both routes are set', async () => {
    const { db } = tempOriginDatabase(cleanups, 'sitestack-outbox-stream-');
    const front = await frontRoute();
    const scripted = scriptedStream();
    let release: () => void = () => undefined;
    scripted.outcomes.push(() => new Promise<string[]>((resolve) => (release = () => resolve(['/about']))));
    const cdnCalls: string[][] = [];
    const worker = outbox({ db, routes: [front.url], stream: scripted.stream, cdnPurge: async (urls) => (cdnCalls.push(urls), []) });
    worker.start();
    new ContentStore(db).putPost('hello', post);
    worker.notify();
    await waitFor('the front and the stream get the job', () => front.received === 1 && scripted.batches.length === 1);
    assert.deepEqual(scripted.batches[0], { pathnames: ['/plog/hello', '/', '/plog', '/feed.xml', '/sitemap.xml'], keys: ['post:hello', 'listing:home', 'listing:archive', 'listing:feed', 'listing:sitemap'] });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(cdnCalls, [], 'no edge refresh while the stream has not confirmed');
    assert.equal(worker.pendingJobs(), 1);
    release();
    await waitFor('the job is done and the edge refreshed', () => worker.pendingJobs() === 0 && worker.pendingCdnUrls() === 0);
    assert.deepEqual(cdnCalls.flat().sort(), ['/', '/about', '/feed.xml', '/plog', '/plog/hello', '/sitemap.xml'], 'the pathnames and the URL of the key the fronts reported');
  });

  it('keeps a job and retries it with backoff when the stream does not take it', async () => {
    const { db } = tempOriginDatabase(cleanups, 'sitestack-outbox-stream-');
    const scripted = scriptedStream();
    scripted.outcomes.push(() => Promise.reject(new Error('Connection is closed.')), () => Promise.reject(new Error('Command timed out')));
    const failures: string[] = [];
    const worker = outbox({ db, routes: [], stream: scripted.stream, metrics: { deliveryFailed: (route) => failures.push(route), edgePurgeFailed: () => undefined } });
    worker.start();
    new ContentStore(db).putPost('kept', post);
    worker.notify();
    await waitFor('the third attempt is taken', () => worker.pendingJobs() === 0);
    assert.equal(scripted.batches.length, 3);
    assert.deepEqual(failures, [scripted.stream.route, scripted.stream.route]);
  });

  it('sends what waits for the stream at once when retryRouteNow is called, whatever the backoff', async () => {
    const { db } = tempOriginDatabase(cleanups, 'sitestack-outbox-stream-');
    const scripted = scriptedStream();
    scripted.outcomes.push(() => Promise.reject(new Error('ECONNREFUSED')));
    const worker = outbox({ db, routes: [], stream: scripted.stream, backoff: { baseMs: 600_000, maxMs: 600_000 } });
    worker.start();
    new ContentStore(db).putPost('waiting', post);
    worker.notify();
    await waitFor('the first attempt failed', () => scripted.batches.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(worker.pendingJobs(), 1);
    worker.retryRouteNow(scripted.stream.route);
    await waitFor('the job is delivered', () => worker.pendingJobs() === 0, 1_000);
    assert.equal(scripted.batches.length, 2);
  });

  it('warms no address for the stream route, which names no front', async () => {
    const { db } = tempOriginDatabase(cleanups, 'sitestack-outbox-stream-');
    const scripted = scriptedStream();
    const fetched: string[] = [];
    const worker = outbox({
      db,
      routes: [],
      stream: scripted.stream,
      fetch: async (url) => {
        fetched.push(String(url));
        return new Response('{}');
      },
    });
    worker.start();
    new ContentStore(db).putPost('warm', { ...post, pub_date: new Date(Date.now() - 1_000).toISOString() });
    worker.notify();
    await waitFor('the job is delivered', () => worker.pendingJobs() === 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(fetched, []);
  });
});
