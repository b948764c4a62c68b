import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RecentUrls } from './recent-urls.js';

describe('RecentUrls', () => {
  it('keeps the most recently used distinct URLs, at most its capacity, for any sequence', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 }).map((n) => `/p${n}`), { maxLength: 200 }), fc.integer({ min: 1, max: 10 }), (urls, capacity) => {
        const recent = new RecentUrls(capacity);
        for (const url of urls) recent.add(url);
        const expected: string[] = [];
        for (const url of [...urls].reverse()) if (!expected.includes(url) && expected.length < capacity) expected.push(url);
        assert.deepEqual(new Set(recent.pathnameChunks(1_000, 100).flat()), new Set(expected));
      }),
    );
  });

  it('purges a URL with a query both as it is and by its path, in chunks, when asked', () => {
    const recent = new RecentUrls(10);
    for (const url of ['/a', '/search?q=x', '/a', '/b']) recent.add(url);
    assert.deepEqual(recent.pathnameChunks(2, 100), [['/search', '/search?q=x'], ['/a', '/b']]);
    recent.clear();
    assert.deepEqual(recent.pathnameChunks(2, 100), []);
  });

  it('leaves out what no purge takes when a URL is too long or not a path', () => {
    const recent = new RecentUrls(10);
    recent.add('*');
    recent.add(`/${'x'.repeat(50)}`);
    assert.deepEqual(recent.pathnameChunks(10, 20), []);
  });
});
