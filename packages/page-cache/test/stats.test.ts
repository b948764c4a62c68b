import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createStatsHandler } from '../src/index.js';
import { closeServer, listen, request, startCache } from './helpers.js';

describe('stats', () => {
  it('counts entries, bytes, hits, misses, stale answers, evictions and purged keys', async () => {
    const h = await startCache({ maxEntries: 2 }, (_req, res) => res.end('12345'));
    try {
      for (const path of ['/a', '/a', '/b', '/c', '/c', '/_render/static/x']) await request(h.url, path);
      h.cache.purge(['/c']);
      assert.deepEqual(h.cache.stats(), { entries: 1, bytes: 5, hits: 2, misses: 3, stale: 0, evictions: 1, purged: 1, compressions: 0, sharedHits: 0 });
      assert.equal(h.cache.size, 1);
    } finally {
      await h.close();
    }
  });
});

describe('createStatsHandler', () => {
  it('answers the stats as JSON behind the bearer secret', async () => {
    const h = await startCache();
    const { server, url } = await listen(createStatsHandler(h.cache, { secret: 'stats-token' }));
    try {
      await request(h.url, '/a');
      const ok = await request(url, '/__cache__/stats', { headers: { authorization: 'Bearer stats-token' } });
      assert.equal(ok.status, 200);
      assert.deepEqual(JSON.parse(ok.body), h.cache.stats());
      const missing = await request(url, '/__cache__/stats');
      assert.equal(missing.status, 401);
      assert.equal(missing.headers['www-authenticate'], 'Bearer');
      assert.equal((await request(url, '/__cache__/stats', { headers: { authorization: 'Bearer nope' } })).status, 403);
      const post = await request(url, '/__cache__/stats', { method: 'POST' });
      assert.equal(post.status, 405);
      assert.equal(post.headers.allow, 'GET, HEAD');
    } finally {
      await closeServer(server);
      await h.close();
    }
  });

  it('refuses every request with 403 when no secret is configured', async () => {
    const h = await startCache();
    const { server, url } = await listen(createStatsHandler(h.cache, { secret: undefined }));
    try {
      assert.equal((await request(url, '/__cache__/stats')).status, 403);
      assert.equal((await request(url, '/__cache__/stats', { headers: { authorization: 'Bearer ' } })).status, 403);
    } finally {
      await closeServer(server);
      await h.close();
    }
  });
});
