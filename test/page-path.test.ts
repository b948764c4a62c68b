import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { silentLogger } from '../src/log.js';
import { startFront } from '../src/server/front-command.js';
import { adminRequest, eventually, PURGE_SECRET, startStack, type Stack } from './support/stack.js';

let stack: Stack;

async function get(path: string): Promise<{ status: number; cache: string | null; text: string; cacheControl: string | null }> {
  const response = await fetch(`${stack.frontUrl}${path}`);
  return { status: response.status, cache: response.headers.get('x-middleware-cache'), cacheControl: response.headers.get('cache-control'), text: await response.text() };
}

async function purge(pathnames: string[]): Promise<{ status: number; body: { purged: string[] } }> {
  const response = await fetch(`${stack.frontUrl}/__purge__`, {
    method: 'POST',
    headers: { authorization: `Bearer ${PURGE_SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({ pathnames }),
  });
  return { status: response.status, body: (await response.json()) as { purged: string[] } };
}

const post = (title: string) => ({ title, body: '<h2 id="one">One</h2><p>Body text.</p>', summary: 'S', categories: ['Web'], pub_date: '2026-11-20' });

before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack.close();
});

describe('page path end to end', () => {
  it('answers the first request as a miss and the second as a hit', async () => {
    for (const path of ['/', '/plog', '/plog/first-look-sqlite']) {
      const first = await get(path);
      assert.equal(first.status, 200, path);
      assert.equal(first.cache, 'miss', path);
      const second = await get(path);
      assert.equal(second.cache, 'hit', path);
      assert.equal(second.text, first.text);
      assert.equal(second.cacheControl, 'public,max-age=86400');
    }
  });

  it('shows an edited title on the next request once the purge is delivered, within 1 s', async () => {
    await adminRequest(stack, 'PUT', '/api/v1/plog/e2e-post', post('Before the edit'));
    await eventually('new post on the home page', async () => (await get('/')).text.includes('Before the edit'), 1_000);
    assert.equal((await get('/plog/e2e-post')).status, 200);
    assert.equal((await get('/plog/e2e-post')).cache, 'hit');
    const edit = await adminRequest(stack, 'PUT', '/api/v1/plog/e2e-post', post('After the edit'));
    assert.equal(edit.status, 200);
    await eventually('edited title on the post page', async () => (await get('/plog/e2e-post')).text.includes('After the edit'), 1_000);
    await eventually('edited title on the home page', async () => (await get('/')).text.includes('After the edit'), 1_000);
  });

  it('shows an approved comment on the post page within 1 s', async () => {
    const submitted = await fetch(`${stack.originUrl}/api/v1/plog/first-look-sqlite/comments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'E2E reader', comment: 'A comment worth approving' }),
    });
    assert.equal(submitted.status, 201);
    const { id } = (await submitted.json()) as { id: number };
    await get('/plog/first-look-sqlite');
    const pending = await get('/plog/first-look-sqlite');
    assert.equal(pending.cache, 'hit');
    assert.equal(pending.text.includes('A comment worth approving'), false);
    assert.equal((await adminRequest(stack, 'POST', `/api/v1/comments/${id}/approve`)).status, 200);
    await eventually('approved comment on the page', async () => (await get('/plog/first-look-sqlite')).text.includes('A comment worth approving'), 1_000);
  });

  it('delivers a purge made while the front was down once it is back', async () => {
    await stack.stopFront();
    await adminRequest(stack, 'PUT', '/api/v1/plog/while-down', post('Written while the front was down'));
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(stack.origin.outbox?.pendingJobs(), 1, 'the job waits while no front answers');
    const front = await stack.startFront();
    let purgesReceived = 0;
    front.server.on('request', (req: { url?: string }) => {
      if (req.url === '/__purge__') purgesReceived++;
    });
    await eventually('the purge delivered to the restarted front', async () => purgesReceived >= 1 && stack.origin.outbox?.pendingJobs() === 0, 5_000);
    const page = await get('/plog/while-down');
    assert.match(page.text, /Written while the front was down/);
  });

  it('clears the home page and its data route when / is purged', async () => {
    const dataPath = `/_render/data/${stack.front.buildId}/en-US/index.json`;
    for (const path of ['/', dataPath]) {
      await get(path);
      assert.equal((await get(path)).cache, 'hit', path);
    }
    const result = await purge(['/']);
    assert.equal(result.status, 200);
    assert.deepEqual([...result.body.purged].sort(), ['/', dataPath].sort());
    assert.equal((await get('/')).cache, 'miss');
    assert.equal((await get(dataPath)).cache, 'miss');
  });

  it('answers 404 for a data route of another build id', async () => {
    const stale = await get('/_render/data/stale-build-id/en-US/index.json');
    assert.equal(stale.status, 404);
    assert.equal((await get('/_render/data/stale-build-id/en-US/index.json')).cache, 'miss');
  });

  it('answers JSON 404 under /api/ and guards the cache stats with the purge secret', async () => {
    const api = await fetch(`${stack.frontUrl}/api/v1/nothing?x=%3Cscript%3E`);
    assert.equal(api.status, 404);
    assert.equal(((await api.json()) as { code: string }).code, 'NOT_FOUND');
    const song = await fetch(`${stack.frontUrl}/api/song/1/affiliate/no-such-provider`);
    assert.equal(song.status, 404);
    assert.equal(song.headers.get('x-middleware-cache'), null);
    assert.equal(typeof ((await song.json()) as { error: string }).error, 'string');
    assert.equal((await fetch(`${stack.frontUrl}/__cache__/stats`)).status, 401);
    const stats = await fetch(`${stack.frontUrl}/__cache__/stats`, { headers: { authorization: `Bearer ${PURGE_SECRET}` } });
    assert.equal(stats.status, 200);
    assert.ok(((await stats.json()) as { hits: number }).hits > 0);
  });
});

describe('front with hostile requests', () => {
  it('answers odd and hostile URLs with a 4xx or a redirect, never a 5xx', async () => {
    const { port } = new URL(stack.frontUrl);
    const raw = (path: string, method = 'GET') =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, method }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end();
      });
    const paths = [
      '//evil.example/plog',
      '/%',
      '/plog/%ZZ',
      '/plog/%00',
      '/plog/' + 'a'.repeat(5000),
      '/plog/%F0%9F%98%80',
      '/plog/../etc/passwd',
      '/en-US/search/../../x',
      '/_render/data/../../etc/passwd',
      '/_render/data/x/en-US/plog/<script>.json',
      '/_render/static/../../package.json',
      '/api/../__purge__',
      '/?q=' + '\u202e'.repeat(10),
    ];
    for (const path of paths) {
      const status = await raw(encodeURI(path).replace(/%25/g, '%'));
      assert.ok(status >= 200 && status < 500, `${path}: ${status}`);
    }
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const status = await raw('/plog', method);
      assert.equal(status, 405, method);
    }
  });

  it('answers a malformed request line with 400 and keeps serving', async () => {
    const { port } = new URL(stack.frontUrl);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('GARBAGE \u0000 HTTP/9\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('close', () => resolve(data));
    });
    assert.match(answer, /^HTTP\/1\.1 400/);
    assert.equal((await get('/')).status, 200);
  });

  it('answers a 502 error page that is never cached when the origin fails', async () => {
    const broken = createServer((_req, res) => res.writeHead(500).end());
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    const address = broken.address() as AddressInfo;
    const front = await startFront({ config: { ...stack.config, apiBase: `http://127.0.0.1:${address.port}` }, logger: silentLogger(), port: 0 });
    try {
      for (let i = 0; i < 2; i++) {
        const response = await fetch(`${front.url}/plog`);
        assert.equal(response.status, 502);
        assert.equal(response.headers.get('x-middleware-cache'), 'miss');
        assert.match(await response.text(), /Something went wrong/);
      }
      assert.equal(front.pageCache.size, 0);
    } finally {
      await front.close();
      broken.close();
    }
  });
});
