import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { LOG_URL_MAX_CHARS } from '../../log-bounds.js';
import { installErrorMapper } from '../../http/index.js';
import { capturedLogger } from '../../test-support/captured-logger.js';
import { SqliteEngine } from '../engines/sqlite/engine.js';
import { indexedDocument } from '../test-support/search-server.js';
import { searchRoutes } from './routes.js';

const WINDOW_MS = 1_500;

describe('search rate limit under a flood', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitestack-search-flood-'));
  const engine = new SqliteEngine({ path: join(dir, 'search.sqlite') });
  const { logger, lines } = capturedLogger();
  let app: FastifyInstance;

  before(async () => {
    await engine.createIndex('site_docs_1');
    await engine.bulk('site_docs_1', [indexedDocument({ id: 'canvas', title: 'Canvas', body: 'Draw on a canvas element.' })]);
    await engine.refresh('site_docs_1');
    await engine.updateAliases([{ add: { index: 'site_docs_1', alias: 'site_docs' } }]);
    app = Fastify({ logger: false });
    installErrorMapper(app, logger);
    await app.register(searchRoutes({ engine, logger, rateLimit: { max: 5, windowMs: WINDOW_MS }, trustedProxies: [] }));
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends `count` searches from `remoteAddress` one after the other; resolves with how many were refused. */
  const flood = async (remoteAddress: string, count: number, url: string) => {
    let refused = 0;
    for (let i = 0; i < count; i++) if ((await app.inject({ url, remoteAddress })).statusCode === 429) refused++;
    return refused;
  };

  it('writes at most one line per client address and window, carrying the count and a bounded URL, when one address floods', async () => {
    const longUrl = `/api/v1/search?q=canvas&pad=${'z'.repeat(10_000)}`;
    const refusedA = await flood('203.0.113.9', 300, longUrl);
    const refusedB = await flood('198.51.100.4', 20, '/api/v1/search?q=canvas');
    assert.deepEqual([refusedA, refusedB], [295, 15]);
    assert.equal(lines.length, 0, 'nothing is logged while the window is open');
    await sleep(WINDOW_MS + 200);
    const limited = lines.filter((line) => line.msg === 'search rate limit exceeded');
    assert.deepEqual(
      limited.map(({ client, rejected }) => [client, rejected]),
      [
        ['203.0.113.9', 295],
        ['198.51.100.4', 15],
      ],
    );
    const url = String(limited[0]?.url);
    assert.ok(url.startsWith(longUrl.slice(0, LOG_URL_MAX_CHARS)) && url.length < LOG_URL_MAX_CHARS + 40, url);
    assert.equal(lines.length, 2, 'no other line was written');

    // The next window: a new count, written when the app closes.
    assert.equal(await flood('203.0.113.9', 10, '/api/v1/search?q=canvas'), 5);
    await app.close();
    assert.deepEqual(lines.slice(2).map(({ client, rejected }) => [client, rejected]), [['203.0.113.9', 5]]);
  });
});
