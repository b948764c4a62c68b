import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../log.js';
import { openOriginDatabase, type OriginDatabase } from './database.js';
import { PurgeOutbox, type PurgeOutboxOptions } from './outbox.js';
import { ContentStore } from './store.js';

interface Receiver {
  url: string;
  received: { authorization: string | undefined; pathnames: string[] }[];
  status: number;
  close(): Promise<void>;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(port = 0): Promise<Receiver> {
  const state: Receiver = { url: '', received: [], status: 200, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (state.status === 200) state.received.push({ authorization: req.headers.authorization, pathnames: (JSON.parse(body) as { pathnames: string[] }).pathnames });
      res.writeHead(state.status, { 'content-type': 'application/json' }).end('{"purged":[]}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/__purge__`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  cleanups.push(() => state.close());
  return state;
}

function database(): { db: OriginDatabase; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sitestack-outbox-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'origin.sqlite');
  const db = openOriginDatabase(file, { seed: false });
  cleanups.push(() => {
    db.close();
  });
  return { db, file };
}

function outbox(options: Omit<PurgeOutboxOptions, 'logger' | 'secret'> & { secret?: string }): PurgeOutbox {
  const worker = new PurgeOutbox({ secret: 's3cret', logger: silentLogger(), backoff: { baseMs: 20, maxMs: 100 }, ...options });
  cleanups.push(() => worker.stop());
  return worker;
}

async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const post = { title: 'T', body: '<p>b</p>', summary: '', categories: [], pub_date: '2026-01-01T00:00:00.000Z' };

describe('PurgeOutbox', () => {
  it('delivers a job to every route with the bearer secret, then forgets it', async () => {
    const { db } = database();
    const [a, b] = [await receiver(), await receiver()];
    const worker = outbox({ db, routes: [a.url, b.url] });
    worker.start();
    new ContentStore(db).putPost('hello', post);
    worker.notify();
    await waitFor(() => worker.pendingJobs() === 0);
    for (const front of [a, b]) assert.deepEqual(front.received, [{ authorization: 'Bearer s3cret', pathnames: ['/plog/hello', '/', '/plog'] }]);
  });

  it('merges waiting jobs into one delivery with each pathname once', async () => {
    const { db } = database();
    const store = new ContentStore(db);
    store.putPost('one', post);
    store.putPost('two', post);
    const front = await receiver();
    const worker = outbox({ db, routes: [front.url] });
    worker.start();
    await waitFor(() => worker.pendingJobs() === 0);
    assert.deepEqual(front.received.map((r) => r.pathnames), [['/plog/one', '/', '/plog', '/plog/two']]);
  });

  it('retries a failing route on its own while the healthy one is served at once', async () => {
    const { db } = database();
    const [healthy, failing] = [await receiver(), await receiver()];
    failing.status = 503;
    const worker = outbox({ db, routes: [healthy.url, failing.url] });
    worker.start();
    new ContentStore(db).putPost('hello', post);
    worker.notify();
    await waitFor(() => healthy.received.length === 1);
    await waitFor(() => (db.prepare(`SELECT attempts FROM purge_deliveries WHERE route = ?`).pluck().get(failing.url) as number | undefined ?? 0) >= 3);
    assert.equal(worker.pendingJobs(), 1);
    assert.equal(healthy.received.length, 1);
    failing.status = 200;
    await waitFor(() => worker.pendingJobs() === 0);
    assert.deepEqual(failing.received.map((r) => r.pathnames), [['/plog/hello', '/', '/plog']]);
  });

  it('delivers after a restart what an earlier run could not', async () => {
    const { db, file } = database();
    const down = await receiver();
    const url = down.url;
    const port = Number(new URL(url).port);
    await down.close();
    const first = outbox({ db, routes: [url] });
    first.start();
    new ContentStore(db).putPost('survivor', post);
    first.notify();
    await waitFor(() => (db.prepare(`SELECT attempts FROM purge_deliveries`).pluck().get() as number | undefined ?? 0) >= 1);
    await first.stop();
    db.close();

    const reopened = openOriginDatabase(file, { seed: false });
    cleanups.push(() => {
      reopened.close();
    });
    const back = await receiver(port);
    const second = outbox({ db: reopened, routes: [back.url] });
    second.start();
    await waitFor(() => second.pendingJobs() === 0);
    assert.deepEqual(back.received.map((r) => r.pathnames), [['/plog/survivor', '/', '/plog']]);
  });

  it('purges the CDN only after every front confirmed, and retries the CDN on failure', async () => {
    const { db } = database();
    const front = await receiver();
    front.status = 500;
    const cdnCalls: string[][] = [];
    let cdnFails = 2;
    const worker = outbox({
      db,
      routes: [front.url],
      cdnPurge: async (urls) => {
        cdnCalls.push(urls);
        if (cdnFails-- > 0) throw new Error('edge down');
      },
    });
    worker.start();
    new ContentStore(db).putPost('edge', post);
    worker.notify();
    await waitFor(() => (db.prepare(`SELECT attempts FROM purge_deliveries`).pluck().get() as number | undefined ?? 0) >= 2);
    assert.deepEqual(cdnCalls, []);
    front.status = 200;
    await waitFor(() => worker.pendingJobs() === 0);
    assert.equal(front.received.length, 1);
    assert.equal(cdnCalls.length, 3);
    assert.deepEqual(cdnCalls[2], ['/plog/edge', '/', '/plog']);
  });
});
