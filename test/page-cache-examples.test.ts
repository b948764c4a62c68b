import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startExampleServer, type ExampleServer } from './support/example-server.js';

const SECRET = 'examples-purge-secret';
const EXAMPLES = ['node-http', 'express', 'fastify', 'hono'];

async function get(base: string, path: string): Promise<{ cache: string | null; body: string }> {
  const response = await fetch(base + path);
  return { cache: response.headers.get('x-middleware-cache'), body: await response.text() };
}

function purge(base: string, body: unknown): Promise<Response> {
  return fetch(`${base}/__purge__`, { method: 'POST', headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

for (const name of EXAMPLES) {
  describe(`the page cache example for ${name}`, () => {
    let server: ExampleServer;
    before(async () => {
      server = await startExampleServer(`examples/page-cache/${name}/server.ts`, { PURGE_SECRET: SECRET });
    });
    after(() => server.stop());

    it('answers a repeated page from the cache when it was rendered once', async () => {
      const first = await get(server.url, '/posts/1');
      const second = await get(server.url, '/posts/1');
      assert.equal(first.cache, 'miss');
      assert.equal(second.cache, 'hit');
      assert.equal(second.body, first.body);
      assert.match(first.body, /render \d+ of \/posts\/1/);
    });

    it('renders the page again when it is purged by pathname and when it is purged by surrogate key', async () => {
      const before = await get(server.url, '/posts/2');
      const byPath = await purge(server.url, { pathnames: ['/posts/2'] });
      assert.deepEqual(await byPath.json(), { purged: ['/posts/2'] });
      const afterPath = await get(server.url, '/posts/2');
      assert.equal(afterPath.cache, 'miss');
      assert.notEqual(afterPath.body, before.body);

      const byKey = await purge(server.url, { keys: ['page'] });
      assert.equal(byKey.status, 200);
      assert.equal((await get(server.url, '/posts/2')).cache, 'miss');
    });

    it('refuses a purge and keeps the page when the bearer token is wrong', async () => {
      await get(server.url, '/posts/3');
      const response = await fetch(`${server.url}/__purge__`, { method: 'POST', headers: { authorization: 'Bearer nope', 'content-type': 'application/json' }, body: '{"pathnames":["/posts/3"]}' });
      assert.equal(response.status, 403);
      assert.equal((await get(server.url, '/posts/3')).cache, 'hit');
    });
  });
}
