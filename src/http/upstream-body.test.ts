import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { isAppError } from '../errors.js';
import { drainBody, readBoundedBody, readBoundedText } from './upstream-body.js';

const CHUNK = Buffer.alloc(16 * 1024, 'x');

/** What the server answers next, and the bytes each answer got onto the socket before it ended or was cut. */
const next = { length: 0, declared: false, tail: Buffer.alloc(0) };
const sent: number[] = [];
let server: Server;
let url: string;

async function pour(res: ServerResponse): Promise<void> {
  let written = 0;
  while (written < next.length && !res.destroyed) {
    written += CHUNK.length;
    if (!res.write(CHUNK)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
  }
  if (!res.destroyed) res.end(next.tail);
  sent.push(written);
}

before(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, next.declared ? { 'content-length': String(next.length + next.tail.length) } : {});
    void pour(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

async function answer(length: number, declared: boolean, tail = Buffer.alloc(0)): Promise<Response> {
  Object.assign(next, { length, declared, tail });
  return fetch(url);
}

async function lastSent(): Promise<number> {
  for (let waited = 0; sent.length === 0 && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 20));
  return sent.splice(0).at(-1) ?? Number.NaN;
}

const tooLarge = (error: unknown) => isAppError(error) && error.code === 'UPSTREAM_ANSWER_TOO_LARGE' && error.status === 502;

describe('readBoundedBody', () => {
  it('reads a body of exactly the bound, declared or chunked', async () => {
    for (const declared of [true, false]) {
      assert.equal((await readBoundedBody(await answer(4 * CHUNK.length, declared), 4 * CHUNK.length, 'up')).length, 4 * CHUNK.length);
      await lastSent();
    }
  });

  it('fails before reading when the Content-Length is past the bound, and closes the connection', async () => {
    await assert.rejects(readBoundedBody(await answer(64 * 1024 * 1024, true), 1024, 'up'), (error) => tooLarge(error) && /up: the answer declares 67108864 bytes, more than the 1024 allowed/.test((error as Error).message));
    assert.ok((await lastSent()) < 32 * 1024 * 1024);
  });

  it('cancels a chunked body at the first chunk past the bound', async () => {
    await assert.rejects(readBoundedBody(await answer(64 * 1024 * 1024, false), 4 * CHUNK.length, 'up'), tooLarge);
    assert.ok((await lastSent()) < 32 * 1024 * 1024);
  });
});

describe('readBoundedText', () => {
  it('fails with UPSTREAM_ANSWER_NOT_UTF8 when the body is not UTF-8, and decodes it otherwise', async () => {
    await assert.rejects(readBoundedText(await answer(0, true, Buffer.from([0x41, 0xff, 0x42])), 1024, 'up'), (error) => isAppError(error) && error.code === 'UPSTREAM_ANSWER_NOT_UTF8');
    await lastSent();
    assert.equal(await readBoundedText(await answer(0, true, Buffer.from('漢😀')), 1024, 'up'), '漢😀');
    await lastSent();
  });
});

describe('drainBody', () => {
  it('reads a body past any bound to its end', async () => {
    await drainBody(await answer(8 * 1024 * 1024, false));
    assert.equal(await lastSent(), 8 * 1024 * 1024);
  });
});
