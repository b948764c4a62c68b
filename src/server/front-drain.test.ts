import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../config.js';
import { silentLogger } from '../log.js';
import { startFront } from './front-command.js';

/** A stand-in origin whose list answer takes `delayMs`; `arrived` resolves when the next request reaches it. */
function slowOrigin(delayMs: number): { server: Server; arrived(): Promise<void> } {
  let waiting: (() => void) | undefined;
  const server = createServer((_req, res) => {
    waiting?.();
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"groups":[]}'), delayMs);
  });
  return { server, arrived: () => new Promise((resolve) => (waiting = resolve)) };
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('startFront close() with a slow origin', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-front-drain-'));
  const origins: Server[] = [];
  after(() => {
    for (const server of origins) server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function frontBehind(delayMs: number, shutdownTimeoutMs: number) {
    const origin = slowOrigin(delayMs);
    origins.push(origin.server);
    origin.server.listen(0, '127.0.0.1');
    await once(origin.server, 'listening');
    const { port } = origin.server.address() as { port: number };
    const config = loadConfig({ DATA_DIR: dataDir, API_BASE: `http://127.0.0.1:${port}`, SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs), LOG_LEVEL: 'silent' });
    const front = await startFront({ config, logger: silentLogger(), port: 0 });
    return { front, arrived: origin.arrived };
  }

  /** A front whose origin answers after `originDelayMs`, with a page request that has reached the origin. */
  async function renderInFlight(originDelayMs: number, shutdownTimeoutMs: number) {
    const { front, arrived } = await frontBehind(originDelayMs, shutdownTimeoutMs);
    const reaching = arrived();
    const page = get(`${front.url}/`);
    await reaching;
    return { front, page, started: Date.now() };
  }

  before(async () => {
    // The first start builds the client bundle; the tests below then start in a moment.
    const { front } = await frontBehind(0, 1_000);
    await front.close();
  });

  it('answers the page in flight in full, refuses new connections and resolves when the front is closed during the render', async () => {
    const { front, page, started } = await renderInFlight(500, 5_000);
    const closed = front.close();
    await assert.rejects(get(`${front.url}/plog`), { code: 'ECONNREFUSED' });
    const answer = await page;
    assert.equal(answer.status, 200);
    assert.match(answer.body, /<\/html>\s*$/);
    await closed;
    assert.ok(Date.now() - started < 3_000, `close() resolved once the page was answered (${Date.now() - started} ms)`);
  });

  it('cuts the render still in flight and resolves at the drain time when SHUTDOWN_TIMEOUT_MS is shorter than the render', async () => {
    const { front, page, started } = await renderInFlight(3_000, 300);
    await front.close();
    const took = Date.now() - started;
    assert.ok(took >= 290 && took < 1_500, `close() resolved at the drain time (${took} ms)`);
    await assert.rejects(page, { code: 'ECONNRESET' });
  });
});
