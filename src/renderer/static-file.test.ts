import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { decodedBody, rawRequest } from '../test-support/raw-http.js';
import { preferencesMemo } from '@sitestack/page-cache';
import { prepareStaticFile, sendStaticFile, type StaticFile } from './static-file.js';

const HEAD = { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' };
const SCRIPT = Buffer.from(Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i} * 2;`).join('\n'));
/** Too short for either coding to be smaller than it. */
const TINY = Buffer.from('x');

function prepared(bytes: Buffer): StaticFile {
  return prepareStaticFile(bytes, { br: brotliCompressSync(bytes), gzip: gzipSync(bytes) }, HEAD);
}

describe('sendStaticFile', () => {
  let server: Server;
  let base: string;

  before(async () => {
    const files = new Map([
      ['/script.js', prepared(SCRIPT)],
      ['/tiny.js', prepared(TINY)],
    ]);
    const preferences = preferencesMemo();
    server = createServer((req, res) => sendStaticFile(req, res, files.get(req.url ?? '')!, preferences(req.headers['accept-encoding'])));
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  for (const [header, coding] of [
    ['br, gzip', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['identity', undefined],
    [undefined, undefined],
  ] as const) {
    it(`answers ${coding ?? 'identity'} with its exact Content-Length, Vary and ETag when Accept-Encoding is ${header ?? 'absent'}`, async () => {
      const reply = await rawRequest(base, '/script.js', { headers: header === undefined ? {} : { 'accept-encoding': header } });
      assert.equal(reply.status, 200);
      assert.equal(reply.headers['content-encoding'], coding);
      assert.equal(Number(reply.headers['content-length']), reply.bytes.length);
      assert.equal(reply.headers.vary, 'Accept-Encoding');
      assert.equal(reply.headers['cache-control'], HEAD['cache-control']);
      assert.equal(reply.headers['content-type'], HEAD['content-type']);
      assert.match(reply.headers.etag ?? '', /^"[\w-]{22}"$/);
      assert.deepEqual(decodedBody(reply), SCRIPT);
    });
  }

  it('gives each coding its own ETag and answers 304 only to the tag of the coding the request gets', async () => {
    const tags = new Map<string, string>();
    for (const coding of ['br', 'gzip', 'identity']) tags.set(coding, (await rawRequest(base, '/script.js', { headers: { 'accept-encoding': coding } })).headers.etag!);
    assert.equal(new Set(tags.values()).size, 3);
    const notModified = await rawRequest(base, '/script.js', { headers: { 'accept-encoding': 'br', 'if-none-match': tags.get('br')! } });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.bytes.length, 0);
    assert.equal(notModified.headers.etag, tags.get('br'));
    assert.equal(notModified.headers.vary, 'Accept-Encoding');
    assert.equal(notModified.headers['cache-control'], HEAD['cache-control']);
    assert.equal(notModified.headers['content-encoding'], undefined);
    const other = await rawRequest(base, '/script.js', { headers: { 'accept-encoding': 'gzip', 'if-none-match': tags.get('br')! } });
    assert.equal(other.status, 200);
    assert.equal(other.headers['content-encoding'], 'gzip');
  });

  it('answers HEAD with the head GET has and no body', async () => {
    const head = await rawRequest(base, '/script.js', { headers: { 'accept-encoding': 'br' }, method: 'HEAD' });
    const full = await rawRequest(base, '/script.js', { headers: { 'accept-encoding': 'br' } });
    assert.equal(head.bytes.length, 0);
    assert.equal(head.headers['content-length'], full.headers['content-length']);
    assert.equal(head.headers.etag, full.headers.etag);
  });

  it('sends identity to a client accepting br when the compressed bytes are no smaller', async () => {
    const reply = await rawRequest(base, '/tiny.js', { headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(reply.headers['content-encoding'], undefined);
    assert.deepEqual(reply.bytes, TINY);
    assert.equal(reply.headers.vary, 'Accept-Encoding');
  });
});
