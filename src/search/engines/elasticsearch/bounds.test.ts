import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { isAppError } from '../../../errors.js';
import { ElasticsearchEngine } from './engine.js';

const HEADERS = { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' };
const CHUNK = Buffer.alloc(64 * 1024, ' ');
const MAX_RESPONSE_BYTES = 1024 * 1024;

/** A cluster that answers every request as `mode` says, counting the bytes each answer got onto the socket. */
const cluster = { mode: 'huge' as 'huge' | 'huge-length' | 'slow', sent: [] as number[] };

async function pour(res: ServerResponse, total: number): Promise<void> {
  let sent = 0;
  while (sent < total && !res.destroyed) {
    if (!res.write(CHUNK)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
    sent += CHUNK.length;
  }
  cluster.sent.push(sent);
  res.end();
}

async function trickle(res: ServerResponse): Promise<void> {
  let sent = 0;
  for (; sent < 60 && !res.destroyed; sent++) {
    res.write(sent === 0 ? '{' : ' ');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  cluster.sent.push(sent);
  res.end();
}

let server: Server;
let engine: ElasticsearchEngine;

before(async () => {
  server = createServer((_req, res) => {
    if (cluster.mode === 'slow') {
      res.writeHead(200, HEADERS);
      void trickle(res);
    } else {
      res.writeHead(200, cluster.mode === 'huge-length' ? { ...HEADERS, 'content-length': String(300_000_000) } : HEADERS);
      void pour(res, 300_000_000);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const node = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  engine = new ElasticsearchEngine({ node, readTimeoutMs: 1000, readRetries: 0, maxResponseBytes: MAX_RESPONSE_BYTES });
});

after(async () => {
  await engine.close();
  server.closeAllConnections();
  server.close();
});

async function settled(count: number): Promise<number[]> {
  for (let waited = 0; cluster.sent.length < count && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
  return cluster.sent.splice(0);
}

describe('the Elasticsearch engine with a cluster answering too much or too slowly', () => {
  for (const mode of ['huge', 'huge-length'] as const) {
    it(`fails as SEARCH_ENGINE_ERROR (502) and reads a bounded part of a 300 MB answer sent ${mode === 'huge' ? 'chunked' : 'with its Content-Length'}`, async () => {
      cluster.mode = mode;
      await assert.rejects(engine.health(), (error) => isAppError(error) && error.code === 'SEARCH_ENGINE_ERROR' && error.status === 502);
      const [sent] = await settled(1);
      assert.ok(sent !== undefined && sent <= MAX_RESPONSE_BYTES + 16 * 1024 * 1024, `the cluster got ${sent} bytes out`);
    });
  }

  it('fails as SEARCH_UNAVAILABLE when the answer trickles past the read timeout, having read a few bytes of it', async () => {
    cluster.mode = 'slow';
    await assert.rejects(engine.health(), (error) => isAppError(error) && error.code === 'SEARCH_UNAVAILABLE');
    const [sent] = await settled(1);
    assert.ok(sent !== undefined && sent < 20, `the cluster sent ${sent} bytes`);
  });
});
