import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createEntry } from './entry.js';
import { EVICTIONS } from './eviction/index.js';
import { purgeMatches } from './purge-match.js';
import { EntryStore } from './store.js';

const rules = { dataRoutePrefix: '/_render/data/', purgeQueryVariants: false };
const PATHS = ['/', '/a', '/b', '/a/b', '/c', '/d', '/e', '/f'];
const SURROGATES = ['post-1', 'post-2', 'home'];

type Step =
  | { op: 'set'; path: string; bytes: number; surrogate: string }
  | { op: 'get'; path: string }
  | { op: 'purge'; pathname: string; soft: boolean }
  | { op: 'purgeKey'; surrogate: string }
  | { op: 'drop'; path: string };

const path = fc.constantFrom(...PATHS);
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('set' as const), path, bytes: fc.integer({ min: 1, max: 400 }), surrogate: fc.constantFrom(...SURROGATES) }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('get' as const), path }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('purge' as const), pathname: path, soft: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('purgeKey' as const), surrogate: fc.constantFrom(...SURROGATES) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('drop' as const), path }), weight: 1 },
);

describe('EntryStore with each eviction', () => {
  for (const eviction of EVICTIONS) {
    it(`stays within maxEntries and maxBytes, purges what it holds and counts every eviction, with ${eviction} (property)`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 6 }),
          fc.option(fc.integer({ min: 500, max: 1500 }), { nil: undefined }),
          fc.array(step, { maxLength: 80 }),
          (maxEntries, maxBytes, steps) => {
            const store = new EntryStore({ ...rules, maxEntries, maxBytes, eviction });
            let storedNew = 0;
            let removed = 0;
            for (const s of steps) {
              if (s.op === 'set') {
                const entry = createEntry({ 'cache-control': 'public', 'surrogate-key': s.surrogate }, Buffer.alloc(s.bytes, 1));
                const isNew = store.peek(s.path) === undefined;
                if (store.set(s.path, entry) && isNew) storedNew++;
              } else if (s.op === 'get') {
                assert.equal(store.get(s.path), store.peek(s.path));
              } else if (s.op === 'purge') {
                const expected = store.keys().filter((k) => purgeMatches(k, s.pathname, rules));
                const purged = store.purge({ pathnames: [s.pathname] }, s.soft ? 1 : undefined);
                assert.deepEqual([...purged].sort(), [...expected].sort());
                if (!s.soft) removed += purged.length;
                for (const k of purged) assert.equal(s.soft ? store.staleSince(k) !== undefined : store.peek(k) === undefined, true);
              } else if (s.op === 'purgeKey') {
                const expected = store.keys().filter((k) => store.peek(k)!.keys.includes(s.surrogate));
                const purged = store.purge({ keys: [s.surrogate] });
                assert.deepEqual([...purged].sort(), [...expected].sort());
                removed += purged.length;
              } else {
                const held = store.peek(s.path);
                if (held !== undefined) {
                  store.drop(s.path, held);
                  removed++;
                }
              }
              const keys = store.keys();
              const counters = store.counters();
              assert.equal(counters.entries, keys.length);
              assert.equal(store.size, keys.length);
              assert.ok(keys.length <= maxEntries, `${keys.length} entries, bound ${maxEntries}`);
              assert.equal(counters.bytes, keys.reduce((sum, k) => sum + store.peek(k)!.size, 0));
              if (maxBytes !== undefined) assert.ok(counters.bytes <= maxBytes, `${counters.bytes} bytes, bound ${maxBytes}`);
              assert.equal(counters.evictions, storedNew - removed - keys.length);
              for (const k of PATHS) if (store.peek(k) === undefined) assert.equal(store.staleSince(k), undefined, `stale mark of ${k} outlived it`);
              assert.equal(store.surrogateKeyCount(), new Set(keys.flatMap((k) => store.peek(k)!.keys)).size);
            }
          },
        ),
        { numRuns: 300 },
      );
    });
  }
});
