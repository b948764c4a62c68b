import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../config.js';
import { silentLogger } from '../log.js';
import { closeServer, listen } from '../edge/test-support/edge-harness.js';
import { waitFor } from '../test-support/wait-for.js';
import { startOrigin, type RunningOrigin } from './origin-command.js';

const ADMIN_TOKEN = 'publication-wiring-admin';

/** A stand-in front: records its purges' pathnames and the pages it is asked for. */
async function standInFront(): Promise<{ port: number; purged: string[]; asked: string[]; close(): Promise<void> }> {
  const purged: string[] = [];
  const asked: string[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      if (req.method === 'POST') {
        purged.push(...(JSON.parse(text) as { pathnames: string[] }).pathnames);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"purged":[]}');
      } else {
        asked.push(req.url ?? '');
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
      }
    });
  });
  return { port: await listen(server), purged, asked, close: () => closeServer(server) };
}

describe('the origin process publishes scheduled posts', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp(): Promise<{ config: Config; front: Awaited<ReturnType<typeof standInFront>> }> {
    const dir = mkdtempSync(join(tmpdir(), 'sitestack-publication-wiring-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const front = await standInFront();
    cleanups.push(() => front.close());
    const config = loadConfig({
      DATA_DIR: dir,
      ORIGIN_ADMIN_TOKEN: ADMIN_TOKEN,
      PURGE_SECRET: 'publication-wiring-purge',
      PURGE_URLS: `http://127.0.0.1:${front.port}/__purge__`,
      LOG_LEVEL: 'silent',
    });
    return { config, front };
  }

  async function start(config: Config): Promise<RunningOrigin> {
    const origin = await startOrigin({ config, logger: silentLogger(), port: 0, backoff: { baseMs: 20, maxMs: 60 } });
    cleanups.push(() => origin.close());
    return origin;
  }

  const schedule = (origin: RunningOrigin, oid: string, at: number) =>
    fetch(`${origin.url}/api/v1/plog/${oid}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Curlew', body: '<p>Calling</p>', state: 'scheduled', publish_at: new Date(at).toISOString() }),
    });
  const readerStatus = async (origin: RunningOrigin, oid: string) => (await fetch(`${origin.url}/api/v1/plog/${oid}`)).status;

  it('purges and warms a scheduled post at its time', async () => {
    const { config, front } = await setUp();
    const origin = await start(config);
    const at = Date.now() + 400;
    assert.equal((await schedule(origin, 'curlew', at)).status, 201);
    assert.equal(await readerStatus(origin, 'curlew'), 404);
    await waitFor('the purge of the publication', () => front.purged.includes('/plog/curlew'));
    assert.ok(Date.now() >= at, 'not before its time');
    await waitFor('the warm-up', () => front.asked.includes('/plog/curlew'));
    assert.equal(await readerStatus(origin, 'curlew'), 200);
  });

  it('publishes a post whose time passed while the origin was stopped, when it starts again', async () => {
    const { config, front } = await setUp();
    const first = await startOrigin({ config, logger: silentLogger(), port: 0 });
    const at = Date.now() + 300;
    assert.equal((await schedule(first, 'curlew', at)).status, 201);
    await first.close();
    while (Date.now() <= at + 50) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(front.purged, [], 'no purge while the origin was down');
    const again = await start(config);
    await waitFor('the purge after the restart', () => front.purged.includes('/plog/curlew'));
    assert.equal(await readerStatus(again, 'curlew'), 200);
  });
});
