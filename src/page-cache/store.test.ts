import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createEntry } from './entry.js';
import { purgeMatches } from './purge-match.js';
import { EntryStore } from './store.js';

const rules = { dataRoutePrefix: '/_render/data/', purgeQueryVariants: false };
const entry = (size = 10) => createEntry({ 'cache-control': 'public' }, Buffer.alloc(size, 1));

describe('EntryStore', () => {
  it('evicts the least recently used entry when full, a get refreshing recency', () => {
    const store = new EntryStore({ ...rules, maxEntries: 2, maxBytes: undefined });
    store.set('/a', entry());
    store.set('/b', entry());
    store.get('/a');
    store.set('/c', entry());
    assert.deepEqual(store.keys().sort(), ['/a', '/c']);
    assert.equal(store.counters().evictions, 1);
    assert.deepEqual(store.purge(['/b']), []);
  });

  it('counts body and header bytes and evicts to respect maxBytes', () => {
    const one = entry(100);
    assert.equal(one.size, 100 + 'cache-control'.length + 'public'.length);
    const store = new EntryStore({ ...rules, maxEntries: 100, maxBytes: one.size * 2 });
    store.set('/a', one);
    store.set('/b', entry(100));
    store.set('/c', entry(100));
    assert.deepEqual(store.keys(), ['/c', '/b']);
    assert.equal(store.counters().bytes, one.size * 2);
    assert.equal(store.set('/big', entry(one.size * 2)), false);
    assert.deepEqual(store.keys(), ['/c', '/b']);
  });

  it('purges pathname by pathname and counts each removed key once', () => {
    const store = new EntryStore({ ...rules, maxEntries: 100, maxBytes: undefined });
    for (const key of ['/', '/plog/a', '/_render/data/b/en-US/plog/a.json', '/_render/data/b/en-US/index.json', '/plog/a?x=1']) {
      store.set(key, entry());
    }
    assert.deepEqual(store.purge(['/plog/a', '/', '/plog/a']), [
      '/plog/a',
      '/_render/data/b/en-US/plog/a.json',
      '/',
      '/_render/data/b/en-US/index.json',
    ]);
    assert.deepEqual(store.keys(), ['/plog/a?x=1']);
    assert.equal(store.counters().purged, 4);
    assert.equal(store.counters().entries, 1);
  });

  it('returns exactly what a scan of the held keys finds after any mix of stores, hits and evictions (property)', () => {
    const key = fc.oneof(
      fc.constantFrom('/', '/a', '/b', '/a?x', '/a/b'),
      fc.tuple(fc.constantFrom('b1', 'b2'), fc.constantFrom('/index', '/a', '/a/b', '/b')).map(([b, p]) => `/_render/data/${b}/en${p}.json`),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('set', 'get'), key), { maxLength: 60 }),
        fc.array(fc.constantFrom('/', '/a', '/b', '/a/b', '/index'), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 8 }),
        (operations, pathnames, maxEntries) => {
          const store = new EntryStore({ ...rules, maxEntries, maxBytes: undefined });
          for (const [operation, k] of operations) {
            if (operation === 'set') store.set(k, entry());
            else store.get(k);
          }
          const held = store.keys();
          const expected: string[] = [];
          for (const p of pathnames) {
            for (const k of held) if (!expected.includes(k) && purgeMatches(k, p, rules)) expected.push(k);
          }
          const purged = store.purge(pathnames);
          assert.deepEqual([...purged].sort(), [...expected].sort());
          const firstMatching = purged.map((k) => pathnames.findIndex((p) => purgeMatches(k, p, rules)));
          assert.deepEqual(firstMatching, [...firstMatching].sort((a, b) => a - b), 'grouped pathname by pathname');
          assert.equal(store.size, held.length - purged.length);
          assert.equal(store.counters().bytes, store.size * entry().size);
        },
      ),
      { numRuns: 500 },
    );
  });
});
