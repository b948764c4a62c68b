import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startSearchServer } from '../test-support/search-server.js';
import { DOCS, get } from '../test-support/api-requests.js';

describe('search rate limit', () => {
  it('answers 429 with Retry-After and RateLimit-* headers once a client spends its budget, and no such header before', async () => {
    const server = await startSearchServer(DOCS, { rateLimit: { max: 3, windowMs: 60_000 }, trustedProxies: [] });
    try {
      const first = await get(server, '/api/v1/search?q=canvas');
      for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after']) {
        assert.equal(first.headers.get(name), null, `${name} on a shared answer`);
      }
      await get(server, '/api/v1/search?q=canvas');
      assert.equal((await get(server, '/api/v1/search?q=')).status, 400, 'invalid requests count too');
      const limited = await get(server, '/api/v1/search?q=canvas');
      assert.equal(limited.status, 429);
      assert.match((limited.body as { error: string }).error, /too many searches/);
      assert.ok(Number(limited.headers.get('retry-after')) > 0 && Number(limited.headers.get('retry-after')) <= 60);
      assert.equal(limited.headers.get('ratelimit-remaining'), '0');
      assert.equal(limited.headers.get('ratelimit-limit'), '3');
      assert.ok(Number(limited.headers.get('ratelimit-reset')) > 0);
      assert.equal(limited.headers.get('cache-control'), null);
      const spoofed = await get(server, '/api/v1/search?q=canvas', { 'x-forwarded-for': '203.0.113.9' });
      assert.equal(spoofed.status, 429, 'X-Forwarded-For from an untrusted peer is ignored');
      assert.equal((await get(server, '/api/search/autocomplete?q=can')).status, 200, 'autocomplete is not limited');
    } finally {
      await server.close();
    }
  });

  it('limits each client behind a trusted proxy by its X-Forwarded-For address', async () => {
    const server = await startSearchServer(DOCS, { rateLimit: { max: 2, windowMs: 60_000 } });
    try {
      const as = (client: string) => get(server, '/api/v1/search?q=canvas', { 'x-forwarded-for': `${client}, 127.0.0.1` });
      assert.equal((await as('198.51.100.1')).status, 200);
      assert.equal((await as('198.51.100.1')).status, 200);
      assert.equal((await as('198.51.100.1')).status, 429);
      assert.equal((await as('198.51.100.2')).status, 200, 'another client has its own budget');
    } finally {
      await server.close();
    }
  });
});
