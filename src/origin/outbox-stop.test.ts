import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { silentLogger } from '../log.js';
import { openOriginDatabase, type OriginDatabase } from './database.js';
import { PurgeOutbox } from './outbox.js';
import { ContentStore } from './store.js';
import { waitFor } from '../test-support/wait-for.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A purge route that answers after `delays[i]` ms for its i-th request (the last delay for the rest). */
async function slowRoute(delays: number[]): Promise<{ url: string; requests: number; arrived(): Promise<void> }> {
  let waiting: (() => void) | undefined;
  const state = { url: '', requests: 0, arrived: () => new Promise<void>((resolve) => (waiting = resolve)) };
  const server = createServer((req, res) => {
    const delay = delays[state.requests] ?? delays.at(-1) ?? 0;
    state.requests++;
    waiting?.();
    req.resume();
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"purged":[]}'), delay);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/__purge__`;
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return state;
}

function database(): OriginDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'sitestack-outbox-stop-'));
  const db = openOriginDatabase(join(dir, 'origin.sqlite'), { seed: false });
  cleanups.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return db;
}

function outbox(db: OriginDatabase, route: string): PurgeOutbox {
  const worker = new PurgeOutbox({ db, routes: [route], secret: 's3cret', logger: silentLogger(), backoff: { baseMs: 20, maxMs: 100 } });
  cleanups.push(() => worker.stop());
  return worker;
}

const post = { title: 'T', body: '<p>b</p>', summary: '', categories: [], pub_date: '2026-01-01T00:00:00.000Z' };

/** Publishes post `oid` to an outbox whose route answers after `delays`, and stops the outbox while that delivery is in flight. */
async function stopDuringDelivery(delays: number[], oid: string, graceMs: number) {
  const db = database();
  const route = await slowRoute(delays);
  const first = outbox(db, route.url);
  first.start();
  const arrived = route.arrived();
  new ContentStore(db).putPost(oid, post);
  first.notify();
  await arrived;
  const started = Date.now();
  await first.stop({ graceMs });
  return { db, route, first, took: Date.now() - started };
}

describe('PurgeOutbox stop', () => {
  it('lets the delivery in flight end, and the next start does not send it again, when the grace is longer than the delivery', async () => {
    const { db, route, took } = await stopDuringDelivery([300, 0], 'graceful', 5_000);
    assert.ok(took < 2_000, 'stop resolved when the delivery ended, not at the end of the grace');
    const next = outbox(db, route.url);
    next.start();
    await waitFor('condition', () => next.pendingJobs() === 0);
    assert.equal(route.requests, 1, 'the front confirmed the purge once, so it is not sent again');
  });

  it('aborts the delivery in flight and keeps it for the next start when the grace runs out first', async () => {
    const { db, route, first, took } = await stopDuringDelivery([5_000, 0], 'cut', 200);
    assert.ok(took >= 190 && took < 1_500, `stop resolved at the end of the grace (${took} ms)`);
    assert.equal(first.pendingJobs(), 1);
    const next = outbox(db, route.url);
    next.start();
    await waitFor('condition', () => next.pendingJobs() === 0);
    assert.equal(route.requests, 2, 'the next start delivered the aborted purge');
  });
});
