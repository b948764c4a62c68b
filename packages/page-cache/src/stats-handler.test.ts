import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createStatsHandler } from './stats-handler.js';

const STATS = { entries: 0, bytes: 0, hits: 0, misses: 0, stale: 0, evictions: 0, purged: 0, compressions: 0, sharedHits: 0 };

describe('createStatsHandler', () => {
  let server: Server;
  let url: string;
  before(async () => {
    server = createServer(createStatsHandler({ stats: () => STATS }, { secret: 'stats-token' }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/__cache__/stats`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  for (const [why, init, status, code] of [
    ['no bearer credentials are sent', {}, 401, 'UNAUTHORIZED'],
    ['the token is wrong', { headers: { authorization: 'Bearer nope' } }, 403, 'FORBIDDEN'],
    ['the method is not GET or HEAD', { method: 'POST' }, 405, 'METHOD_NOT_ALLOWED'],
  ] as const) {
    it(`refuses with the JSON error body of every API when ${why}`, async () => {
      const response = await fetch(url, init);
      assert.equal(response.status, status);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const body = (await response.json()) as { error: unknown; code: unknown };
      assert.deepEqual(Object.keys(body).sort(), ['code', 'error']);
      assert.equal(body.code, code);
      assert.equal(typeof body.error, 'string');
    });
  }
});
