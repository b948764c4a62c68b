import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { silentLogger } from '../log.js';
import { waitFor } from '../test-support/wait-for.js';
import { PurgeOutbox } from './outbox.js';
import { ContentStore } from './store.js';
import { tempOriginDatabase } from './test-support/temp-database.js';
import { buildIdOf, dataRoutesOf, frontBaseOf } from './warm-up.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A front as the outbox meets it: a purge route, and pages naming build `b1` whose requests it records in order. */
async function front(): Promise<{ route: string; log: string[] }> {
  const log: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      log.push(`${req.method ?? ''} ${req.url ?? ''}`);
      if (req.method === 'POST') res.writeHead(200, { 'content-type': 'application/json' }).end('{"purged":[]}');
      else if (req.url?.startsWith('/_render/data/') === true) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html><script src="/_render/static/b1/client.js"></script></html>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { route: `http://127.0.0.1:${(server.address() as AddressInfo).port}/__purge__`, log };
}

const post = { title: 'Osprey', body: '<p>Diving</p>', summary: '', categories: ['Birds'], pub_date: '2026-11-01' };

describe('warm-up of a publication', () => {
  it('renders the published post\'s pages and data routes once at each front, after that front purged them', async () => {
    const { db } = tempOriginDatabase(cleanups, 'sitestack-warm-up-');
    const fronts = [await front(), await front()];
    const store = new ContentStore(db);
    store.putPost('osprey', { ...post, state: 'draft' });
    const outbox = new PurgeOutbox({ db, routes: fronts.map((f) => f.route), secret: 's', logger: silentLogger() });
    cleanups.push(() => outbox.stop());
    outbox.start();
    store.setState('osprey', 'published');
    outbox.notify();
    for (const { log } of fronts) {
      const paths = ['/plog/osprey', '/', '/plog', '/plog/category/Birds', '/feed.xml', '/sitemap.xml', '/_render/data/b1/en-US/plog/osprey.json', '/_render/data/b1/en-US/index.json'];
      await waitFor('the warm-up', () => paths.every((path) => log.includes(`GET ${path}`)));
      assert.equal(log[0], 'POST /__purge__', 'the purge comes first');
      for (const path of paths) assert.equal(log.filter((line) => line === `GET ${path}`).length, 1, path);
    }
  });

  it('warms nothing for an edit, a new post or an unpublication', async () => {
    const { db } = tempOriginDatabase(cleanups, 'sitestack-warm-up-');
    const { route, log } = await front();
    const store = new ContentStore(db);
    const outbox = new PurgeOutbox({ db, routes: [route], secret: 's', logger: silentLogger() });
    cleanups.push(() => outbox.stop());
    outbox.start();
    store.putPost('osprey', post);
    store.putPost('osprey', { ...post, title: 'Osprey again' });
    store.setState('osprey', 'draft');
    outbox.notify();
    await waitFor('the purges', () => outbox.pendingJobs() === 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(log.every((line) => line.startsWith('POST ')), log.join(', '));
  });

  it('reads a front\'s address, a page\'s build and its data routes, and nothing from what names none', () => {
    assert.equal(frontBaseOf('http://10.0.0.5:3000/__purge__'), 'http://10.0.0.5:3000');
    assert.equal(frontBaseOf('https://front.example/__purge__?x=1'), 'https://front.example');
    for (const route of ['not a url', '', 'file:///etc/passwd', 'javascript:alert(1)']) assert.equal(frontBaseOf(route), undefined, route);
    assert.equal(buildIdOf('<script src="/_render/static/Ab_9-x/client.js">'), 'Ab_9-x');
    assert.equal(buildIdOf('<p>/_render/static/../x</p>'), undefined);
    assert.equal(buildIdOf(''), undefined);
    assert.deepEqual(dataRoutesOf(['/plog/osprey', '/feed.xml', '/sitemap.xml', '/', '/no/such/page'], 'b1'), [
      '/_render/data/b1/en-US/plog/osprey.json',
      '/_render/data/b1/en-US/index.json',
    ]);
  });
});
