import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, describe, it } from 'node:test';
import type { PageCacheOptions, SharedLookup, SharedTier } from '../src/index.js';
import { createMemorySharedTier, type MemorySharedTier } from '../src/test-support/memory-shared-tier.js';
import { delay, gate, request, startCache, type Harness, type Renderer } from './helpers.js';

/** The site as it stands: every render shows the current version, after `slow` when one is set. */
function site() {
  const state = {
    version: 1,
    slow: undefined as Promise<void> | undefined,
    render: (async (req: IncomingMessage, res: ServerResponse) => {
      const shown = state.version;
      await state.slow;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.setHeader('surrogate-key', 'post:1');
      res.end(`<p>${req.url} v${shown} ${'x'.repeat(2_000)}</p>`);
    }) as Renderer,
  };
  return state;
}

const harnesses: Harness[] = [];
after(async () => Promise.all(harnesses.map((h) => h.close())));

/** Two caches (two fronts) sharing `tier`, each with its own renderer calls. */
async function fronts(tier: SharedTier, renderer: Renderer, options: PageCacheOptions = {}, count = 2): Promise<Harness[]> {
  const started = await Promise.all(Array.from({ length: count }, () => startCache({ sharedTier: tier, sharedPollMs: 5, ...options }, renderer)));
  harnesses.push(...started);
  return started;
}

const calls = (list: Harness[]) => list.reduce((sum, h) => sum + h.calls.length, 0);

describe('a page cache with a shared tier', () => {
  it('answers a page another front rendered as a hit, without a render, when its memory does not hold it', async () => {
    const tier = createMemorySharedTier();
    const [a, b] = (await fronts(tier, site().render)) as [Harness, Harness];
    const first = await request(a.url, '/p', { headers: { 'accept-encoding': 'br' } });
    assert.equal(first.headers['x-middleware-cache'], 'miss');
    assert.equal(tier.copies.size, 1);
    for (const encoding of ['br', 'gzip', '']) {
      const reply = await request(b.url, '/p', { headers: { 'accept-encoding': encoding } });
      assert.equal(reply.headers['x-middleware-cache'], 'hit');
      assert.match(reply.body === '' ? reply.bytes.toString() : reply.body, encoding === '' ? /v1/ : /.*/);
    }
    const identity = await request(b.url, '/p');
    assert.match(identity.body, /^<p>\/p v1 x+<\/p>$/);
    assert.equal(b.calls.length, 0);
    assert.equal(b.cache.stats().sharedHits, 1);
    // The same bytes give the same validator on every front.
    const fromA = await request(a.url, '/p', { headers: { 'accept-encoding': 'br' } });
    const fromB = await request(b.url, '/p', { headers: { 'accept-encoding': 'br' } });
    assert.equal(fromA.headers.etag, fromB.headers.etag);
    assert.deepEqual(fromA.bytes, fromB.bytes);
  });

  it('renders a page once for the fleet when misses of it come to every front at once', async () => {
    const tier = createMemorySharedTier();
    const content = site();
    const slow = gate();
    content.slow = slow.promise;
    const all = await fronts(tier, content.render, {}, 3);
    const replies = Promise.all(all.flatMap((h) => [request(h.url, '/q'), request(h.url, '/q')]));
    await delay(50);
    slow.open();
    const answered = await replies;
    assert.equal(calls(all), 1);
    for (const reply of answered) assert.match(reply.body, /\/q v1/);
  });

  it('keeps a render a purge overtook out of the tier, so the next front renders the new version', async () => {
    const tier = createMemorySharedTier();
    const content = site();
    const slow = gate();
    content.slow = slow.promise;
    const [a, b] = (await fronts(tier, content.render)) as [Harness, Harness];
    const old = request(a.url, '/r');
    await delay(20);
    content.version = 2;
    tier.purge(['/r'], [], false);
    slow.open();
    assert.match((await old).body, /v1/);
    assert.equal(tier.copies.size, 0);
    content.slow = undefined;
    assert.match((await request(b.url, '/r')).body, /v2/);
  });

  it('does not keep or answer a copy found in the tier when this front applied a purge of it during the lookup', async () => {
    const inner = createMemorySharedTier();
    let hold: Promise<void> | undefined;
    // The copy is read before the purge and its answer arrives after: a slow network between the front and the tier.
    const tier: SharedTier = { ...inner, lookup: async (key, lead) => { const answer = await inner.lookup(key, lead); await hold; return answer; } };
    const content = site();
    const [a, b] = (await fronts(tier, content.render)) as [Harness, Harness];
    await request(a.url, '/s');
    const held = gate();
    hold = held.promise;
    const reading = request(b.url, '/s');
    await delay(20);
    hold = undefined;
    content.version = 2;
    inner.purge([], ['post:1'], false);
    b.cache.purge({ keys: ['post:1'] });
    held.open();
    assert.match((await reading).body, /v2/);
    assert.equal(b.calls.length, 1);
  });

  it('answers a soft-purged copy as stale while another front renders the page again, then the new copy without a render', async () => {
    const tier = createMemorySharedTier();
    const content = site();
    const [a, b] = (await fronts(tier, content.render, { purgeMode: 'soft' })) as [Harness, Harness];
    await request(a.url, '/t');
    const slow = gate();
    content.slow = slow.promise;
    content.version = 2;
    tier.purge(['/t'], [], true);
    a.cache.purge(['/t']);
    assert.equal((await request(a.url, '/t')).headers['x-middleware-cache'], 'stale', 'front a revalidates in the background');
    await delay(10);
    assert.equal((await tier.lookup('/t', true)).role, 'wait', 'front a holds the fleet lock of the page');
    const reply = await request(b.url, '/t');
    assert.equal(reply.headers['x-middleware-cache'], 'stale');
    assert.match(reply.body, /v1/);
    slow.open();
    let latest = reply;
    for (let tries = 0; !/v2/.test(latest.body) && tries < 100; tries++) {
      await delay(10);
      latest = await request(b.url, '/t');
    }
    assert.match(latest.body, /v2/);
    assert.equal(b.calls.length, 0, 'front b never rendered');
    assert.equal(a.calls.length, 2);
  });

  it('renders on its own when the tier cannot answer, when a copy is unreadable, and when nobody stores one in time', async () => {
    const off: SharedTier = { lookup: () => Promise.resolve({ role: 'off' }), store: () => assert.fail('nothing stored'), release: () => undefined };
    const [alone] = (await fronts(off, site().render, {}, 1)) as [Harness];
    assert.match((await request(alone.url, '/u')).body, /v1/);
    assert.equal(alone.calls.length, 1);

    const broken: SharedTier = { ...createMemorySharedTier(), lookup: () => Promise.resolve({ role: 'found', copy: { head: '{"v":99}', body: Buffer.from('x'), targets: ['/u'], keys: [] } }) };
    const [reader] = (await fronts(broken, site().render, {}, 1)) as [Harness];
    assert.match((await request(reader.url, '/u')).body, /v1/);

    const waiting: SharedTier = { lookup: (): Promise<SharedLookup> => Promise.resolve({ role: 'wait' }), store: () => undefined, release: () => undefined };
    const [patient] = (await fronts(waiting, site().render, { sharedWaitMs: 100 }, 1)) as [Harness];
    const started = Date.now();
    assert.match((await request(patient.url, '/u')).body, /v1/);
    assert.ok(Date.now() - started >= 90, 'it waited for the other render first');

    const hanging: SharedTier = { lookup: () => new Promise(() => undefined), store: () => undefined, release: () => undefined };
    const [bounded] = (await fronts(hanging, site().render, { sharedWaitMs: 50 }, 1)) as [Harness];
    assert.match((await request(bounded.url, '/u')).body, /v1/);
  });

  it('shares no response that varies by more than its coding, and releases the lock of a render it cannot share', async () => {
    const tier: MemorySharedTier = createMemorySharedTier();
    const varying: Renderer = (_req, res) => {
      res.setHeader('vary', 'accept-language');
      res.end('hello');
    };
    const [a] = (await fronts(tier, varying, {}, 1)) as [Harness];
    await request(a.url, '/v', { headers: { 'accept-language': 'fr' } });
    assert.equal(tier.copies.size, 0);
    assert.equal((await tier.lookup('/v', true)).role, 'lead', 'the lock was released');
  });
});
