import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createBoundedTable } from './bounded-table.js';
import { POLICY_NAMES, createEvictionPolicy } from './policies.js';
import type { EvictionBounds } from './policy.js';

type Operation =
  | { op: 'insert'; key: number; weight: number }
  | { op: 'touch'; key: number }
  | { op: 'delete'; key: number }
  | { op: 'evict' };

/** Few distinct keys, so that operations often meet keys held, evicted and purged before. */
const KEYS = 12;
const key = fc.integer({ min: 0, max: KEYS - 1 });
const operation: fc.Arbitrary<Operation> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('insert' as const), key, weight: fc.integer({ min: 1, max: 50 }) }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('touch' as const), key }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('delete' as const), key }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('evict' as const) }), weight: 2 },
);
const bounds: fc.Arbitrary<EvictionBounds> = fc.record({
  maxEntries: fc.integer({ min: 1, max: 10 }),
  maxWeight: fc.option(fc.integer({ min: 50, max: 200 }), { nil: undefined }),
});

for (const name of POLICY_NAMES) {
  describe(`eviction policy ${name}`, () => {
    it('holds exactly what a map of held keys and weights holds after any operations (property)', () => {
      fc.assert(
        fc.property(bounds, fc.array(operation, { maxLength: 200 }), (limits, operations) => {
          const policy = createEvictionPolicy<number>(name, limits);
          const model = new Map<number, number>();
          for (const step of operations) {
            if (step.op === 'insert') {
              policy.insert(step.key, step.weight);
              model.set(step.key, step.weight);
            } else if (step.op === 'touch') {
              // A hit evicts nothing, the key hit least of all.
              assert.equal(policy.touch(step.key), model.has(step.key));
            } else if (step.op === 'delete') {
              assert.equal(policy.delete(step.key), model.delete(step.key));
            } else {
              const victim = policy.evict();
              if (model.size === 0) assert.equal(victim, undefined);
              else assert.ok(victim !== undefined && model.delete(victim), `evicted ${victim}, not held`);
            }
            assert.equal(policy.size, model.size);
            assert.equal(policy.weight, [...model.values()].reduce((sum, weight) => sum + weight, 0));
            for (let k = 0; k < KEYS; k++) assert.equal(policy.has(k), model.has(k));
          }
          assert.deepEqual([...policy.keys()].sort(), [...model.keys()].sort());
        }),
        { numRuns: 300 },
      );
    });

    it('evicts every held key exactly once, then nothing, a purged key never (property)', () => {
      fc.assert(
        fc.property(bounds, fc.array(operation, { maxLength: 100 }), (limits, operations) => {
          const policy = createEvictionPolicy<number>(name, limits);
          for (const step of operations) {
            if (step.op === 'insert') policy.insert(step.key, step.weight);
            else if (step.op === 'touch') policy.touch(step.key);
            else if (step.op === 'delete') policy.delete(step.key);
            else policy.evict();
          }
          const held = [...policy.keys()].sort();
          const purged = held[0];
          if (purged !== undefined) policy.delete(purged);
          const drained: number[] = [];
          for (let victim = policy.evict(); victim !== undefined; victim = policy.evict()) drained.push(victim);
          assert.deepEqual(drained.sort(), held.slice(1));
          assert.equal(policy.size, 0);
          assert.equal(policy.weight, 0);
        }),
        { numRuns: 300 },
      );
    });

    it('keeps a table within its entry and weight bounds, its callbacks in step with what it holds (property)', () => {
      const tableOperation = fc.oneof(
        fc.record({ op: fc.constant('set' as const), key, weight: fc.integer({ min: 1, max: 50 }) }),
        fc.record({ op: fc.constant('get' as const), key }),
        fc.record({ op: fc.constant('delete' as const), key }),
      );
      fc.assert(
        fc.property(bounds, fc.array(tableOperation, { maxLength: 200 }), (limits, operations) => {
          const mirror = new Map<number, { weight: number }>();
          const table = createBoundedTable<number, { weight: number }>({
            eviction: name,
            maxEntries: limits.maxEntries,
            maxWeight: limits.maxWeight,
            weightOf: (value) => value.weight,
            onInsert: (value, k) => {
              assert.ok(!mirror.has(k), `inserted ${k} twice`);
              mirror.set(k, value);
            },
            onRemove: (value, k) => {
              assert.equal(mirror.get(k), value);
              mirror.delete(k);
            },
          });
          for (const step of operations) {
            if (step.op === 'set') table.set(step.key, { weight: step.weight });
            else if (step.op === 'get') assert.equal(table.get(step.key), mirror.get(step.key));
            else {
              const held = mirror.has(step.key);
              assert.equal(table.delete(step.key), held);
            }
            assert.ok(table.size <= limits.maxEntries);
            const weight = [...mirror.values()].reduce((sum, value) => sum + value.weight, 0);
            if (limits.maxWeight !== undefined) assert.ok(weight <= limits.maxWeight, `${weight} > ${limits.maxWeight}`);
            assert.deepEqual([...table.keys()].sort(), [...mirror.keys()].sort());
          }
        }),
        { numRuns: 300 },
      );
    });
  });
}
