import assert from 'node:assert/strict';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createEntry, withEncodings, withLifetime, type CacheEntry } from './entry.js';
import { entryOfSharedCopy, sharedCopyOf } from './shared-copy.js';

const RULES = { dataRoutePrefix: '/_render/data/', purgeQueryVariants: false };

const entryArbitrary = fc
  .record({
    body: fc.string({ unit: 'grapheme', maxLength: 3_000 }),
    keys: fc.uniqueArray(fc.stringMatching(/^[a-z0-9:]{1,12}$/), { maxLength: 4 }),
    header: fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map((value) => value.replace(/[\r\n]/g, ' ')),
    codings: fc.subarray(['br', 'gzip'] as const),
    chunked: fc.boolean(),
    lifetime: fc.option(fc.record({ freshUntil: fc.integer({ min: 0, max: 2 ** 40 }), staleWhileRevalidateMs: fc.nat(), staleIfErrorMs: fc.nat() }), { nil: undefined }),
  })
  .map(({ body, keys, header, codings, chunked, lifetime }) => {
    const bytes = Buffer.from(body);
    const headers = { 'content-type': 'text/html; charset=utf-8', 'x-note': header, 'surrogate-key': keys.join(' '), ...(chunked ? { 'transfer-encoding': 'chunked' } : {}) };
    const entry = createEntry(headers, bytes, { compress: true, compressMinBytes: 1 });
    const encoded = Object.fromEntries(codings.map((coding) => [coding, coding === 'br' ? brotliCompressSync(bytes) : gzipSync(bytes)]));
    return withLifetime(withEncodings(entry, encoded), lifetime) as CacheEntry;
  });

describe('shared copies', () => {
  it('rebuild the entry they were made of, heads, validators and every coding, whatever the entry', () => {
    fc.assert(
      fc.property(entryArbitrary, fc.constantFrom('/p', '/p?q=1', '/_render/data/b1/en/blog/x.json'), (entry, key) => {
        const copy = sharedCopyOf(key, entry, RULES);
        if (entry.freshUntil !== Infinity) {
          assert.equal(copy, undefined, 'a copy with a lifetime is not shared');
          return;
        }
        assert.ok(copy !== undefined);
        assert.deepEqual(copy.keys, entry.keys);
        assert.ok(copy.targets.includes(key));
        const back = entryOfSharedCopy(copy);
        assert.ok(back !== undefined);
        for (const coding of ['identity', 'br', 'gzip'] as const) {
          assert.deepEqual(back[coding]?.body, entry[coding]?.body, coding);
          assert.deepEqual(back[coding]?.headers, entry[coding]?.headers, coding);
          assert.deepEqual(back[coding]?.notModifiedHeaders, entry[coding]?.notModifiedHeaders, coding);
        }
        assert.deepEqual(
          [back.compressible, back.chunked, back.vary, back.keys, back.freshUntil, back.staleWhileRevalidateMs, back.staleIfErrorMs, back.size],
          [entry.compressible, entry.chunked, entry.vary, entry.keys, entry.freshUntil, entry.staleWhileRevalidateMs, entry.staleIfErrorMs, entry.size],
        );
      }),
    );
  });

  it('carry the compressed bodies only when the entry has one', () => {
    const body = Buffer.from('<p>hello</p>'.repeat(200));
    const entry = withEncodings(createEntry({ 'content-type': 'text/html' }, body, { compress: true, compressMinBytes: 1 }), { br: brotliCompressSync(body) });
    const copy = sharedCopyOf('/p', entry, RULES);
    assert.ok(copy !== undefined && copy.body.length < body.length / 4);
  });

  it('find the pathnames whose purge removes them, data routes included', () => {
    const copy = sharedCopyOf('/_render/data/b1/en/blog/x.json', createEntry({}, Buffer.from('{}')), RULES);
    assert.ok(copy?.targets.includes('/blog/x'));
  });

  it('are refused, never thrown, when their head or bodies are anything else', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), fc.uint8Array({ maxLength: 200 }), (head, body) => {
        entryOfSharedCopy({ head, body: Buffer.from(body), targets: [], keys: [] });
      }),
    );
    const good = sharedCopyOf('/p', createEntry({}, Buffer.from('abc')), RULES)!;
    assert.equal(entryOfSharedCopy({ ...good, body: Buffer.from('abcd') }), undefined, 'bodies longer than the head says');
    assert.equal(entryOfSharedCopy({ ...good, head: good.head.replace('"v":1', '"v":2') }), undefined, 'another layout version');
    const bomb = Buffer.alloc(1_000_000);
    const compressed = sharedCopyOf('/p', withEncodings(createEntry({ 'content-type': 'text/html' }, bomb, { compress: true, compressMinBytes: 1 }), { gzip: gzipSync(bomb) }), RULES)!;
    assert.equal(entryOfSharedCopy(compressed, 1_000), undefined, 'a body that decompresses past the bound');
    assert.ok(entryOfSharedCopy(compressed) !== undefined);
  });
});
