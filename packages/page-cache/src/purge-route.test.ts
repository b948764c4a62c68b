import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPurgeRoute } from './purge-route.js';

describe('isPurgeRoute', () => {
  it('takes the purge path bare or with a query string', () => {
    assert.equal(isPurgeRoute('/__purge__', '/__purge__'), true);
    assert.equal(isPurgeRoute('/__purge__?now', '/__purge__'), true);
  });

  it('leaves a longer path or another path to the cache', () => {
    for (const url of ['/__purge__/x', '/__purge__x', '/__purg', '/']) assert.equal(isPurgeRoute(url, '/__purge__'), false);
  });
});
