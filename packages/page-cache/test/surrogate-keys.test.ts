import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gate, request, withCache, type Harness } from './helpers.js';

const SECRET = 'keys-secret';
const auth = { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' };
const purge = (h: Harness, body: unknown, headers: Record<string, string> = auth) =>
  request(h.url, '/__purge__', { method: 'POST', headers, body: JSON.stringify(body) });

/** A blog in miniature: `/` lists posts 1 and 2, `/plog/<n>` shows post n, each naming what it shows. */
function blog(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const post = /^\/plog\/(\d+)/.exec(url)?.[1];
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('surrogate-key', post === undefined ? 'listing:home post:1 post:2' : `post:${post}`);
  res.end(`<p>${url}</p>`);
}

describe('purge by surrogate key', () => {
  it('purges every page that named a key, whatever its path, and replays the header on hits', async () => {
    await withCache({ purgeSecret: SECRET }, blog, async (h) => {
      for (const path of ['/', '/plog/1', '/plog/1?ref=feed', '/plog/2']) await request(h.url, path);
      const hit = await request(h.url, '/');
      assert.equal(hit.headers['x-middleware-cache'], 'hit');
      assert.equal(hit.headers['surrogate-key'], 'listing:home post:1 post:2');
      const reply = await purge(h, { keys: ['post:1'] });
      assert.equal(reply.status, 200);
      assert.deepEqual(JSON.parse(reply.body), { purged: ['/', '/plog/1', '/plog/1?ref=feed'] });
      assert.equal((await request(h.url, '/plog/2')).headers['x-middleware-cache'], 'hit');
      assert.equal((await request(h.url, '/')).headers['x-middleware-cache'], 'miss');
    });
  });

  it('lists each purged key once, pathnames first, when a purge names pathnames and keys', async () => {
    await withCache({ purgeSecret: SECRET }, blog, async (h) => {
      for (const path of ['/', '/plog/1', '/plog/2']) await request(h.url, path);
      const reply = await purge(h, { pathnames: ['/plog/2', '/none'], keys: ['post:2', 'post:1', 'post:9'] });
      assert.deepEqual(JSON.parse(reply.body), { purged: ['/plog/2', '/', '/plog/1'] });
      assert.equal(h.cache.size, 0);
      assert.equal(h.cache.stats().purged, 3);
    });
  });

  it('answers 400 with the validation message for each malformed keys value, before checking the token', async () => {
    await withCache({ purgeSecret: SECRET }, blog, async (h) => {
      const visible = 'must be 1 to 256 visible ASCII characters (no spaces or control characters)';
      const cases: Array<[unknown, string]> = [
        [{ keys: [] }, 'keys must be a non-empty array of strings'],
        [{ keys: 'post:1' }, 'keys must be a non-empty array of strings'],
        [{ keys: null }, 'keys must be a non-empty array of strings'],
        [{ keys: ['post:1', 2] }, 'keys[1] must be a string'],
        [{ keys: [''] }, `keys[0] ${visible}`],
        [{ keys: ['post 1'] }, `keys[0] ${visible}`],
        [{ keys: ['caf\u00e9'] }, `keys[0] ${visible}`],
        [{ keys: ['\u{1F600}'] }, `keys[0] ${visible}`],
        [{ keys: ['a\u0000'] }, `keys[0] ${visible}`],
        [{ keys: ['k'.repeat(257)] }, `keys[0] ${visible}`],
        [{ keys: Array.from({ length: 1001 }, (_, i) => `k${i}`) }, 'keys must hold at most 1000 entries, got 1001'],
        [{ pathnames: ['/a'], keys: [] }, 'keys must be a non-empty array of strings'],
        [{ pathnames: 'x', keys: ['post:1'] }, 'pathnames must be a non-empty array of strings'],
      ];
      for (const [body, message] of cases) {
        const reply = await purge(h, body, { authorization: 'Bearer wrong' });
        assert.equal(reply.status, 400, message);
        assert.equal(reply.body, message);
      }
      assert.equal((await purge(h, { keys: ['k'.repeat(256), '!~'] })).status, 200);
      assert.equal((await purge(h, { keys: ['post:1'] }, { 'content-type': 'application/json' })).status, 401);
      assert.equal((await purge(h, { keys: ['post:1'] }, { authorization: 'Bearer wrong' })).status, 403);
    });
  });

  it('does not store a render in flight when a key its response names is purged meanwhile', async () => {
    const hold = gate();
    await withCache(
      { purgeSecret: SECRET },
      async (req, res) => {
        await hold.promise;
        blog(req, res);
      },
      async (h) => {
        const pending = request(h.url, '/');
        await new Promise((resolve) => setTimeout(resolve, 50));
        assert.deepEqual(JSON.parse((await purge(h, { keys: ['post:2'] })).body), { purged: [] });
        hold.open();
        const outdated = await pending;
        assert.equal(outdated.status, 200);
        assert.equal(outdated.headers['cache-control'], 'no-store');
        assert.equal(h.cache.size, 0, 'the render may show post 2 as it was before the change');
        await request(h.url, '/plog/1');
        assert.equal(h.cache.size, 1, 'a later render is stored');
      },
    );
  });

  it('ignores words of the header that are not keys and stores the page under the others', async () => {
    await withCache(
      { purgeSecret: SECRET },
      (_req, res) => {
        res.setHeader('surrogate-key', ['post:1  caf\u00e9', `post:1 ${'k'.repeat(300)}\tlisting:home`]);
        res.end('page');
      },
      async (h) => {
        await request(h.url, '/x');
        assert.deepEqual(JSON.parse((await purge(h, { keys: ['listing:home'] })).body), { purged: ['/x'] });
      },
    );
  });
});
