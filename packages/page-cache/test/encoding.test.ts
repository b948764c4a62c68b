import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { cacheForSuite, request, withCache, type Reply } from './helpers.js';

/** A compressible page of several kilobytes naming its URL. */
function page(url: string | undefined): string {
  return `<!doctype html><main>${Array.from({ length: 60 }, (_, i) => `<p>Paragraph ${i} of ${url}: caching, rendering and purging.</p>`).join('')}</main>`;
}

function pageRenderer(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'public,max-age=86400');
  if (req.url?.startsWith('/small')) res.end('<p>small</p>');
  else if (req.url?.startsWith('/large')) res.end(page(req.url).repeat(40));
  else if (req.url?.startsWith('/streamed')) {
    res.write('<!doctype html>');
    res.end(page(req.url));
  } else res.end(page(req.url));
}

const decoded = (reply: Reply): string => {
  const coding = reply.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(reply.bytes).toString('utf8');
  if (coding === 'gzip') return gunzipSync(reply.bytes).toString('utf8');
  return reply.body;
};

const ae = (value: string) => ({ 'accept-encoding': value });

describe('page cache encodings: negotiation on hits', () => {
  const h = cacheForSuite({}, pageRenderer);

  for (const [header, expected] of [
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0.3', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['identity', undefined],
    ['deflate, zstd', undefined],
    ['identity;q=0', undefined],
  ] as const) {
    it(`answers ${expected ?? 'identity'} when Accept-Encoding is '${header}'`, async () => {
      await request(h.url, '/plog/negotiated');
      const hit = await request(h.url, '/plog/negotiated', { headers: ae(header) });
      assert.equal(hit.headers['x-middleware-cache'], 'hit');
      assert.equal(hit.headers['content-encoding'], expected);
      assert.equal(Number(hit.headers['content-length']), hit.bytes.length);
      assert.equal(decoded(hit), page('/plog/negotiated'));
      assert.equal(hit.headers.vary, 'Accept-Encoding');
    });
  }

  it('answers identity when the request has no Accept-Encoding', async () => {
    const hit = await request(h.url, '/plog/negotiated');
    assert.equal(hit.headers['content-encoding'], undefined);
    assert.equal(hit.body, page('/plog/negotiated'));
  });
});

describe('page cache encodings: renders and Vary', () => {
  it('compresses a render on the fly with the ETag its stored encoding then has when the request asks for br', async () => {
    await withCache({}, pageRenderer, async (h) => {
      const miss = await request(h.url, '/plog/a', { headers: ae('br') });
      assert.equal(miss.headers['x-middleware-cache'], 'miss');
      assert.equal(miss.headers['content-encoding'], 'br');
      assert.equal(Number(miss.headers['content-length']), miss.bytes.length);
      assert.equal(decoded(miss), page('/plog/a'));
      const hit = await request(h.url, '/plog/a', { headers: ae('br') });
      assert.equal(hit.headers['x-middleware-cache'], 'hit');
      assert.deepEqual(hit.bytes, miss.bytes);
      assert.equal(hit.headers.etag, miss.headers.etag);
    });
  });

  it('sends Vary: Accept-Encoding on every cacheable answer, identity, encoded, 304 and HEAD alike', async () => {
    await withCache({}, pageRenderer, async (h) => {
      const replies = [
        await request(h.url, '/plog/v'),
        await request(h.url, '/plog/w', { headers: ae('gzip') }),
        await request(h.url, '/plog/v'),
        await request(h.url, '/plog/v', { headers: ae('br') }),
        await request(h.url, '/small'),
        await request(h.url, '/small'),
        await request(h.url, '/streamed'),
        await request(h.url, '/plog/x', { method: 'HEAD', headers: ae('br') }),
        await request(h.url, '/plog/v', { method: 'HEAD', headers: ae('gzip') }),
      ];
      const etag = replies[2]!.headers.etag!;
      replies.push(await request(h.url, '/plog/v', { headers: { 'if-none-match': etag } }));
      for (const [i, reply] of replies.entries()) assert.equal(reply.headers.vary, 'Accept-Encoding', `reply ${i}`);
    });
  });

  it('keeps a body below compressMinBytes as identity when the client accepts br', async () => {
    await withCache({}, pageRenderer, async (h) => {
      for (let i = 0; i < 2; i++) {
        const reply = await request(h.url, '/small', { headers: ae('br') });
        assert.equal(reply.headers['content-encoding'], undefined);
        assert.equal(reply.body, '<p>small</p>');
      }
    });
  });

  it('streams a renderer that writes before it ends as identity without an ETag, and gives its hits both', async () => {
    await withCache({}, pageRenderer, async (h) => {
      const miss = await request(h.url, '/streamed', { headers: ae('br') });
      assert.equal(miss.headers['content-encoding'], undefined);
      assert.equal(miss.headers.etag, undefined);
      const hit = await request(h.url, '/streamed', { headers: ae('br') });
      assert.equal(hit.headers['content-encoding'], 'br');
      assert.match(String(hit.headers.etag), /^"[\w-]{22}"$/);
      assert.equal(decoded(hit), miss.body);
    });
  });

  it('keeps the head a renderer wrote as a flat list, repeated names included, when it holds it until the end', async () => {
    const renderer = (req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, 'Fine', ['content-type', 'text/html', 'x-two', 'a', 'x-two', 'b', 'cache-control', 'public']);
      res.end(page(req.url));
    };
    await withCache({}, renderer, async (h) => {
      const miss = await request(h.url, '/plog/list', { headers: ae('gzip') });
      const hit = await request(h.url, '/plog/list', { headers: ae('gzip') });
      for (const reply of [miss, hit]) {
        assert.equal(reply.headers['x-two'], 'a, b');
        assert.equal(reply.headers['content-encoding'], 'gzip');
        assert.equal(decoded(reply), page('/plog/list'));
      }
      assert.equal(hit.headers.etag, miss.headers.etag);
    });
  });

  it('adds neither Vary nor an encoding when compress is off', async () => {
    await withCache({ compress: false }, pageRenderer, async (h) => {
      for (let i = 0; i < 2; i++) {
        const reply = await request(h.url, '/plog/off', { headers: ae('br, gzip') });
        assert.equal(reply.headers['content-encoding'], undefined);
        assert.equal(reply.headers.vary, undefined);
        assert.ok(reply.headers.etag);
      }
    });
  });
});

describe('page cache encodings: bodies compressed on the thread pool', () => {
  it('answers concurrent hits for an encoding of a body over 128 KiB from one compression when they arrive together', async () => {
    await withCache({}, pageRenderer, async (h) => {
      const identity = await request(h.url, '/large');
      assert.ok(identity.bytes.length > 128 * 1024);
      const replies = await Promise.all(Array.from({ length: 4 }, () => request(h.url, '/large', { headers: ae('gzip') })));
      for (const reply of replies) {
        assert.equal(reply.headers['content-encoding'], 'gzip');
        assert.equal(reply.headers.etag, replies[0]!.headers.etag);
        assert.equal(decoded(reply), identity.body);
      }
      const render = await request(h.url, '/large?fresh', { headers: ae('br') });
      assert.equal(render.headers['content-encoding'], 'br');
      assert.equal(decoded(render), page('/large?fresh').repeat(40));
    });
  });
});

describe('page cache ETags and 304', () => {
  it('gives the same ETag per encoding to the same content when the cache is a new process', async () => {
    const tags = async () =>
      withCache({}, pageRenderer, async (h) => {
        await request(h.url, '/plog/stable');
        const codings = ['identity', 'gzip', 'br'];
        const replies = await Promise.all(codings.map((coding) => request(h.url, '/plog/stable', { headers: ae(coding) })));
        return replies.map((reply) => String(reply.headers.etag));
      });
    const first = await tags();
    const second = await tags();
    assert.deepEqual(second, first);
    assert.equal(new Set(first).size, 3, 'one tag per encoding');
  });

  it('answers 304 without a body to a hit whose If-None-Match matches, with the validator fields', async () => {
    await withCache({}, pageRenderer, async (h) => {
      const full = await request(h.url, '/plog/c', { headers: ae('gzip') });
      const etag = String(full.headers.etag);
      for (const ifNoneMatch of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
        const reply = await request(h.url, '/plog/c', { headers: { ...ae('gzip'), 'if-none-match': ifNoneMatch } });
        assert.equal(reply.status, 304, ifNoneMatch);
        assert.equal(reply.bytes.length, 0);
        assert.equal(reply.headers.etag, etag);
        assert.equal(reply.headers['cache-control'], 'public,max-age=86400');
        assert.equal(reply.headers['x-middleware-cache'], 'hit');
        assert.equal(reply.headers['content-encoding'], undefined);
      }
    });
  });

  it('answers 200 when the If-None-Match names another encoding or other content', async () => {
    await withCache({}, pageRenderer, async (h) => {
      const identity = await request(h.url, '/plog/d');
      const br = await request(h.url, '/plog/d', { headers: { ...ae('br'), 'if-none-match': String(identity.headers.etag) } });
      assert.equal(br.status, 200);
      assert.equal(br.headers['content-encoding'], 'br');
      const other = await request(h.url, '/plog/d', { headers: { 'if-none-match': '"not-this"' } });
      assert.equal(other.status, 200);
      assert.equal(other.body, page('/plog/d'));
    });
  });

  it('answers 304 to a render whose If-None-Match matches, and still stores the page', async () => {
    const etags = await withCache({}, pageRenderer, async (h) => {
      const identity = await request(h.url, '/plog/e');
      const br = await request(h.url, '/plog/e', { headers: ae('br') });
      return { identity: String(identity.headers.etag), br: String(br.headers.etag) };
    });
    await withCache({}, pageRenderer, async (h) => {
      const render = await request(h.url, '/plog/e', { headers: { 'if-none-match': etags.identity } });
      assert.equal(render.status, 304);
      assert.equal(render.headers['x-middleware-cache'], 'miss');
      assert.equal(render.bytes.length, 0);
      assert.equal(render.headers.etag, etags.identity);
      assert.equal(render.headers.vary, 'Accept-Encoding');
      const renderBr = await request(h.url, '/plog/f', { headers: ae('br') });
      assert.equal(renderBr.status, 200);
      const hit = await request(h.url, '/plog/e');
      assert.equal(hit.headers['x-middleware-cache'], 'hit');
      assert.equal(hit.body, page('/plog/e'));
    });
    await withCache({}, pageRenderer, async (h) => {
      const render = await request(h.url, '/plog/e', { headers: { ...ae('br'), 'if-none-match': etags.br } });
      assert.equal(render.status, 304, 'a compressed render has the stored encoding\'s tag');
    });
  });

  it('answers HEAD like GET, 304 included, on hits and on renders', async () => {
    await withCache({}, pageRenderer, async (h) => {
      const headMiss = await request(h.url, '/plog/g', { method: 'HEAD', headers: ae('br') });
      assert.equal(headMiss.headers['x-middleware-cache'], 'miss');
      assert.equal(headMiss.bytes.length, 0);
      const get = await request(h.url, '/plog/g', { headers: ae('br') });
      assert.equal(get.headers['x-middleware-cache'], 'miss', 'a HEAD is not stored');
      for (const name of ['etag', 'content-encoding', 'content-length', 'vary']) assert.equal(headMiss.headers[name], get.headers[name], name);
      const headHit = await request(h.url, '/plog/g', { method: 'HEAD', headers: ae('br') });
      assert.equal(headHit.headers['x-middleware-cache'], 'hit');
      assert.equal(headHit.headers.etag, get.headers.etag);
      assert.equal(headHit.headers['content-length'], get.headers['content-length']);
      const conditional = { ...ae('br'), 'if-none-match': String(get.headers.etag) };
      assert.equal((await request(h.url, '/plog/g', { method: 'HEAD', headers: conditional })).status, 304);
      assert.equal((await request(h.url, '/plog/h-new', { method: 'HEAD', headers: { 'if-none-match': '*' } })).status, 304);
    });
  });
});
