import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { batchOf, purgedList, PURGE_REQUEST_LIMITS } from './purge-batch.js';

const job = (id: number, pathnames: string[], keys: string[] = []) => ({ id, pathnames: JSON.stringify(pathnames), keys: JSON.stringify(keys), attempts: 0 });

describe('batchOf', () => {
  it('merges jobs oldest first and names each pathname and key once', () => {
    const batch = batchOf([job(1, ['/a', '/b'], ['k1']), job(2, ['/b', '/c'], ['k1', 'k2'])]);
    assert.deepEqual(batch.jobs.map((taken) => taken.id), [1, 2]);
    assert.deepEqual(batch.pathnames, ['/a', '/b', '/c']);
    assert.deepEqual(batch.keys, ['k1', 'k2']);
  });

  it('stops before the job that would take the pathnames or the keys past a purge request bound, but always takes the first', () => {
    const many = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
    const full = PURGE_REQUEST_LIMITS.maxPathnames;
    assert.deepEqual(batchOf([job(1, many('/p', full)), job(2, ['/one-more'])]).jobs.map((taken) => taken.id), [1]);
    assert.deepEqual(batchOf([job(1, ['/a'], many('k', PURGE_REQUEST_LIMITS.maxKeys)), job(2, ['/b'], ['k-new'])]).jobs.map((taken) => taken.id), [1]);
    assert.equal(batchOf([job(1, many('/p', full + 5))]).jobs.length, 1);
  });
});

describe('purgedList', () => {
  it('reads the purged keys of a front answer and ignores what is not a string', () => {
    assert.deepEqual(purgedList(JSON.stringify({ purged: ['a', 1, 'b', null] })), ['a', 'b']);
  });

  it('finds no key when the answer has another shape or is not JSON', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const keys = purgedList(text);
        assert.ok(Array.isArray(keys) && keys.every((key) => typeof key === 'string'));
      }),
    );
    assert.deepEqual(purgedList('{"purged": "a"}'), []);
    assert.deepEqual(purgedList('ok'), []);
  });
});
