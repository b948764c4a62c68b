import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createPageCache } from '../src/index.js';
import { delay, gate, request, withCache, type Harness } from './helpers.js';

const SECRET = 'soft-secret';
const purge = (h: Harness, body: unknown) =>
  request(h.url, '/__purge__', { method: 'POST', headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The content as it stands: each render shows the version current when it ran (or `shown`, read when it started). */
interface Site {
  version: number;
  render(req: IncomingMessage, res: ServerResponse, shown?: number): void;
}

function site(): Site {
  const state: Site = {
    version: 1,
    render(req: IncomingMessage, res: ServerResponse, shown = state.version) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.setHeader('surrogate-key', 'post:1');
      res.end(`<p>${req.url} v${shown}</p>`);
    },
  };
  return state;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 2_000) assert.fail(`timed out waiting until ${what}`);
    await delay(5);
  }
}

/** Asks for `path` until it is answered as a hit (the background render stored), for up to a second; the last answer. */
async function firstHit(h: Harness, path: string): Promise<Awaited<ReturnType<typeof request>>> {
  let reply = await request(h.url, path);
  for (let tries = 0; reply.headers['x-middleware-cache'] !== 'hit' && tries < 100; tries++) {
    await delay(10);
    reply = await request(h.url, path);
  }
  return reply;
}

describe('soft purge', () => {
  it('answers at once from the stale copy while exactly one background render replaces it', async () => {
    const content = site();
    const hold = gate();
    await withCache(
      { purgeSecret: SECRET, purgeMode: 'soft' },
      async (req, res, call) => {
        if (call === 2) await hold.promise;
        content.render(req, res);
      },
      async (h) => {
        await request(h.url, '/plog/1');
        content.version = 2;
        assert.deepEqual(JSON.parse((await purge(h, { keys: ['post:1'] })).body), { purged: ['/plog/1'] });
        const replies = await Promise.all(Array.from({ length: 10 }, () => request(h.url, '/plog/1')));
        for (const reply of replies) {
          assert.equal(reply.status, 200);
          assert.equal(reply.headers['x-middleware-cache'], 'stale');
          assert.equal(reply.body, '<p>/plog/1 v1</p>');
        }
        assert.equal(h.calls.length, 2, 'one background render for the ten stale answers');
        hold.open();
        await until(() => h.cache.stats().entries === 1 && h.calls.length === 2, 'the background render is stored');
        await until(() => h.cache.stats().stale === 10, 'the stale answers are counted');
        const fresh = await firstHit(h, '/plog/1');
        assert.equal(fresh.headers['x-middleware-cache'], 'hit');
        assert.equal(fresh.body, '<p>/plog/1 v2</p>');
        assert.equal(h.calls.length, 2);
        assert.deepEqual(
          { hits: h.cache.stats().hits, misses: h.cache.stats().misses, stale: h.cache.stats().stale },
          { hits: h.cache.stats().hits, misses: 1, stale: 10 },
          'the background render is not a reader\'s miss',
        );
      },
    );
  });

  it('stores the overtaken render as the stale copy and renders again when a purge arrives during the background render', async () => {
    const content = site();
    const hold = gate();
    await withCache(
      { purgeSecret: SECRET, purgeMode: 'soft' },
      async (req, res, call) => {
        const shown = content.version;
        if (call === 2) await hold.promise;
        content.render(req, res, shown);
      },
      async (h) => {
        await request(h.url, '/plog/1');
        content.version = 2;
        await purge(h, { pathnames: ['/plog/1'] });
        assert.equal((await request(h.url, '/plog/1')).headers['x-middleware-cache'], 'stale');
        await delay(20);
        content.version = 3;
        await purge(h, { keys: ['post:1'] });
        hold.open();
        await delay(20);
        const stillStale = await request(h.url, '/plog/1');
        assert.equal(stillStale.headers['x-middleware-cache'], 'stale', 'the overtaken render is stored stale, not fresh');
        assert.equal(stillStale.body, '<p>/plog/1 v2</p>', 'and it replaces the older copy');
        await until(() => h.calls.length === 3, 'a second background render starts');
        const fresh = await firstHit(h, '/plog/1');
        assert.equal(fresh.body, '<p>/plog/1 v3</p>');
      },
    );
  });

  it('serves the copy of two purges in a row with one background render', async () => {
    const content = site();
    await withCache({ purgeSecret: SECRET, purgeMode: 'soft' }, (req, res) => content.render(req, res), async (h) => {
      await request(h.url, '/plog/1');
      content.version = 2;
      assert.deepEqual(JSON.parse((await purge(h, { keys: ['post:1'] })).body), { purged: ['/plog/1'] });
      assert.deepEqual(JSON.parse((await purge(h, { keys: ['post:1'] })).body), { purged: ['/plog/1'] }, 'still listed: it is still held');
      assert.equal((await request(h.url, '/plog/1')).headers['x-middleware-cache'], 'stale');
      await until(() => h.calls.length === 2, 'the background render ran');
      await delay(20);
      const fresh = await request(h.url, '/plog/1');
      assert.equal(fresh.headers['x-middleware-cache'], 'hit');
      assert.equal(fresh.body, '<p>/plog/1 v2</p>');
    });
  });

  it('renders as a miss when the stale entry was evicted', async () => {
    const content = site();
    await withCache({ purgeSecret: SECRET, purgeMode: 'soft', maxEntries: 1 }, (req, res) => content.render(req, res), async (h) => {
      await request(h.url, '/plog/1');
      await purge(h, { keys: ['post:1'] });
      await request(h.url, '/other');
      content.version = 2;
      const reply = await request(h.url, '/plog/1');
      assert.equal(reply.headers['x-middleware-cache'], 'miss');
      assert.equal(reply.body, '<p>/plog/1 v2</p>');
    });
  });

  it('drops the stale entry when the background render fails, so the next request renders', async () => {
    for (const failure of ['status', 'throws', 'no-store'] as const) {
      const content = site();
      await withCache(
        { purgeSecret: SECRET, purgeMode: 'soft' },
        (req, res, call) => {
          if (call === 2) {
            if (failure === 'throws') throw new Error('origin down');
            if (failure === 'no-store') res.setHeader('cache-control', 'no-store');
            else res.statusCode = 502;
          }
          content.render(req, res);
        },
        async (h) => {
          await request(h.url, '/plog/1');
          await purge(h, { keys: ['post:1'] });
          assert.equal((await request(h.url, '/plog/1')).headers['x-middleware-cache'], 'stale', failure);
          await until(() => h.cache.size === 0, `the stale entry is dropped (${failure})`);
          content.version = 2;
          const next = await request(h.url, '/plog/1');
          assert.equal(next.headers['x-middleware-cache'], 'miss', failure);
          assert.equal(next.body, '<p>/plog/1 v2</p>');
        },
      );
    }
  });

  it('lets the page move on while purges come faster than renders', async () => {
    const content = site();
    await withCache(
      { purgeSecret: SECRET, purgeMode: 'soft' },
      async (req, res, call) => {
        if (call > 1) await delay(60);
        content.render(req, res);
      },
      async (h) => {
        await request(h.url, '/plog/1');
        const seen = new Set<string>();
        for (let edit = 2; edit <= 8; edit++) {
          content.version = edit;
          await purge(h, { keys: ['post:1'] });
          const reply = await request(h.url, '/plog/1');
          assert.equal(reply.headers['x-middleware-cache'], 'stale');
          seen.add(reply.body);
          await delay(25);
        }
        assert.ok(seen.size >= 3, `readers saw newer versions during the storm, not only the first: ${[...seen].join(', ')}`);
      },
    );
  });

  it('never serves a stale copy later than staleMaxMs after its purge, even while its background render hangs', async () => {
    const content = site();
    await withCache(
      { purgeSecret: SECRET, purgeMode: 'soft', staleMaxMs: 150 },
      async (req, res, call) => {
        if (call === 2) await new Promise(() => undefined);
        content.render(req, res);
      },
      async (h) => {
        await request(h.url, '/plog/1');
        await purge(h, { keys: ['post:1'] });
        assert.equal((await request(h.url, '/plog/1')).headers['x-middleware-cache'], 'stale');
        await delay(200);
        content.version = 2;
        const reply = await request(h.url, '/plog/1');
        assert.equal(reply.headers['x-middleware-cache'], 'miss');
        assert.equal(reply.body, '<p>/plog/1 v2</p>');
        await purge(h, { keys: ['post:1'] });
        assert.equal((await request(h.url, '/plog/1')).headers['x-middleware-cache'], 'stale');
        await until(() => h.calls.length === 4, 'a new stale episode renders again though the lost render never ended');
      },
    );
  });

  it('answers HEAD and If-None-Match from the stale copy, and renders the background copy as a whole GET', async () => {
    const content = site();
    await withCache({ purgeSecret: SECRET, purgeMode: 'soft' }, (req, res) => content.render(req, res), async (h) => {
      const first = await request(h.url, '/plog/1');
      await purge(h, { keys: ['post:1'] });
      content.version = 2;
      const head = await request(h.url, '/plog/1', { method: 'HEAD', headers: { 'if-none-match': String(first.headers.etag) } });
      assert.equal(head.status, 304);
      assert.equal(head.headers['x-middleware-cache'], 'stale');
      await until(() => h.calls.length === 2, 'the background render ran');
      await delay(20);
      const fresh = await request(h.url, '/plog/1');
      assert.equal(fresh.headers['x-middleware-cache'], 'hit');
      assert.equal(fresh.body, '<p>/plog/1 v2</p>');
    });
  });

  it('removes what it matches, as the spec says, when purgeMode is delete (the default)', async () => {
    await withCache({ purgeSecret: SECRET }, (req, res) => site().render(req, res), async (h) => {
      await request(h.url, '/plog/1');
      await purge(h, { keys: ['post:1'] });
      assert.equal(h.cache.size, 0);
      assert.equal((await request(h.url, '/plog/1')).headers['x-middleware-cache'], 'miss');
    });
  });

  it('refuses soft purge without a revalidate function and an unknown mode, naming the option', () => {
    assert.throws(() => createPageCache({ purgeMode: 'soft', revalidate: undefined }), { message: /purgeMode 'soft' needs the revalidate option/ });
    assert.throws(() => createPageCache({ purgeMode: 'lazy' as 'soft' }), { message: "page cache: expected purgeMode to be one of delete, soft, got 'lazy'" });
    assert.throws(() => createPageCache({ staleMaxMs: 0 }), { message: /expected staleMaxMs to be a positive integer/ });
  });
});
