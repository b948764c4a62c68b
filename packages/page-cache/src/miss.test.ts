import assert from 'node:assert/strict';
import { ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import type { CacheEntry } from './entry.js';
import { Misses } from './miss.js';
import { preferencesMemo } from './negotiate.js';
import { resolveOptions, type PurgeMode } from './options.js';
import type { Render } from './render-recording.js';
import { RunningRenders } from './running-renders.js';
import { EntryStore } from './store.js';
import { Variants } from './variants.js';
import { fakeRequest, keptLog } from './test-support/fake-http.js';

const PAGE = '<p>page</p>';

function missesWith(purgeMode: PurgeMode = 'delete') {
  const config = resolveOptions({ purgeMode, revalidate: () => undefined });
  const store = new EntryStore(config);
  const running = new RunningRenders<Render>(config);
  const counters = { misses: 0, compressions: 0 };
  const variants = new Variants(store, config.maxEntries);
  const sweep = { stored: () => undefined };
  const misses = new Misses({ config, store, variants, sweep, running, preferences: preferencesMemo(), counters, logger: keptLog().logger });
  return { misses, store, running, counters };
}

/** A request whose response goes nowhere: what the renderer writes is only recorded. */
function detached(method = 'GET') {
  const req = fakeRequest({}, method, '/a');
  return { req, res: new ServerResponse(req) };
}

function page(res: ServerResponse): void {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(PAGE);
}

const settled = () => {
  let told: { entry: CacheEntry | undefined; outdated: boolean } | undefined;
  return { done: (entry: CacheEntry | undefined, outdated: boolean) => void (told = { entry, outdated }), told: () => told };
};

describe('Misses', () => {
  it('counts a GET miss, marks it a miss, and stores what the renderer sent under its key', () => {
    const { misses, store, counters, running } = missesWith();
    const { req, res } = detached();
    const { done, told } = settled();
    misses.render(req, res, () => page(res), '/a', done);
    assert.equal(res.getHeader('x-middleware-cache'), 'miss');
    assert.equal(store.peek('/a')?.identity.body.toString(), PAGE);
    assert.deepEqual([told()?.entry, told()?.outdated, counters.misses, running.size], [store.peek('/a'), false, 1, 0]);
  });

  it('stores a background render without counting it as a miss', () => {
    const { misses, store, counters } = missesWith();
    const { req, res } = detached();
    misses.renderInBackground(req, res, () => page(res), '/a', () => undefined);
    assert.deepEqual([store.size, counters.misses], [1, 0]);
  });

  it('renders a HEAD miss as a GET and stores nothing', () => {
    const { misses, store, counters } = missesWith();
    const { req, res } = detached('HEAD');
    let method: string | undefined;
    misses.renderHead(req, res, () => {
      method = req.method;
      page(res);
    }, '/a');
    assert.deepEqual([method, store.size, counters.misses], ['GET', 0, 1]);
  });

  /** A render of `/a` that a purge of `/a` at 10 overtakes before it ends. */
  function overtaken(purgeMode: PurgeMode) {
    const { misses, store, running } = missesWith(purgeMode);
    const { req, res } = detached();
    const { done, told } = settled();
    misses.render(req, res, () => undefined, '/a', done);
    running.markPurged({ pathnames: ['/a'] }, 10);
    page(res);
    return { store, told: told() };
  }

  it('stores nothing and says so when a purge overtook the render, with purgeMode delete', () => {
    const { store, told } = overtaken('delete');
    assert.deepEqual([store.size, told?.entry, told?.outdated], [0, undefined, true]);
  });

  it('stores the render stale from the purge that overtook it, with purgeMode soft', () => {
    const { store, told } = overtaken('soft');
    assert.deepEqual([store.staleSince('/a'), told?.entry, told?.outdated], [10, store.peek('/a'), true]);
  });
});
