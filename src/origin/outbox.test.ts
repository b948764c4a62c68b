import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { silentLogger, type Logger } from '../log.js';
import { openOriginDatabase } from './database.js';
import { PurgeOutbox, type CdnPurge, type PurgeOutboxOptions } from './outbox.js';
import { ContentStore } from './store.js';
import { waitFor } from '../test-support/wait-for.js';
import { tempOriginDatabase } from './test-support/temp-database.js';
import { PURGE_ANSWER_MAX_BYTES } from '../http/index.js';

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

const database = () => tempOriginDatabase(cleanups, 'sitestack-outbox-');

function outbox(options: Omit<PurgeOutboxOptions, 'logger' | 'secret'> & { secret?: string }): PurgeOutbox {
  const worker = new PurgeOutbox({ secret: 's3cret', logger: silentLogger(), backoff: { baseMs: 20, maxMs: 100 }, ...options });
  cleanups.push(() => worker.stop());
  return worker;
}

/** A logger whose lines are kept, to assert on what an operator would see. */
function recordingLogger(): { logger: Logger; lines: { level: number; msg: string; url?: string }[] } {
  const lines: { level: number; msg: string; url?: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString('utf8')) as { level: number; msg: string });
      callback();
    },
  });
  return { logger: pino({ level: 'debug' }, sink), lines };
}

/** A CDN that records every call and fails the URLs in `failing` (each as given) while they are in it. */
function fakeCdn(): { purge: CdnPurge; calls: string[][]; failing: Set<string> } {
  const calls: string[][] = [];
  const failing = new Set<string>();
  return {
    calls,
    failing,
    purge: async (urls) => {
      calls.push(urls);
      return urls.filter((url) => failing.has(url)).map((url) => ({ url, reason: 'answered 502' }));
    },
  };
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
    await waitFor('condition', () => worker.pendingJobs() === 0);
    for (const front of [a, b]) assert.deepEqual(front.received, [{ authorization: 'Bearer s3cret', pathnames: ['/plog/hello', '/', '/plog', '/feed.xml', '/sitemap.xml'] }]);
  });

  it('merges waiting jobs into one delivery with each pathname once', async () => {
    const { db } = database();
    const store = new ContentStore(db);
    store.putPost('one', post);
    store.putPost('two', post);
    const front = await receiver();
    const worker = outbox({ db, routes: [front.url] });
    worker.start();
    await waitFor('condition', () => worker.pendingJobs() === 0);
    assert.deepEqual(front.received.map((r) => r.pathnames), [['/plog/one', '/', '/plog', '/feed.xml', '/sitemap.xml', '/plog/two']]);
  });

  it('retries a failing route on its own while the healthy one is served at once', async () => {
    const { db } = database();
    const [healthy, failing] = [await receiver(), await receiver()];
    failing.status = 503;
    const worker = outbox({ db, routes: [healthy.url, failing.url] });
    worker.start();
    new ContentStore(db).putPost('hello', post);
    worker.notify();
    await waitFor('condition', () => healthy.received.length === 1);
    await waitFor('condition', () => (db.prepare(`SELECT attempts FROM purge_deliveries WHERE route = ?`).pluck().get(failing.url) as number | undefined ?? 0) >= 3);
    assert.equal(worker.pendingJobs(), 1);
    assert.equal(healthy.received.length, 1);
    failing.status = 200;
    await waitFor('condition', () => worker.pendingJobs() === 0);
    assert.deepEqual(failing.received.map((r) => r.pathnames), [['/plog/hello', '/', '/plog', '/feed.xml', '/sitemap.xml']]);
  });

  it('fails and retries a delivery whose answer runs past PURGE_ANSWER_MAX_BYTES, without reading the rest', async () => {
    const { db } = database();
    const sent: number[] = [];
    const chunk = Buffer.from(`"/${'a'.repeat(1020)}",`);
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"purged":[');
      let written = 0;
      const pour = () => {
        while (written < 4 * PURGE_ANSWER_MAX_BYTES && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pour);
        }
        sent.push(written);
        res.end('"/"]}');
      };
      res.once('close', () => sent.push(written));
      pour();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const route = `http://127.0.0.1:${(server.address() as AddressInfo).port}/__purge__`;
    const worker = outbox({ db, routes: [route] });
    worker.start();
    new ContentStore(db).putPost('hello', post);
    worker.notify();
    await waitFor('condition', () => typeof db.prepare(`SELECT last_error FROM purge_deliveries WHERE route = ?`).pluck().get(route) === 'string');
    assert.match(String(db.prepare(`SELECT last_error FROM purge_deliveries WHERE route = ?`).pluck().get(route)), new RegExp(`${PURGE_ANSWER_MAX_BYTES}`));
    assert.equal(worker.pendingJobs(), 1);
    await waitFor('condition', () => sent.length > 0);
    assert.ok((sent[0] ?? Infinity) < 2 * PURGE_ANSWER_MAX_BYTES, `the front got ${sent[0]} bytes out`);
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
    await waitFor('condition', () => (db.prepare(`SELECT attempts FROM purge_deliveries`).pluck().get() as number | undefined ?? 0) >= 1);
    await first.stop();
    db.close();

    const reopened = openOriginDatabase(file, { seed: false });
    cleanups.push(() => {
      reopened.close();
    });
    const back = await receiver(port);
    const second = outbox({ db: reopened, routes: [back.url] });
    second.start();
    await waitFor('condition', () => second.pendingJobs() === 0);
    assert.deepEqual(back.received.map((r) => r.pathnames), [['/plog/survivor', '/', '/plog', '/feed.xml', '/sitemap.xml']]);
  });

  it('purges the CDN only after every front confirmed, and retries every URL when the CDN purge rejects', async () => {
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
        return [];
      },
    });
    worker.start();
    new ContentStore(db).putPost('edge', post);
    worker.notify();
    await waitFor('condition', () => (db.prepare(`SELECT attempts FROM purge_deliveries`).pluck().get() as number | undefined ?? 0) >= 2);
    assert.deepEqual(cdnCalls, []);
    assert.equal(worker.pendingCdnUrls(), 0);
    front.status = 200;
    await waitFor('condition', () => worker.pendingJobs() === 0 && worker.pendingCdnUrls() === 0);
    assert.equal(front.received.length, 1);
    assert.equal(cdnCalls.length, 3);
    for (const call of cdnCalls) assert.deepEqual([...call].sort(), ['/', '/feed.xml', '/plog', '/plog/edge', '/sitemap.xml']);
  });

  it('refreshes each URL once when several confirmed jobs share it', async () => {
    const { db } = database();
    const store = new ContentStore(db);
    store.putPost('one', post);
    store.putPost('two', post);
    const cdn = fakeCdn();
    const worker = outbox({ db, routes: [(await receiver()).url], cdnPurge: cdn.purge });
    worker.start();
    await waitFor('condition', () => worker.pendingJobs() === 0 && worker.pendingCdnUrls() === 0);
    assert.deepEqual(cdn.calls.map((call) => [...call].sort()), [['/', '/feed.xml', '/plog', '/plog/one', '/plog/two', '/sitemap.xml']]);
  });

  it('retries only the URLs the CDN failed, not those it refreshed', async () => {
    const { db } = database();
    const cdn = fakeCdn();
    cdn.failing.add('/plog/edge');
    const worker = outbox({ db, routes: [(await receiver()).url], cdnPurge: cdn.purge });
    worker.start();
    new ContentStore(db).putPost('edge', post);
    worker.notify();
    await waitFor('condition', () => cdn.calls.length >= 3);
    assert.deepEqual([...(cdn.calls[0] ?? [])].sort(), ['/', '/feed.xml', '/plog', '/plog/edge', '/sitemap.xml']);
    assert.deepEqual(cdn.calls.slice(1), cdn.calls.slice(1).map(() => ['/plog/edge']));
    assert.equal(worker.pendingCdnUrls(), 1);
    const row = db.prepare(`SELECT attempts, last_error FROM cdn_purges WHERE url = '/plog/edge'`).get() as { attempts: number; last_error: string };
    assert.ok(row.attempts >= 2);
    assert.equal(row.last_error, 'answered 502');
    cdn.failing.clear();
    await waitFor('condition', () => worker.pendingCdnUrls() === 0);
  });

  it("retries a URL the edge got a front's stale copy for after the first backoff delay each time, when it stays stale", async () => {
    const { db } = database();
    const calls: string[][] = [];
    let staleAnswers = 5;
    const cdnPurge: CdnPurge = async (urls) => {
      calls.push(urls);
      if (!urls.includes('/plog/soft') || staleAnswers-- <= 0) return [];
      return [{ url: '/plog/soft', reason: "answered from the front's stale copy", stale: true }];
    };
    // Growing delays would take 40 + 80 + 160 + 320 + 640 ms before the sixth attempt; the first delay each time, 200.
    const worker = outbox({ db, routes: [(await receiver()).url], cdnPurge, backoff: { baseMs: 40, maxMs: 60_000 }, random: () => 0.999 });
    worker.start();
    new ContentStore(db).putPost('soft', post);
    worker.notify();
    await waitFor('the first refresh', () => calls.length > 0);
    const started = Date.now();
    await waitFor('the URL refreshed', () => worker.pendingCdnUrls() === 0, 3_000);
    assert.equal(calls.filter((call) => call.includes('/plog/soft')).length, 6);
    assert.ok(Date.now() - started < 1_000, `${Date.now() - started} ms for five retries`);
  });

  it('purges the URLs of later jobs while one URL keeps failing', async () => {
    const { db } = database();
    const cdn = fakeCdn();
    cdn.failing.add('/plog/broken');
    const store = new ContentStore(db);
    const worker = outbox({ db, routes: [(await receiver()).url], cdnPurge: cdn.purge });
    worker.start();
    store.putPost('broken', post);
    worker.notify();
    await waitFor('condition', () => cdn.calls.length >= 3);
    store.putPost('later', post);
    worker.notify();
    await waitFor('condition', () => cdn.calls.some((call) => call.includes('/plog/later')) && worker.pendingCdnUrls() === 1);
    assert.equal(worker.pendingJobs(), 0);
    assert.equal(cdn.calls.filter((call) => call.includes('/plog/later')).length, 1);
    assert.equal(db.prepare(`SELECT url FROM cdn_purges`).pluck().get(), '/plog/broken');
  });

  it('gives up a URL the CDN keeps failing after cdnGiveUpAfterMs, logging an error that names it', async () => {
    const { db } = database();
    const cdn = fakeCdn();
    cdn.failing.add('/plog/broken');
    const { logger, lines } = recordingLogger();
    const worker = new PurgeOutbox({
      db,
      routes: [(await receiver()).url],
      secret: 's3cret',
      logger,
      backoff: { baseMs: 20, maxMs: 50 },
      cdnPurge: cdn.purge,
      cdnGiveUpAfterMs: 300,
    });
    cleanups.push(() => worker.stop());
    worker.start();
    new ContentStore(db).putPost('broken', post);
    worker.notify();
    await waitFor('condition', () => cdn.calls.length > 0 && worker.pendingJobs() === 0 && worker.pendingCdnUrls() === 0);
    const attempts = cdn.calls.filter((call) => call.includes('/plog/broken')).length;
    assert.ok(attempts >= 3, `${attempts} attempts`);
    const errors = lines.filter((line) => line.level === 50);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]?.url, '/plog/broken');
    assert.match(errors[0]?.msg ?? '', /CDN purge given up/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(cdn.calls.filter((call) => call.includes('/plog/broken')).length, attempts, 'no attempt after giving up');
  });

  it('tries a URL again at once, with its give-up clock restarted, when a newer change queues it during its backoff', async () => {
    const { db } = database();
    const cdn = fakeCdn();
    cdn.failing.add('/plog/edited');
    const store = new ContentStore(db);
    const worker = outbox({ db, routes: [(await receiver()).url], cdnPurge: cdn.purge, backoff: { baseMs: 60_000, maxMs: 60_000 } });
    const attemptsOnEdited = () => cdn.calls.filter((call) => call.includes('/plog/edited')).length;
    const row = () => db.prepare(`SELECT queued_at AS queuedAt, attempts FROM cdn_purges WHERE url = '/plog/edited'`).get() as { queuedAt: number; attempts: number };
    worker.start();
    store.putPost('edited', post);
    worker.notify();
    await waitFor('condition', () => attemptsOnEdited() === 1 && worker.pendingJobs() === 0);
    const first = row();
    await new Promise((resolve) => setTimeout(resolve, 20));
    store.putPost('edited', { ...post, title: 'Edited' });
    worker.notify();
    await waitFor('condition', () => attemptsOnEdited() === 2, 2_000);
    const second = row();
    assert.ok(second.queuedAt > first.queuedAt, 'the give-up clock starts again');
    assert.equal(second.attempts, 1, 'the attempts count starts again');
  });

  it('keeps the edge purges waiting across a restart, and logs when no CDN is configured to take them', async () => {
    const { db } = database();
    const cdn = fakeCdn();
    cdn.failing.add('/plog/edge');
    const route = (await receiver()).url;
    const first = outbox({ db, routes: [route], cdnPurge: cdn.purge });
    first.start();
    new ContentStore(db).putPost('edge', post);
    first.notify();
    await waitFor('condition', () => cdn.calls.length >= 1 && first.pendingCdnUrls() === 1);
    await first.stop();

    const { logger, lines } = recordingLogger();
    const withoutCdn = new PurgeOutbox({ db, routes: [route], secret: 's3cret', logger });
    withoutCdn.start();
    await withoutCdn.stop();
    assert.equal(withoutCdn.pendingCdnUrls(), 1);
    assert.ok(lines.some((line) => line.level === 40 && /wait for CDN_BASE_URL/.test(line.msg)));

    cdn.failing.clear();
    const second = outbox({ db, routes: [route], cdnPurge: cdn.purge });
    second.start();
    await waitFor('condition', () => second.pendingCdnUrls() === 0);
    assert.deepEqual(cdn.calls.at(-1), ['/plog/edge']);
  });
});
