import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EVICTIONS, PageCacheError, createPageCache, type Eviction } from '../src/index.js';
import { htmlRenderer, request, withCache } from './helpers.js';

const POPULAR = ['/', '/plog/a', '/plog/b'];

/** Popular pages asked for a few times each, then a scan of one-off URLs six times the cache: which popular pages hit after. */
async function popularHitsAfterScan(eviction: Eviction): Promise<{ hits: string[]; evictions: number }> {
  return withCache({ maxEntries: 50, eviction }, htmlRenderer, async (h) => {
    for (let round = 0; round < 3; round++) for (const path of POPULAR) await request(h.url, path);
    for (let i = 0; i < 300; i++) await request(h.url, `/scan/${i}?q=${encodeURIComponent('ü'.repeat(i % 3))}`);
    const hits: string[] = [];
    for (const path of POPULAR) if ((await request(h.url, path)).headers['x-middleware-cache'] === 'hit') hits.push(path);
    assert.ok(h.cache.size <= 50);
    return { hits, evictions: h.cache.stats().evictions };
  });
}

describe('page cache eviction option', () => {
  it('loses every popular page to a scan of one-off URLs with lru, the default', async () => {
    const { hits, evictions } = await popularHitsAfterScan('lru');
    assert.deepEqual(hits, []);
    assert.equal(evictions, 300 + 2 * POPULAR.length - 50, 'the popular pages asked again after the scan are stored again');
  });

  for (const eviction of EVICTIONS.filter((name) => name !== 'lru')) {
    it(`keeps every popular page through a scan of one-off URLs with ${eviction}`, async () => {
      const { hits, evictions } = await popularHitsAfterScan(eviction);
      assert.deepEqual(hits, POPULAR);
      assert.ok(evictions >= 300 - 50, `${evictions} evictions`);
    });

    it(`purges a page held under ${eviction}: the next request renders it again`, async () => {
      await withCache({ maxEntries: 10, eviction }, htmlRenderer, async (h) => {
        await request(h.url, '/plog/a');
        assert.equal((await request(h.url, '/plog/a')).headers['x-middleware-cache'], 'hit');
        assert.deepEqual(h.cache.purge(['/plog/a']), ['/plog/a']);
        assert.equal((await request(h.url, '/plog/a')).headers['x-middleware-cache'], 'miss');
        assert.equal(h.cache.stats().purged, 1);
      });
    });
  }

  it('refuses an eviction it does not know with the option named and the value quoted', () => {
    for (const value of ['LRU', 'sieve', 'tinylfu', 'ｌｒｕ', '', '__proto__', 'x'.repeat(10_000), 3, {}, null]) {
      assert.throws(
        () => createPageCache({ eviction: value as Eviction }),
        (error: unknown) => {
          assert.ok(error instanceof PageCacheError);
          assert.equal(error.code, 'PAGE_CACHE_OPTIONS_INVALID');
          assert.match(error.message, /^page cache: expected eviction to be one of lru, s3-fifo, w-tinylfu/);
          return true;
        },
        String(value),
      );
    }
  });
});
