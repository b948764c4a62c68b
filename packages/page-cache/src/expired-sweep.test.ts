import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEntry, withLifetime } from './entry.js';
import { ExpiredSweep } from './expired-sweep.js';
import { staleUse } from './freshness.js';
import { resolveOptions } from './options.js';
import { EntryStore } from './store.js';

const entryUntil = (freshUntil: number, staleIfErrorMs = 0) =>
  withLifetime(createEntry({ 'content-type': 'text/html' }, Buffer.from('<p>a</p>')), { freshUntil, staleWhileRevalidateMs: 0, staleIfErrorMs })!;

describe('ExpiredSweep', () => {
  it('drops, once every `every` stores, the entries whose windows have all closed, and keeps the others', () => {
    const store = new EntryStore(resolveOptions());
    store.set('/gone', entryUntil(100));
    store.set('/error-window', entryUntil(100, 1_000));
    store.set('/fresh', entryUntil(10_000));
    store.set('/forever', entryUntil(Infinity));
    store.set('/purged', entryUntil(Infinity), 0);
    const sweep = new ExpiredSweep(store, 3, (entry, staleSince, now) => staleUse(entry, staleSince, now, 500, true));
    sweep.stored(1_000);
    sweep.stored(1_000);
    assert.equal(store.size, 5, 'not yet: the third store sweeps');
    sweep.stored(1_000);
    assert.deepEqual(store.keys().sort(), ['/error-window', '/forever', '/fresh']);
  });
});
