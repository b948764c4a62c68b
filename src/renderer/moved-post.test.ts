import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { silentLogger } from '../log.js';
import { ContentStore, createOriginApp, openOriginDatabase, type OriginDatabase } from '../origin/index.js';
import { buildClient, loadClientBuild, type ClientBuild } from './build.js';
import { createRenderer } from './handler.js';

let dir: string;
let build: ClientBuild;
let db: OriginDatabase;
let origin: FastifyInstance;
let renderer: string;
const servers: Server[] = [];

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const get = (base: string, path: string, method = 'GET') => fetch(`${base}${path}`, { method, redirect: 'manual' });

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitestack-moved-'));
  await buildClient({ outDir: dir });
  build = loadClientBuild(dir);
  db = openOriginDatabase(':memory:', { seed: false });
  const store = new ContentStore(db);
  store.putPost('old-name', { title: 'Renamed', format: 'markdown', body: 'Words.', summary: '', categories: ['Web'], pub_date: '2026-05-01T00:00:00.000Z' });
  store.renamePost('old-name', 'new-name');
  origin = await createOriginApp({ db, logger: silentLogger() });
  renderer = await serve(createRenderer({ apiBase: await origin.listen({ host: '127.0.0.1', port: 0 }), build }));
});
after(async () => {
  for (const server of servers) server.close();
  await origin.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a renamed post at the renderer', () => {
  it('answers its old page 301 to the new one, when the origin says it moved', async () => {
    for (const method of ['GET', 'HEAD']) {
      const answer = await get(renderer, '/plog/old-name', method);
      assert.equal(answer.status, 301);
      assert.equal(answer.headers.get('location'), '/plog/new-name');
      assert.equal(answer.headers.get('cache-control'), 'no-store');
    }
    assert.equal((await get(renderer, '/plog/new-name')).status, 200);
  });

  it('answers its old data route 301 to the new data route, which a client following it reads', async () => {
    const answer = await get(renderer, `/_render/data/${build.buildId}/en-US/plog/old-name.json`);
    assert.equal(answer.status, 301);
    assert.equal(answer.headers.get('location'), `/_render/data/${build.buildId}/en-US/plog/new-name.json`);
    const followed = await fetch(`${renderer}/_render/data/${build.buildId}/en-US/plog/old-name.json`);
    assert.equal(followed.status, 200);
    assert.equal(((await followed.json()) as { post: { oid: string } }).post.oid, 'new-name');
  });

  it('lists the new address in the feed and the sitemap, never the old one', async () => {
    for (const path of ['/feed.xml', '/sitemap.xml']) {
      const text = await (await get(renderer, path)).text();
      assert.match(text, /\/plog\/new-name/);
      assert.doesNotMatch(text, /old-name/);
    }
  });

  it('answers 502, not a redirect elsewhere, when an origin answers 301 without a post address', async () => {
    for (const location of [undefined, 'https://evil.example/api/v1/plog/x', '/api/v1/plog/../../admin', '/api/v1/plog/UPPER']) {
      const fake = await serve((_req, res) => {
        res.writeHead(301, location === undefined ? {} : { location });
        res.end();
      });
      const broken = await serve(createRenderer({ apiBase: fake, build }));
      const answer = await get(broken, '/plog/anything');
      assert.equal(answer.status, 502, String(location));
      assert.equal(answer.headers.get('location'), null);
    }
  });
});
