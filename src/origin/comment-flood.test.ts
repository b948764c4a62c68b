import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capturedLogger } from '../test-support/captured-logger.js';
import { createOriginApp } from './app.js';
import { openOriginDatabase } from './database.js';

describe('origin comment rate limit under a flood', () => {
  it('writes one line for the address with the count of refused comments, not one per request, when one address floods', async () => {
    const { logger, lines } = capturedLogger();
    const db = openOriginDatabase(':memory:');
    const app = await createOriginApp({ db, logger, commentRateLimit: { max: 2, windowMs: 60_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/plog/first-look-sqlite/comments',
        remoteAddress: '203.0.113.20',
        payload: { name: 'Flood', comment: `comment ${i}` },
      });
      statuses.push(response.statusCode);
    }
    assert.deepEqual([statuses.filter((status) => status === 201).length, statuses.filter((status) => status === 429).length], [2, 98]);
    assert.equal(lines.length, 0);
    await app.close();
    db.close();
    assert.deepEqual(
      lines.map(({ msg, client, rejected, url }) => ({ msg, client, rejected, url })),
      [{ msg: 'comment rate limit exceeded', client: '203.0.113.20', rejected: 98, url: '/api/v1/plog/first-look-sqlite/comments' }],
    );
  });
});
