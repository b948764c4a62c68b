import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cacheForSuite, gate, htmlRenderer, request, whileHeld, withCache, type Renderer } from './helpers.js';

describe('page cache middleware: hit and miss', () => {
  const h = cacheForSuite({}, (req, res) => {
    res.setHeader('cache-control', 'public,max-age=86400');
    res.setHeader('x-set-early', ['one', 'two']);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-from-write-head': 'yes' });
    res.write('<html>');
    res.write(Buffer.from('caf\u00e9 '));
    res.write('e9', 'hex');
    res.end(` ${req.url}</html>`);
  });

  it('answers a miss from the renderer with x-middleware-cache: miss when the key is absent', async () => {
    const reply = await request(h.url, '/plog/a');
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['x-middleware-cache'], 'miss');
    assert.deepEqual(reply.bytes, Buffer.concat([Buffer.from('<html>caf\u00e9 '), Buffer.from([0xe9]), Buffer.from(' /plog/a</html>')]));
    assert.deepEqual(h.calls, ['/plog/a']);
  });

  it('replays status 200, every stored header and the same bytes with x-middleware-cache: hit when present', async () => {
    const miss = await request(h.url, '/plog/b');
    const hit = await request(h.url, '/plog/b');
    assert.equal(hit.status, 200);
    assert.equal(hit.headers['x-middleware-cache'], 'hit');
    assert.deepEqual(hit.bytes, miss.bytes);
    for (const name of ['cache-control', 'content-type', 'x-from-write-head', 'x-set-early']) {
      assert.deepEqual(hit.headers[name], miss.headers[name], name);
    }
    assert.equal(hit.headers['x-set-early'], 'one, two');
    assert.equal(Number(hit.headers['content-length']), miss.bytes.length);
    assert.equal(hit.headers['transfer-encoding'], undefined);
    assert.deepEqual(h.calls.filter((url) => url === '/plog/b'), ['/plog/b']);
    assert.equal(h.cache.stats().hits, 1);
  });

  it('serves HEAD from the GET entry without a body, and never stores from HEAD', async () => {
    const head = await request(h.url, '/plog/b', { method: 'HEAD' });
    assert.equal(head.headers['x-middleware-cache'], 'hit');
    assert.equal(head.body, '');
    assert.ok(Number(head.headers['content-length']) > 0);
    const before = h.calls.length;
    const headMiss = await request(h.url, '/plog/head-only', { method: 'HEAD' });
    assert.equal(headMiss.headers['x-middleware-cache'], 'miss');
    assert.equal((await request(h.url, '/plog/head-only')).headers['x-middleware-cache'], 'miss');
    assert.equal(h.calls.length, before + 2);
  });

  it('passes other methods to the renderer untouched', async () => {
    const post = await request(h.url, '/plog/b', { method: 'POST', body: 'x' });
    assert.equal(post.headers['x-middleware-cache'], undefined);
    assert.equal(h.calls.at(-1), '/plog/b');
  });
});

describe('page cache middleware: what is stored', () => {
  const h = cacheForSuite({}, (req, res) => {
    const path = req.url ?? '';
    if (path.startsWith('/status/')) {
      res.statusCode = Number(path.slice('/status/'.length));
      res.end('body');
    } else if (path === '/empty') res.end();
    else if (path === '/cookie') {
      res.setHeader('set-cookie', 'session=abc');
      res.end('with cookie');
    } else if (path.startsWith('/cc/')) {
      res.setHeader('cache-control', decodeURIComponent(path.slice('/cc/'.length)));
      res.end('controlled');
    } else htmlRenderer(req, res);
  });

  async function twice(path: string): Promise<string[]> {
    const first = await request(h.url, path);
    const second = await request(h.url, path);
    return [first.headers['x-middleware-cache'] as string, second.headers['x-middleware-cache'] as string];
  }

  it('stores nothing when the status is not 200', async () => {
    for (const status of [201, 301, 404, 500]) assert.deepEqual(await twice(`/status/${status}`), ['miss', 'miss'], String(status));
  });

  it('stores nothing when the body is empty', async () => {
    assert.deepEqual(await twice('/empty'), ['miss', 'miss']);
  });

  it('stores nothing when the response sets a cookie or is private or no-store', async () => {
    assert.deepEqual(await twice('/cookie'), ['miss', 'miss']);
    assert.deepEqual(await twice('/cc/private'), ['miss', 'miss']);
    assert.deepEqual(await twice(`/cc/${encodeURIComponent('public, no-store')}`), ['miss', 'miss']);
    assert.equal(h.cache.size, 0);
  });

  it('stores Set-Cookie and private responses when storeSetCookie and storePrivate restore the literal rule', async () => {
    const renderer: Renderer = (req, res) => {
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.setHeader('cache-control', 'private');
      res.end('literal');
    };
    await withCache({ storeSetCookie: true, storePrivate: true }, renderer, async (literal) => {
      await request(literal.url, '/x');
      const hit = await request(literal.url, '/x');
      assert.equal(hit.headers['x-middleware-cache'], 'hit');
      assert.deepEqual(hit.headers['set-cookie'], ['a=1', 'b=2']);
      assert.equal(hit.headers['cache-control'], 'private');
    });
  });
});

describe('page cache middleware: bypass', () => {
  it('passes bypassed paths on untouched with no header and stores nothing', async () => {
    await withCache({}, htmlRenderer, async (h) => {
      for (const path of ['/_render/image/a.png', '/_render/static/b1/app.js', '/search?q=x', '/search']) {
        const first = await request(h.url, path);
        const second = await request(h.url, path);
        assert.equal(first.headers['x-middleware-cache'], undefined, path);
        assert.equal(second.headers['x-middleware-cache'], undefined, path);
      }
      assert.equal(h.calls.length, 8);
      assert.equal(h.cache.size, 0);
      assert.deepEqual({ hits: h.cache.stats().hits, misses: h.cache.stats().misses }, { hits: 0, misses: 0 });
    });
  });
});

describe('page cache middleware: key policies', () => {
  async function states(options: Parameters<typeof withCache>[0], requests: Array<[string, Record<string, string>?]>) {
    return withCache(options, htmlRenderer, async (h) => {
      const result: string[] = [];
      for (const [path, headers] of requests) result.push((await request(h.url, path, { headers: headers ?? {} })).headers['x-middleware-cache'] as string);
      return result;
    });
  }

  it('keeps query strings apart when the key is the default url', async () => {
    assert.deepEqual(await states({}, [['/x?a=1'], ['/x?b=2'], ['/x?a=1'], ['/x?b=2&a=1'], ['/x?a=1&b=2']]), ['miss', 'miss', 'hit', 'miss', 'miss']);
  });

  it('shares one entry across query strings when the key is path', async () => {
    assert.deepEqual(await states({ key: 'path' }, [['/x?a=1'], ['/x?b=2'], ['/x']]), ['miss', 'hit', 'hit']);
  });

  it('keeps the query only under /search when the key is search-query', async () => {
    const options = { key: 'search-query' as const, bypassPrefixes: [] };
    assert.deepEqual(await states(options, [['/search?q=1'], ['/search?q=2'], ['/search?q=1'], ['/p?u=1'], ['/p?u=2']]), [
      'miss',
      'miss',
      'hit',
      'miss',
      'hit',
    ]);
  });

  it('varies on the cookie and the header when the key is path+variant', async () => {
    const dark = { cookie: 'display-mode=dark' };
    const darkFr = { cookie: 'display-mode=dark', 'accept-language': 'fr' };
    assert.deepEqual(await states({ key: 'path+variant' }, [['/x', dark], ['/x?q=1', dark], ['/x'], ['/x', darkFr], ['/x', darkFr]]), [
      'miss',
      'hit',
      'miss',
      'miss',
      'hit',
    ]);
  });

  it('uses a custom key function, and passes the request through uncached when it throws', async () => {
    const key = (req: { headers: Record<string, unknown>; url?: string }) => {
      if (req.url === '/throws') throw new Error('no key');
      return `tenant:${String(req.headers['x-tenant'])}`;
    };
    assert.deepEqual(
      await states({ key }, [['/a', { 'x-tenant': '1' }], ['/b', { 'x-tenant': '1' }], ['/a', { 'x-tenant': '2' }], ['/throws'], ['/throws']]),
      ['miss', 'hit', 'miss', undefined as unknown as string, undefined as unknown as string],
    );
  });
});

describe('page cache middleware: bounds', () => {
  it('evicts the least recently used entry, a hit refreshing recency, when maxEntries is reached', async () => {
    await withCache({ maxEntries: 2 }, htmlRenderer, async (h) => {
      const state = async (path: string) => (await request(h.url, path)).headers['x-middleware-cache'];
      assert.equal(await state('/a'), 'miss');
      assert.equal(await state('/b'), 'miss');
      assert.equal(await state('/a'), 'hit');
      assert.equal(await state('/c'), 'miss');
      assert.equal(await state('/a'), 'hit');
      assert.equal(await state('/b'), 'miss');
      assert.equal(h.cache.stats().evictions, 2);
      assert.equal(h.cache.size, 2);
    });
  });

  it('keeps the bytes held within maxBytes and never stores a larger response', async () => {
    const renderer: Renderer = (req, res) => {
      res.setHeader('cache-control', 'public');
      res.end('x'.repeat(req.url === '/big' ? 3000 : 1000));
    };
    await withCache({ maxBytes: 2500 }, renderer, async (h) => {
      for (const path of ['/a', '/b', '/c']) await request(h.url, path);
      assert.equal(h.cache.size, 2);
      assert.ok(h.cache.stats().bytes <= 2500);
      assert.equal(h.cache.stats().bytes, 2 * (1000 + 'cache-control'.length + 'public'.length));
      const big = await request(h.url, '/big');
      assert.equal(big.body.length, 3000);
      assert.equal((await request(h.url, '/big')).headers['x-middleware-cache'], 'miss');
      assert.equal((await request(h.url, '/c')).headers['x-middleware-cache'], 'hit');
    });
  });
});

describe('page cache middleware: single flight', () => {
  it('renders once and answers every concurrent request for the key with the same response', async () => {
    const hold = gate();
    const renderer: Renderer = async (req, res) => {
      res.setHeader('cache-control', 'public');
      res.write('first half, ');
      await hold.promise;
      res.end(`second half ${req.url}`);
    };
    await withCache({}, renderer, async (h) => {
      const done = await whileHeld(hold, () => request(h.url, '/slow'), 10);
      assert.equal(h.calls.length, 1);
      assert.deepEqual(new Set(done.map((r) => r.body)), new Set(['first half, second half /slow']));
      const states = done.map((r) => r.headers['x-middleware-cache']);
      assert.equal(states.filter((state) => state === 'miss').length, 1);
      assert.equal(states.filter((state) => state === 'hit').length, 9);
      assert.ok(done.every((r) => r.status === 200 && r.headers['cache-control'] === 'public'));
      assert.deepEqual({ hits: h.cache.stats().hits, misses: h.cache.stats().misses }, { hits: 9, misses: 1 });
    });
  });

  it('renders every request when singleFlight is off', async () => {
    const hold = gate();
    const renderer: Renderer = async (req, res) => {
      await hold.promise;
      res.end('page');
    };
    await withCache({ singleFlight: false }, renderer, async (h) => {
      await whileHeld(hold, () => request(h.url, '/slow'), 5);
      assert.equal(h.calls.length, 5);
    });
  });

  it('lets the followers render themselves when the leader response is not stored', async () => {
    const hold = gate();
    let first = true;
    const renderer: Renderer = async (req, res) => {
      if (first) {
        first = false;
        await hold.promise;
        res.statusCode = 500;
        res.end('leader failed');
        return;
      }
      res.end('follower rendered');
    };
    await withCache({}, renderer, async (h) => {
      const done = await whileHeld(hold, () => request(h.url, '/flaky'), 4);
      assert.equal(h.calls.length, 4);
      assert.deepEqual(done.map((r) => r.body).sort(), ['follower rendered', 'follower rendered', 'follower rendered', 'leader failed']);
      assert.ok(done.every((r) => r.headers['x-middleware-cache'] === 'miss'));
    });
  });
});
