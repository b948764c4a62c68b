import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { purgeTargetsOf } from './purge-request.js';

const LIMITS = { maxPathnames: 2, maxPathnameLength: 20, maxKeys: 2 };

describe('purgeTargetsOf', () => {
  it('takes an array as a list of pathnames', () => {
    assert.deepEqual(purgeTargetsOf(['/a', '/b'], LIMITS), { pathnames: ['/a', '/b'], keys: undefined });
  });

  it('takes keys alone, or keys with pathnames', () => {
    assert.deepEqual(purgeTargetsOf({ keys: ['post:1'] }, LIMITS), { pathnames: undefined, keys: ['post:1'] });
    assert.deepEqual(purgeTargetsOf({ pathnames: ['/a'], keys: ['post:1'] }, LIMITS), { pathnames: ['/a'], keys: ['post:1'] });
  });

  it('throws PURGE_PATHNAMES_INVALID (400) when a pathname is invalid or none is named', () => {
    for (const request of [['relative'], ['/a', '/b', '/c'], {}]) {
      assert.throws(() => purgeTargetsOf(request, LIMITS), { code: 'PURGE_PATHNAMES_INVALID', status: 400 });
    }
  });

  it('throws PURGE_KEYS_INVALID (400) when a key is invalid or there are too many', () => {
    for (const keys of [['caf\u00e9'], ['a', 'b', 'c']]) {
      assert.throws(() => purgeTargetsOf({ keys }, LIMITS), { code: 'PURGE_KEYS_INVALID', status: 400 });
    }
  });
});
