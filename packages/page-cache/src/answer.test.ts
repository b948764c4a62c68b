import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliDecompressSync } from 'node:zlib';
import { Answers, sendHeld } from './answer.js';
import { EncodingKeeper } from './encodings.js';
import { createEntry, type CacheEntry } from './entry.js';
import { preferencesMemo } from './negotiate.js';
import { EntryStore } from './store.js';
import { fakeRequest, fakeResponse, headValue, keptLog } from './test-support/fake-http.js';

const PAGE = Buffer.from(`<p>${'words '.repeat(400)}</p>`);

function entryOf(body = PAGE): CacheEntry {
  return createEntry({ 'content-type': 'text/html; charset=utf-8' }, body, { compress: true, compressMinBytes: 1024 });
}

function answersFor(key: string, entry: CacheEntry) {
  const store = new EntryStore({ maxEntries: 10, maxBytes: undefined, dataRoutePrefix: '/_render/data/', purgeQueryVariants: false });
  store.set(key, entry);
  const counters = { hits: 0, stale: 0, compressions: 0 };
  const keeper = new EncodingKeeper(store, { brotliQuality: 5, gzipLevel: 6 }, counters, keptLog().logger);
  return { answers: new Answers(keeper, preferencesMemo(), counters), counters, store };
}

describe('sendHeld', () => {
  it('sends the prepared head and body as a hit when the request has no validator', () => {
    const entry = entryOf();
    const { res, sent } = fakeResponse();
    sendHeld(fakeRequest(), res, entry.identity, false, false);
    assert.deepEqual([sent.status, sent.headers, sent.body], [200, entry.identity.headers, PAGE]);
  });

  it('sends the head without a body when the request is a HEAD', () => {
    const { res, sent } = fakeResponse();
    sendHeld(fakeRequest(), res, entryOf().identity, true, false);
    assert.deepEqual([sent.status, sent.body, sent.ended], [200, undefined, true]);
  });

  it('answers 304 with the short head when If-None-Match names its ETag', () => {
    const held = entryOf().identity;
    const { res, sent } = fakeResponse();
    sendHeld(fakeRequest({ 'if-none-match': `W/${held.etag}` }), res, held, false, false);
    assert.deepEqual([sent.status, sent.headers, sent.body], [304, held.notModifiedHeaders, undefined]);
  });

  it('marks the answer stale when it comes from a soft-purged copy', () => {
    const held = entryOf().identity;
    for (const ifNoneMatch of [undefined, held.etag]) {
      const { res, sent } = fakeResponse();
      sendHeld(fakeRequest(ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch }), res, held, false, true);
      assert.equal(headValue(sent.headers, 'x-middleware-cache'), 'stale');
    }
    assert.equal(headValue(held.headers, 'x-middleware-cache'), 'hit');
  });
});

describe('Answers', () => {
  it('counts a hit and sends identity when the request accepts no coding', () => {
    const entry = entryOf();
    const { answers, counters } = answersFor('/a', entry);
    const { res, sent } = fakeResponse();
    answers.serve(fakeRequest(), res, '/a', entry, false, false);
    assert.deepEqual([sent.body, counters.hits, counters.stale], [PAGE, 1, 0]);
  });

  it('compresses the coding the request prefers once, and sends the kept one to the next hit', () => {
    const entry = entryOf();
    const { answers, counters, store } = answersFor('/a', entry);
    const bodies = [fakeResponse(), fakeResponse()].map(({ res, sent }) => {
      answers.serve(fakeRequest({ 'accept-encoding': 'gzip, br' }), res, '/a', entry, false, false);
      return sent;
    });
    assert.deepEqual(bodies.map((sent) => headValue(sent.headers, 'content-encoding')), ['br', 'br']);
    assert.deepEqual(brotliDecompressSync(bodies[1]!.body!), PAGE);
    assert.equal(counters.compressions, 1);
    assert.ok(store.peek('/a')?.br);
  });

  it('sends a body too small to compress as it is whatever the request accepts', () => {
    const small = entryOf(Buffer.from('<p>short</p>'));
    const { answers, counters } = answersFor('/a', small);
    const { res, sent } = fakeResponse();
    answers.serve(fakeRequest({ 'accept-encoding': 'br' }), res, '/a', small, false, true);
    assert.deepEqual([headValue(sent.headers, 'content-encoding'), counters.compressions, counters.stale], [undefined, 0, 1]);
  });
});
