import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { get, nginxForTests, type RunningEdge } from '../src/edge/test-support/edge-harness.js';
import { silentLogger } from '../src/log.js';
import { startFront, type RunningFront } from '../src/server/front-command.js';
import type { RunningOrigin } from '../src/server/origin-command.js';
import { adminAt, eventually, startEdgeAndOrigin, type EdgeAndOrigin } from './support/stack.js';

const { nginx, skip } = nginxForTests();

/** The freshness bound of issue 18, which purges by key keep for pages only keys name. */
const FRESH_WITHIN_MS = 3_000;

const post = (title: string, categories: string[]) => ({ title, body: `<p>${title} body.</p>`, summary: '', categories, pub_date: '2026-11-22' });

/**
 * Purges by surrogate key through every layer: the real origin enqueues keys, the real front purges every entry that
 * named them and reports what it purged, and the real nginx edge is refreshed for those URLs too.
 */
describe('category pages fresh by key, front and edge', { skip }, () => {
  let layers: EdgeAndOrigin;
  let edge: RunningEdge;
  let origin: RunningOrigin;
  let front: RunningFront;

  const admin = (method: string, path: string, body?: unknown) => adminAt(origin.url, method, path, body);
  const cafe = '/plog/category/Caf%C3%A9%20au%20lait';
  // No pathname names a data route: only its surrogate key reaches it.
  const dataRoute = () => `/_render/data/${front.buildId}/en-US${cafe}.json`;

  /** Every copy of the category page a reader can meet, at the front and at the edge. */
  const copies = () => [front.url, edge.url].flatMap((base) => [`${base}${cafe}`, `${base}${dataRoute()}`]);

  /**
   * Waits until the outbox has purged every front and refreshed the edge. Readers who fill the caches during a purge
   * can leave the edge a copy the front never held (its render was outdated, so not stored) and so never reports: the
   * tests warm the caches as readers usually do, after a change has gone through.
   */
  async function settled(): Promise<void> {
    await eventually('the outbox idle', async () => origin.outbox?.pendingJobs() === 0 && origin.outbox.pendingCdnUrls() === 0, FRESH_WITHIN_MS);
  }

  /** Asks for every copy twice once the last change has gone through, so that the front and the edge both hold it. */
  async function warm(): Promise<void> {
    await settled();
    for (let round = 0; round < 2; round++) for (const url of copies()) await get(url);
  }

  before(async () => {
    layers = await startEdgeAndOrigin(nginx!);
    ({ edge, origin } = layers);
    front = await startFront({ config: layers.config, logger: silentLogger() });
  });

  after(async () => {
    await front?.close();
    await layers?.close();
  });

  it('names the category page by its keys at the front, and keeps them from readers at the edge', async () => {
    assert.equal((await admin('PUT', '/api/v1/plog/keyed-first', post('Keyed first look', ['Café au lait']))).status, 201);
    await eventually('the post on its category page', async () => (await get(`${front.url}${cafe}`)).body.includes('Keyed first look'), FRESH_WITHIN_MS);
    const atFront = await get(`${front.url}${cafe}`);
    assert.equal(atFront.headers['x-middleware-cache'], 'hit');
    assert.equal(atFront.headers['surrogate-key'], 'category:Caf%C3%A9%20au%20lait post:keyed-first');
    assert.equal((await get(`${front.url}${dataRoute()}`)).headers['surrogate-key'], 'category:Caf%C3%A9%20au%20lait post:keyed-first');
    assert.match((await get(`${front.url}/plog/keyed-first`)).body, /<a href="\/plog\/category\/Caf%C3%A9%20au%20lait">Café au lait<\/a>/);
    const atEdge = await get(`${edge.url}${cafe}`);
    assert.equal(atEdge.status, 200);
    assert.equal(atEdge.headers['surrogate-key'], undefined);
  });

  it('shows an edit on the category page at the front and at the edge, whatever its URL, within the bound', async () => {
    assert.equal((await admin('PUT', '/api/v1/plog/keyed-edit', post('Ptarmigan ledger', ['Café au lait']))).status, 201);
    await eventually('the new post on every copy', async () => (await Promise.all(copies().map((url) => get(url)))).every((copy) => copy.body.includes('Ptarmigan ledger')), FRESH_WITHIN_MS);
    await warm();
    assert.equal((await get(`${edge.url}${cafe}`)).headers['x-cache'], 'HIT');
    for (const base of [front.url, edge.url]) {
      const variant = await get(`${base}${cafe}?ref=feed`);
      assert.deepEqual([variant.status, variant.headers.location, variant.headers['x-cache']], [301, cafe, base === edge.url ? 'MISS' : undefined], 'a query string is sent to the one URL, never kept');
    }

    const started = Date.now();
    assert.equal((await admin('PUT', '/api/v1/plog/keyed-edit', post('Wallaby ledger', ['Café au lait']))).status, 200);
    await eventually(
      'the edited title on every copy',
      async () => (await Promise.all(copies().map((url) => get(url)))).every((copy) => copy.status === 200 && copy.body.includes('Wallaby ledger') && !copy.body.includes('Ptarmigan')),
      FRESH_WITHIN_MS,
    );
    assert.ok(Date.now() - started < FRESH_WITHIN_MS);
    const refreshed = await get(`${edge.url}${cafe}`);
    assert.equal(refreshed.headers['x-cache'], 'HIT', 'the edge was refreshed, not merely expired');
  });

  it('moves a post between category pages at both layers when its categories change', async () => {
    const search = '/plog/category/Search';
    assert.equal((await admin('PUT', '/api/v1/plog/keyed-move', post('Quoll almanac', ['Café au lait', 'Search']))).status, 201);
    await warm();
    for (const base of [front.url, edge.url]) assert.match((await get(`${base}${search}`)).body, /Quoll almanac/, base);
    assert.equal((await get(`${edge.url}${search}`)).headers['x-cache'], 'HIT');
    assert.equal((await admin('PUT', '/api/v1/plog/keyed-move', post('Quoll almanac', ['Search']))).status, 200);
    await eventually('gone from the page it left', async () => (await Promise.all(copies().map((url) => get(url)))).every((copy) => copy.status === 200 && !copy.body.includes('Quoll almanac')), FRESH_WITHIN_MS);
    for (const base of [front.url, edge.url]) assert.match((await get(`${base}${search}`)).body, /Quoll almanac/, base);
  });

  it('answers 404 at both layers for a category whose last post was deleted', async () => {
    const lonely = '/plog/category/Lonely';
    assert.equal((await admin('PUT', '/api/v1/plog/keyed-lonely', post('Solitary tern', ['Lonely']))).status, 201);
    await settled();
    assert.equal((await get(`${edge.url}${lonely}`)).status, 200);
    assert.equal((await get(`${edge.url}${lonely}`)).headers['x-cache'], 'HIT');
    assert.equal((await admin('DELETE', '/api/v1/plog/keyed-lonely')).status, 204);
    await eventually(
      'the page gone from every copy',
      async () => (await Promise.all([front.url, edge.url].map((base) => get(`${base}${lonely}`)))).every((copy) => copy.status === 404),
      FRESH_WITHIN_MS,
    );
  });
});
