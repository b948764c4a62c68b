import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { EncodingKeeper } from './encodings.js';
import { createEntry, type CacheEntry, type Representation } from './entry.js';
import type { CompressionLevels } from './compress.js';
import { EntryStore } from './store.js';
import { keptLog } from './test-support/fake-http.js';

function entryOf(body: Buffer): CacheEntry {
  return createEntry({ 'content-type': 'text/html; charset=utf-8' }, body, { compress: true, compressMinBytes: 1024 });
}

function keeperWith(levels: CompressionLevels = { brotliQuality: 5, gzipLevel: 6 }) {
  const store = new EntryStore({ maxEntries: 10, maxBytes: undefined, dataRoutePrefix: '/_render/data/', purgeQueryVariants: false });
  const counters = { compressions: 0 };
  const log = keptLog();
  return { keeper: new EncodingKeeper(store, levels, counters, log.logger), store, counters, lines: log.lines };
}

const encoded = (keeper: EncodingKeeper, key: string, entry: CacheEntry) =>
  new Promise<Representation>((resolve) => keeper.encode(key, entry, 'gzip', resolve));

describe('EncodingKeeper', () => {
  it('keeps the encoding in the entry the store holds, so that a later hit finds it held', async () => {
    const { keeper, store, counters } = keeperWith();
    const body = Buffer.from('<p>page</p>'.repeat(200));
    const entry = entryOf(body);
    store.set('/a', entry);
    assert.equal(keeper.held('/a', entry, 'gzip'), undefined);
    const made = await encoded(keeper, '/a', entry);
    assert.deepEqual(gunzipSync(made.body), body);
    assert.equal(keeper.held('/a', entry, 'gzip'), made);
    assert.equal(store.peek('/a')?.gzip, made);
    assert.equal(counters.compressions, 1);
  });

  it('compresses a large body once for every hit that asks while the thread pool works on it', async () => {
    const { keeper, store, counters } = keeperWith();
    const entry = entryOf(Buffer.from('<p>a large page</p>\n'.repeat(10_000)));
    store.set('/large', entry);
    const made = await Promise.all([encoded(keeper, '/large', entry), encoded(keeper, '/large', entry), encoded(keeper, '/large', entry)]);
    assert.equal(counters.compressions, 1);
    assert.ok(made.every((held) => held === made[0] && held.coding === 'gzip'));
  });

  it('hands over the encoding without keeping it when the key holds another response by then', async () => {
    const { keeper, store } = keeperWith();
    const first = entryOf(Buffer.from('<p>first</p>'.repeat(200)));
    const second = entryOf(Buffer.from('<p>second</p>'.repeat(200)));
    store.set('/a', second);
    const made = await encoded(keeper, '/a', first);
    assert.deepEqual(gunzipSync(made.body), first.identity.body);
    assert.equal(store.peek('/a')?.gzip, undefined);
  });

  it('hands over the identity body and logs the error when compressing fails', async () => {
    const { keeper, store, lines } = keeperWith({ brotliQuality: 5, gzipLevel: 42 });
    const entry = entryOf(Buffer.from('<p>page</p>'.repeat(200)));
    store.set('/a', entry);
    assert.equal(await encoded(keeper, '/a', entry), entry.identity);
    assert.deepEqual(lines.map((line) => line.message), ['page cache: gzip compression failed; sent identity']);
  });
});
