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
    assert.deepEqual(store.purge({ pathnames: ['/b'] }), []);
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
    assert.deepEqual(store.purge({ pathnames: ['/plog/a', '/', '/plog/a'] }), [
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
          const purged = store.purge({ pathnames });
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

describe('EntryStore surrogate keys', () => {
  const named = (...keys: string[]) => createEntry({ 'cache-control': 'public', 'surrogate-key': keys.join(' ') }, Buffer.alloc(10, 1));

  it('purges every entry that named a key, each once, pathnames first, when a purge names both', () => {
    const store = new EntryStore({ ...rules, maxEntries: 100, maxBytes: undefined });
    store.set('/', named('listing:home', 'post:1', 'post:2'));
    store.set('/plog/1', named('post:1'));
    store.set('/plog/2', named('post:2'));
    store.set('/_render/data/b/en-US/plog/1.json', named('post:1'));
    assert.deepEqual(store.purge({ pathnames: ['/plog/2'], keys: ['post:1', 'post:2', 'nothing'] }), [
      '/plog/2',
      '/',
      '/plog/1',
      '/_render/data/b/en-US/plog/1.json',
    ]);
    assert.equal(store.size, 0);
    assert.equal(store.counters().purged, 4);
  });

  it('forgets the keys an entry named when it is stored again naming others', () => {
    const store = new EntryStore({ ...rules, maxEntries: 100, maxBytes: undefined });
    store.set('/', named('post:1'));
    store.set('/', named('post:2'));
    assert.deepEqual(store.purge({ keys: ['post:1'] }), []);
    assert.deepEqual(store.purge({ keys: ['post:2'] }), ['/']);
  });

  it('marks soft-purged entries stale from their first purge, keeps the mark when encodings are added, and clears it on a fresh store', () => {
    const store = new EntryStore({ ...rules, maxEntries: 100, maxBytes: undefined });
    const first = named('post:1');
    store.set('/a', first);
    assert.deepEqual(store.purge({ keys: ['post:1'] }, 1000), ['/a']);
    assert.deepEqual(store.purge({ pathnames: ['/a'] }, 2000), ['/a'], 'a stale entry is purged again');
    assert.equal(store.staleSince('/a'), 1000);
    assert.equal(store.get('/a'), first, 'a stale entry is still held');
    assert.equal(store.replace('/a', first, named('post:1')), true);
    assert.equal(store.staleSince('/a'), 1000);
    store.set('/a', named('post:1'));
    assert.equal(store.staleSince('/a'), undefined);
  });

  it('matches a naive model of keys, entries and stale marks under any mix of stores, hits, evictions and purges (property)', () => {
    const cacheKey = fc.constantFrom('/', '/a', '/b', '/c', '/d', '/e');
    const surrogate = fc.constantFrom<string>('post:1', 'post:2', 'post:3', 'listing:home', 'category:x');
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: cacheKey, names: fc.uniqueArray(surrogate, { maxLength: 3 }) }),
      fc.record({ kind: fc.constant('get' as const), key: cacheKey }),
      fc.record({ kind: fc.constant('purge' as const), keys: fc.uniqueArray(surrogate, { minLength: 1, maxLength: 2 }), soft: fc.boolean() }),
      fc.record({ kind: fc.constant('purgePath' as const), key: cacheKey, soft: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(operation, { maxLength: 80 }), (maxEntries, operations) => {
        const store = new EntryStore({ ...rules, maxEntries, maxBytes: undefined });
        /** The model: cache key → surrogate keys and stale time, in recency order (least recent first). */
        const model = new Map<string, { names: string[]; since: number | undefined }>();
        const touch = (key: string) => {
          const held = model.get(key);
          if (held === undefined) return;
          model.delete(key);
          model.set(key, held);
        };
        for (const [time, op] of operations.entries()) {
          if (op.kind === 'set') {
            store.set(op.key, named(...op.names));
            model.delete(op.key);
            model.set(op.key, { names: op.names, since: undefined });
            if (model.size > maxEntries) model.delete(model.keys().next().value!);
          } else if (op.kind === 'get') {
            store.get(op.key);
            touch(op.key);
          } else {
            const matched =
              op.kind === 'purge' ? [...model].filter(([, held]) => held.names.some((name) => op.keys.includes(name))).map(([key]) => key) : model.has(op.key) ? [op.key] : [];
            const purged = store.purge(op.kind === 'purge' ? { keys: op.keys } : { pathnames: [op.key] }, op.soft ? time : undefined);
            assert.deepEqual([...purged].sort(), [...matched].sort());
            for (const key of matched) {
              if (op.soft) model.get(key)!.since ??= time;
              else model.delete(key);
            }
          }
          assert.deepEqual(store.keys().reverse(), [...model.keys()]);
          for (const [key, held] of model) assert.equal(store.staleSince(key), held.since);
          assert.equal(store.surrogateKeyCount(), new Set([...model.values()].flatMap((held) => held.names)).size, 'no key outlives its entries');
        }
      }),
    );
  });
});
