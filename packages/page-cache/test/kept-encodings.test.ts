import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pbkdf2, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { delay, gate, request, withCache, type Reply } from './helpers.js';

/**
 * Pages by the start of their path: `/text` a few KB of HTML, `/large` HTML over 128 KiB (compressed on the thread
 * pool), `/noise` base64 that hardly compresses (its br and gzip together are larger than half the identity body, which
 * an entry once refused to hold). Each render names its call number, so a render after a purge has other content.
 */
function pageRenderer(req: IncomingMessage, res: ServerResponse, call: number): void {
  const url = req.url ?? '/';
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'public,max-age=86400');
  const paragraphs = (count: number) => Array.from({ length: count }, (_, i) => `<p>Paragraph ${i} of ${url}, render ${call}.</p>`).join('');
  if (url.startsWith('/large')) res.end(`<main>${paragraphs(4000)}</main>`);
  else if (url.startsWith('/noise')) res.end(`<pre>render ${call} ${randomBytes(6000).toString('base64')}</pre>`);
  else res.end(`<main>${paragraphs(80)}</main>`);
}

function decoded(reply: Reply): string {
  const coding = reply.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(reply.bytes).toString('utf8');
  if (coding === 'gzip') return gunzipSync(reply.bytes).toString('utf8');
  return reply.body;
}

const ae = (value: string) => ({ 'accept-encoding': value });

/** Accept-Encoding values as clients send them, including ones naming no coding the cache makes. */
const HEADERS = ['gzip', 'br', 'gzip, deflate, br', 'br;q=0.5, gzip', 'x-gzip', '*', 'identity', 'deflate', 'br;q=0, gzip;q=0', ''];

describe('page cache kept encodings', () => {
  it('serves brotli hits from a stored copy when a gzip-only client asked for the page first', async () => {
    await withCache({}, pageRenderer, async (h) => {
      const gzip = await request(h.url, '/noise', { headers: ae('gzip') });
      assert.equal(gzip.headers['content-encoding'], 'gzip');
      const first = await request(h.url, '/noise', { headers: ae('br') });
      assert.equal(first.headers['content-encoding'], 'br');
      const compressions = h.cache.stats().compressions;
      assert.equal(compressions, 2);
      for (let i = 0; i < 5; i++) {
        const hit = await request(h.url, '/noise', { headers: ae('br') });
        assert.equal(hit.headers['x-middleware-cache'], 'hit');
        assert.equal(hit.headers.etag, first.headers.etag);
        assert.equal(decoded(hit), decoded(gzip));
      }
      assert.equal(h.cache.stats().compressions, compressions, 'no hit compressed again');
      assert.equal(h.calls.length, 1);
    });
  });

  it('compresses each coding at most once per entry, every answer decoding to the identity body, when clients ask in any order and concurrently', async () => {
    await withCache({}, pageRenderer, async (h) => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('/text', '/large', '/noise'),
          fc.array(fc.array(fc.constantFrom(...HEADERS), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
          async (kind, groups) => {
            const path = `${kind}/${run++}`;
            const before = h.cache.stats().compressions;
            const replies: Reply[] = [];
            for (const group of groups) replies.push(...(await Promise.all(group.map((header) => request(h.url, path, { headers: ae(header) })))));
            const identity = await request(h.url, path);
            assert.equal(identity.headers['x-middleware-cache'], 'hit');
            const codings = new Set(replies.map((reply) => reply.headers['content-encoding']).filter((coding) => coding !== undefined));
            assert.equal(h.cache.stats().compressions - before, codings.size, `codings sent: ${[...codings].join(', ')}`);
            for (const reply of replies) {
              assert.equal(reply.status, 200);
              assert.equal(Number(reply.headers['content-length']), reply.bytes.length);
              assert.equal(decoded(reply), identity.body);
            }
          },
        ),
        { numRuns: 40 },
      );
    });
  });

  it('keeps a coding whose body hardly compresses, and counts every kept body in stats().bytes', async () => {
    await withCache({}, pageRenderer, async (h) => {
      const identity = await request(h.url, '/noise');
      const br = await request(h.url, '/noise', { headers: ae('br') });
      const gzip = await request(h.url, '/noise', { headers: ae('gzip') });
      const bodies = identity.bytes.length + br.bytes.length + gzip.bytes.length;
      const { bytes } = h.cache.stats();
      assert.ok(bytes >= bodies && bytes < bodies + 300, `${bytes} bytes held for bodies of ${bodies}`);
    });
  });

  it('evicts to stay within maxBytes when an entry gains a coding', async () => {
    const page = await withCache({}, pageRenderer, async (h) => (await request(h.url, '/noise/a')).bytes.length);
    await withCache({ maxBytes: page * 3 }, pageRenderer, async (h) => {
      await request(h.url, '/noise/a');
      await request(h.url, '/noise/b');
      assert.equal(h.cache.stats().entries, 2);
      await request(h.url, '/noise/b', { headers: ae('br') });
      assert.equal(h.cache.stats().entries, 2, 'identity and one coding of /b fit beside /a');
      await request(h.url, '/noise/b', { headers: ae('gzip') });
      const stats = h.cache.stats();
      assert.equal(stats.entries, 1);
      assert.equal(stats.evictions, 1);
      assert.ok(stats.bytes <= page * 3);
      assert.equal((await request(h.url, '/noise/b', { headers: ae('br') })).headers['x-middleware-cache'], 'hit');
    });
  });

  it('compresses once per coding for single-flight followers, whatever coding the leader was sent', async () => {
    const hold = gate();
    await withCache(
      {},
      async (req, res, call) => {
        await hold.promise;
        pageRenderer(req, res, call);
      },
      async (h) => {
        const replies = [request(h.url, '/text', { headers: ae('gzip') })];
        await delay(50);
        for (const header of ['br', 'br', 'gzip', 'br']) replies.push(request(h.url, '/text', { headers: ae(header) }));
        await delay(100);
        hold.open();
        const answered = await Promise.all(replies);
        assert.deepEqual(
          answered.map((reply) => reply.headers['content-encoding']),
          ['gzip', 'br', 'br', 'gzip', 'br'],
        );
        assert.equal(h.calls.length, 1);
        assert.equal(h.cache.stats().compressions, 2);
      },
    );
  });
});

/**
 * Occupies every thread of libuv's pool for about `ms`: a compression queued meanwhile (bodies over 128 KiB) finishes
 * only after them, which holds it open while the test changes the entry.
 */
async function busyThreadPool(ms: number): Promise<() => Promise<void>> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => pbkdf2('calibrate', 'salt', 20_000, 32, 'sha256', (error) => (error === null ? resolve() : reject(error))));
  const iterations = Math.ceil((20_000 * ms) / Math.max(1, performance.now() - started));
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const jobs = Array.from(
    { length: Math.max(threads, availableParallelism()) },
    () => new Promise<void>((resolve, reject) => pbkdf2('busy', 'salt', iterations, 32, 'sha256', (error) => (error === null ? resolve() : reject(error)))),
  );
  return async () => {
    await Promise.all(jobs);
  };
}

describe('page cache kept encodings: bodies compressed on the thread pool', () => {
  it('compresses a body over 128 KiB once when hits for its coding arrive together', async () => {
    await withCache({}, pageRenderer, async (h) => {
      const identity = await request(h.url, '/large');
      assert.ok(identity.bytes.length > 128 * 1024);
      const replies = await Promise.all(Array.from({ length: 4 }, () => request(h.url, '/large', { headers: ae('br') })));
      for (const reply of replies) assert.equal(decoded(reply), identity.body);
      assert.equal(h.cache.stats().compressions, 1);
    });
  });

  it('does not give the entry that replaced a purged one the copy compressed from the purged one', async () => {
    await withCache({}, pageRenderer, async (h) => {
      const old = await request(h.url, '/large');
      const released = await busyThreadPool(600);
      const oldBr = request(h.url, '/large', { headers: ae('br') });
      await delay(100);
      assert.deepEqual(h.cache.purge(['/large']), ['/large']);
      const fresh = await request(h.url, '/large');
      assert.notEqual(fresh.body, old.body);
      await released();
      assert.equal(decoded(await oldBr), old.body, 'the hit asked before the purge gets the content it asked for');
      const freshBr = await request(h.url, '/large', { headers: ae('br') });
      assert.equal(freshBr.headers['x-middleware-cache'], 'hit');
      assert.equal(decoded(freshBr), fresh.body);
      assert.equal(h.cache.stats().compressions, 2);
    });
  });
});
