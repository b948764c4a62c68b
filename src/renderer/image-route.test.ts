import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { silentLogger } from '../log.js';
import { createOriginApp, openOriginDatabase, type OriginDatabase } from '../origin/index.js';
import { photoJpeg } from '../origin/images/test-support/fixtures.js';
import { createImageRoute, type ImageRouteOptions } from './image-route.js';

const TOKEN = 'front-images-token';
const HASH = '0123456789abcdef0123456789abcdef';

describe('the front\'s image route', () => {
  const servers: Server[] = [];
  let dir: string;
  let db: OriginDatabase;
  let origin: FastifyInstance;
  let originUrl: string;
  let uploaded: { hash: string; src: string };

  const serve = async (handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> => {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  /** A front answering `/_render/image/<name>` with the route over `apiBase`. */
  const frontOver = (apiBase: string, extra: Partial<ImageRouteOptions> = {}) => {
    const route = createImageRoute({ apiBase, fetch, timeoutMs: 2_000, maxBytes: 1024 * 1024, logger: silentLogger(), ...extra });
    return serve((req, res) => route(req, res, (req.url ?? '').replace(/^\/_render\/image\//, '')));
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitestack-front-images-'));
    db = openOriginDatabase(':memory:', { seed: false });
    origin = await createOriginApp({ db, logger: silentLogger(), adminToken: TOKEN, images: { dir } });
    originUrl = await origin.listen({ host: '127.0.0.1', port: 0 });
    const response = await fetch(`${originUrl}/api/v1/images`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: new Uint8Array(await photoJpeg(1000, 750)) });
    uploaded = (await response.json()) as { hash: string; src: string };
  });
  after(async () => {
    for (const server of servers) server.close();
    await origin.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams each file from the origin with immutable, typed, nosniff headers when the name is one of ours', async () => {
    const front = await frontOver(originUrl);
    for (const name of [`${uploaded.hash}-480.webp`, `${uploaded.hash}-960.jpg`, `${uploaded.hash}-1000.webp`]) {
      const response = await fetch(`${front}/_render/image/${name}`);
      assert.equal(response.status, 200, name);
      assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(response.headers.get('content-type'), name.endsWith('.webp') ? 'image/webp' : 'image/jpeg');
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(response.headers.get('etag'), `"${name}"`);
      const direct = Buffer.from(await (await fetch(`${originUrl}/api/v1/images/${name}`)).arrayBuffer());
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), direct);
    }
    const head = await fetch(`${front}/_render/image/${uploaded.hash}-480.webp`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.ok(Number(head.headers.get('content-length')) > 0);
    const again = await fetch(`${front}/_render/image/${uploaded.hash}-480.webp`, { headers: { 'if-none-match': `"${uploaded.hash}-480.webp"` } });
    assert.equal(again.status, 304);
  });

  it('answers 404, never cached and without asking the origin, when the name is hostile or not one of ours', async () => {
    let asked = 0;
    const counting = await serve((_req, res) => {
      asked++;
      res.writeHead(500).end();
    });
    const front = await frontOver(counting);
    for (const name of ['..%2F..%2Forigin.sqlite', '%2e%2e', `${HASH}-480.svg`, `${HASH}-480.jpg%00`, '%C3%BF', `${HASH}-0480.jpg`, '', `${HASH.toUpperCase()}-480.jpg`]) {
      const response = await fetch(`${front}/_render/image/${name}`);
      assert.equal(response.status, 404, name);
      assert.equal(response.headers.get('cache-control'), 'no-store');
    }
    assert.equal(asked, 0);
    const unknown = await fetch(`${await frontOver(originUrl)}/_render/image/${'f'.repeat(32)}-480.jpg`);
    assert.equal(unknown.status, 404);
  });

  it('answers 502, never cached, when the origin fails, has no length, declares too much or is unreachable', async () => {
    const misbehaving = await serve((req, res) => {
      if (req.url?.includes('-1.')) res.writeHead(500).end('boom');
      else if (req.url?.includes('-2.')) res.writeHead(200, { 'content-type': 'image/jpeg' }).end(Buffer.alloc(10));
      else res.writeHead(200, { 'content-length': String(2 * 1024 * 1024) }).end();
    });
    const front = await frontOver(misbehaving);
    for (const width of [1, 2, 3]) {
      const response = await fetch(`${front}/_render/image/${HASH}-${width}.jpg`);
      assert.equal(response.status, 502, String(width));
      assert.equal(response.headers.get('cache-control'), 'no-store');
    }
    const closed = await serve(() => undefined);
    servers.pop()?.close();
    const unreachable = await fetch(`${await frontOver(closed.replace(/:\d+$/, ':1'))}/_render/image/${HASH}-480.jpg`);
    assert.equal(unreachable.status, 502);
  });

  it('cuts the answer short rather than pass on more bytes than the origin declared', async () => {
    const lying = await serve((_req, res) => {
      const socket = res.socket;
      socket?.write('HTTP/1.1 200 OK\r\ncontent-length: 4\r\ncontent-type: image/jpeg\r\n\r\n0123456789');
      socket?.end();
    });
    const response = await fetch(`${await frontOver(lying)}/_render/image/${HASH}-480.jpg`);
    const body = Buffer.from(await response.arrayBuffer());
    assert.ok(body.length <= 4, `${body.length} bytes`);
  });
});
