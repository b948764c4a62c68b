import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { OutgoingHttpHeaders } from 'node:http';
import { createPageCache, type PageCacheOptions } from '../src/index.js';
import { delay, gate, recordingLogger, request, whileHeld, withCache, type Harness, type Reply } from './helpers.js';
import { forwardTo, page, startUpstream, type Upstream, type UpstreamAnswer } from './upstream.js';

const honour: PageCacheOptions = { lifetimes: 'honour' };

/** The page cache in front of a plain node:http upstream, the upstream answering `answer` until a test changes it. */
async function withUpstream(options: PageCacheOptions, answer: Upstream['answer'], test: (h: Harness, upstream: Upstream) => Promise<void>): Promise<void> {
  const upstream = await startUpstream(answer);
  try {
    await withCache(options, forwardTo(upstream), (h) => test(h, upstream));
  } finally {
    await upstream.close();
  }
}

const status = (reply: Reply) => reply.headers['x-middleware-cache'];

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 2_000) assert.fail(`timed out waiting until ${what}`);
    await delay(5);
  }
}

// Lifetimes are counted on a mocked clock: a test moves it on instead of waiting.
beforeEach(() => mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 0, 1) }));
afterEach(() => mock.timers.reset());
const wait = (ms: number) => mock.timers.tick(ms);

describe('lifetimes from Cache-Control', () => {
  it('keeps every response until purged, whatever its max-age, when lifetimes is ignore (the default)', async () => {
    await withUpstream({}, () => page(1, { 'cache-control': 'max-age=1' }), async (h) => {
      await request(h.url, '/a');
      wait(600_000);
      assert.equal(status(await request(h.url, '/a')), 'hit');
      assert.equal(h.calls.length, 1);
    });
  });

  it('renders again once s-maxage, which wins over max-age, has passed when lifetimes is honour', async () => {
    let version = 1;
    await withUpstream(honour, () => page(version, { 'cache-control': 'max-age=1000, s-maxage=10' }), async (h) => {
      assert.equal(status(await request(h.url, '/a')), 'miss');
      wait(9_999);
      assert.equal(status(await request(h.url, '/a')), 'hit');
      version = 2;
      wait(1);
      const renewed = await request(h.url, '/a');
      assert.deepEqual([status(renewed), renewed.body], ['miss', '<p>v2</p>']);
      assert.equal(status(await request(h.url, '/a')), 'hit');
    });
  });

  it('counts the Age the response arrived with, and Expires from its Date', async () => {
    const dated = () => ({ date: new Date(Date.now() - 5_000).toUTCString(), expires: new Date(Date.now() + 15_000).toUTCString() });
    await withUpstream(honour, (req) => page(1, req.url === '/aged' ? { 'cache-control': 'max-age=60', age: '55' } : dated()), async (h) => {
      await request(h.url, '/aged');
      await request(h.url, '/expires');
      wait(4_999);
      assert.deepEqual([status(await request(h.url, '/aged')), status(await request(h.url, '/expires'))], ['hit', 'hit']);
      wait(1);
      assert.equal(status(await request(h.url, '/aged')), 'miss');
      wait(15_000);
      assert.equal(status(await request(h.url, '/expires')), 'miss');
    });
  });

  it('does not store no-cache, max-age=0, an invalid max-age or a response already past its Expires', async () => {
    const answers: Record<string, OutgoingHttpHeaders> = {
      '/no-cache': { 'cache-control': 'no-cache' },
      '/zero': { 'cache-control': 'max-age=0' },
      '/invalid': { 'cache-control': 'max-age=soon' },
      '/expired': { expires: 'Thu, 01 Jan 1970 00:00:00 GMT' },
      '/stale-if-error-only': { 'cache-control': 'max-age=0, stale-if-error=60' },
    };
    await withUpstream(honour, (req) => page(1, answers[req.url ?? '']), async (h) => {
      for (const path of Object.keys(answers)) {
        await request(h.url, path);
        assert.equal(status(await request(h.url, path)), 'miss', path);
      }
      assert.equal(h.cache.size, 0);
    });
  });

  it('keeps a response that states no lifetime for defaultLifetimeMs', async () => {
    await withUpstream({ ...honour, defaultLifetimeMs: 5_000 }, () => page(1), async (h) => {
      await request(h.url, '/a');
      wait(4_999);
      assert.equal(status(await request(h.url, '/a')), 'hit');
      wait(1);
      assert.equal(status(await request(h.url, '/a')), 'miss');
    });
  });
});

describe('stale-while-revalidate', () => {
  it('answers at once from the expired copy while exactly one background render replaces it, within the window', async () => {
    let version = 1;
    const hold = gate();
    await withCache(
      honour,
      async (_req, res, call) => {
        const shown = version;
        if (call === 2) await hold.promise;
        res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'max-age=10, stale-while-revalidate=30' }).end(`<p>v${shown}</p>`);
      },
      async (h) => {
        await request(h.url, '/a');
        wait(10_000);
        version = 2;
        const replies = await Promise.all(Array.from({ length: 5 }, () => request(h.url, '/a')));
        for (const reply of replies) assert.deepEqual([reply.status, status(reply), reply.body], [200, 'stale', '<p>v1</p>']);
        assert.equal(h.calls.length, 2, 'one background render for five stale answers');
        hold.open();
        await until(() => h.cache.stats().stale === 5 && h.calls.length === 2, 'the answers are counted');
        let fresh = await request(h.url, '/a');
        for (let tries = 0; status(fresh) !== 'hit' && tries < 100; tries++) fresh = (await delay(10), await request(h.url, '/a'));
        assert.deepEqual([status(fresh), fresh.body], ['hit', '<p>v2</p>']);
      },
    );
  });

  it('renders as a miss once the window has passed', async () => {
    await withUpstream(honour, () => page(1, { 'cache-control': 'max-age=10, stale-while-revalidate=30' }), async (h) => {
      await request(h.url, '/a');
      wait(40_000);
      assert.equal(status(await request(h.url, '/a')), 'miss');
    });
  });

  it('stores max-age=0 with stale-while-revalidate, to answer stale at once from then on', async () => {
    await withUpstream(honour, () => page(1, { 'cache-control': 'max-age=0, stale-while-revalidate=30' }), async (h) => {
      await request(h.url, '/a');
      assert.equal(status(await request(h.url, '/a')), 'stale');
    });
  });
});

describe('stale-if-error', () => {
  const failing: UpstreamAnswer = { status: 503, headers: { 'content-type': 'text/plain', 'set-cookie': 'id=1', 'retry-after': '5' }, body: 'down' };

  it('answers from the expired copy when the upstream answers 5xx within the window, without its headers, and logs it', async () => {
    const log = recordingLogger();
    let answer = page(1, { 'cache-control': 'max-age=10, stale-if-error=60' });
    await withUpstream({ ...honour, logger: log.logger }, () => answer, async (h) => {
      await request(h.url, '/a');
      wait(10_000);
      answer = failing;
      const reply = await request(h.url, '/a');
      assert.deepEqual([reply.status, status(reply), reply.body], [200, 'stale', '<p>v1</p>']);
      assert.equal(reply.headers['set-cookie'], undefined);
      assert.equal(reply.headers['retry-after'], undefined);
      assert.ok(log.lines.some((line) => /stale-if-error/.test(line.msg)), 'logged');
      wait(60_000);
      const past = await request(h.url, '/a');
      assert.deepEqual([past.status, past.body], [503, 'down'], 'past the window the error goes through');
    });
  });

  it('answers from the held copy when the renderer throws, and to every request that waited on that render', async () => {
    const hold = gate();
    await withCache(
      { ...honour, staleIfErrorMs: 60_000 },
      async (_req, res, call) => {
        if (call === 1) return void res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'max-age=1' }).end('<p>v1</p>');
        await hold.promise;
        throw new Error('renderer down');
      },
      async (h) => {
        await request(h.url, '/a');
        wait(1_000);
        const replies = await whileHeld(hold, () => request(h.url, '/a'), 4);
        for (const reply of replies) assert.deepEqual([reply.status, status(reply), reply.body], [200, 'stale', '<p>v1</p>']);
        assert.equal(h.calls.length, 2);
      },
    );
  });

  it('lets the error through when no copy is held, and for must-revalidate without stale-if-error', async () => {
    let answer: UpstreamAnswer = failing;
    await withUpstream({ ...honour, staleIfErrorMs: 60_000 }, () => answer, async (h) => {
      assert.equal((await request(h.url, '/never')).status, 503);
      answer = page(1, { 'cache-control': 'max-age=1, must-revalidate' });
      await request(h.url, '/a');
      wait(1_000);
      answer = failing;
      assert.equal((await request(h.url, '/a')).status, 503);
    });
  });

  it('uses staleIfErrorMs for a response without stale-if-error, and answers a 502 of an unreachable upstream', async () => {
    const upstream = await startUpstream(() => page(1, { 'cache-control': 'max-age=1' }));
    await withCache({ ...honour, staleIfErrorMs: 30_000 }, forwardTo(upstream), async (h) => {
      await request(h.url, '/a');
      await upstream.close();
      wait(29_999);
      const reply = await request(h.url, '/a');
      assert.deepEqual([reply.status, status(reply), reply.body], [200, 'stale', '<p>v1</p>']);
      wait(1_001);
      assert.equal((await request(h.url, '/a')).status, 502);
    });
  });

  it('keeps a soft-purged copy whose background render fails, and answers from it in place of a failing miss', async () => {
    let failing = false;
    await withCache(
      { purgeMode: 'soft', purgeSecret: 's', staleMaxMs: 1_000, staleIfErrorMs: 60_000 },
      (_req, res) => {
        if (failing) throw new Error('renderer down');
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p>v1</p>');
      },
      async (h) => {
        await request(h.url, '/a');
        h.cache.purge(['/a']);
        failing = true;
        assert.equal(status(await request(h.url, '/a')), 'stale');
        await until(() => h.calls.length === 2, 'the background render ran');
        await delay(20);
        assert.equal(h.cache.size, 1, 'kept for stale-if-error');
        wait(5_000);
        const reply = await request(h.url, '/a');
        assert.deepEqual([reply.status, status(reply), reply.body], [200, 'stale', '<p>v1</p>']);
        assert.equal(h.calls.length, 3, 'a miss past staleMaxMs, answered from the copy');
      },
    );
  });
});

describe('Vary', () => {
  const varying = (headers: OutgoingHttpHeaders) => (req: { headers: Record<string, string | string[] | undefined> }) =>
    ({ status: 200, headers: { 'content-type': 'text/html', ...headers }, body: `<p>${String(req.headers['accept-language'] ?? '-')} ${String(req.headers.cookie ?? '-')}</p>` }) as UpstreamAnswer;
  const asking = (language: string, more: Record<string, string> = {}) => ({ headers: { 'accept-language': language, ...more } });

  it('stores one variant per value of the headers it names, each found only by requests with that value', async () => {
    await withUpstream({}, varying({ vary: 'Accept-Language' }), async (h) => {
      assert.equal((await request(h.url, '/a', asking('en'))).body, '<p>en -</p>');
      assert.equal((await request(h.url, '/a', asking('fr'))).body, '<p>fr -</p>');
      const again = await request(h.url, '/a', asking(' en '));
      assert.deepEqual([status(again), again.body], ['hit', '<p>en -</p>']);
      assert.equal((await request(h.url, '/a')).body, '<p>- -</p>', 'no value is a variant of its own');
      assert.equal(h.calls.length, 3);
      assert.deepEqual(h.cache.purge(['/a']).length, 3, 'a purge removes every variant');
      assert.equal(status(await request(h.url, '/a', asking('en'))), 'miss');
    });
  });

  it('never stores Vary: *', async () => {
    await withUpstream({}, varying({ vary: 'Accept-Language, *' }), async (h) => {
      await request(h.url, '/a', asking('en'));
      assert.equal(status(await request(h.url, '/a', asking('en'))), 'miss');
      assert.equal(h.cache.size, 0);
    });
  });

  it('stores a response varying on Cookie only for requests that carry none, and never answers a cookie from it', async () => {
    await withUpstream({}, varying({ vary: 'Cookie' }), async (h) => {
      await request(h.url, '/a', asking('en', { cookie: 'session=1' }));
      assert.equal(h.cache.size, 0);
      await request(h.url, '/a', asking('en'));
      assert.equal(status(await request(h.url, '/a', asking('en'))), 'hit');
      const personal = await request(h.url, '/a', asking('en', { cookie: 'session=2' }));
      assert.deepEqual([status(personal), personal.body], ['miss', '<p>en session=2</p>']);
      assert.equal(h.cache.size, 1);
    });
  });

  it('renders for a request that waited on a render of another variant', async () => {
    const hold = gate();
    const upstream = await startUpstream(varying({ vary: 'accept-language' }));
    const forward = forwardTo(upstream);
    await withCache({}, async (req, res, call) => {
      if (call === 1) await hold.promise;
      return forward(req, res, call);
    }, async (h) => {
      const first = request(h.url, '/a', asking('en'));
      await delay(50);
      const second = request(h.url, '/a', asking('fr'));
      const third = request(h.url, '/a', asking('en'));
      await delay(50);
      hold.open();
      const [en, fr, enAgain] = await Promise.all([first, second, third]);
      assert.deepEqual([en.body, fr.body, enAgain.body], ['<p>en -</p>', '<p>fr -</p>', '<p>en -</p>']);
      assert.equal(status(enAgain), 'hit');
      assert.equal(h.calls.length, 2);
    });
    await upstream.close();
  });
});

describe('surrogate keys from response headers', () => {
  const tagged = () => page(1, { 'cache-tag': 'post:1, listing:home ,bad tag', 'surrogate-key': 'author:7 post:9' });

  it('reads Cache-Tag as a comma-separated list and Surrogate-Key as a space-separated one', async () => {
    await withUpstream({ keyHeaders: ['Surrogate-Key', 'Cache-Tag'] }, tagged, async (h) => {
      await request(h.url, '/a');
      for (const key of ['post:1', 'listing:home', 'author:7', 'post:9']) {
        await request(h.url, '/a');
        assert.deepEqual(h.cache.purge({ keys: [key] }), ['/a'], key);
      }
      await request(h.url, '/a');
      assert.deepEqual(h.cache.purge({ keys: ['bad'] }), [], 'a tag with a space is no key');
    });
  });

  it('reads only Surrogate-Key and passes the headers on by default', async () => {
    await withUpstream({}, tagged, async (h) => {
      const miss = await request(h.url, '/a');
      const hit = await request(h.url, '/a');
      for (const reply of [miss, hit]) assert.deepEqual([reply.headers['cache-tag'], reply.headers['surrogate-key']], ['post:1, listing:home ,bad tag', 'author:7 post:9']);
      assert.deepEqual(h.cache.purge({ keys: ['post:1'] }), []);
    });
  });

  it('removes the key headers from misses, hits and HEADs when hideKeyHeaders is on', async () => {
    await withUpstream({ keyHeaders: ['surrogate-key', 'cache-tag'], hideKeyHeaders: true }, tagged, async (h) => {
      const replies = [await request(h.url, '/a', { method: 'HEAD' }), await request(h.url, '/a'), await request(h.url, '/a')];
      assert.deepEqual(replies.map(status), ['miss', 'miss', 'hit']);
      for (const reply of replies) assert.deepEqual([reply.headers['cache-tag'], reply.headers['surrogate-key']], [undefined, undefined]);
      assert.deepEqual(h.cache.purge({ keys: ['post:1'] }), ['/a'], 'hidden, still read');
    });
  });
});

describe('freshness options', () => {
  it('refuses values the cache cannot work with, naming the option', () => {
    const cases: Array<[PageCacheOptions, RegExp]> = [
      [{ lifetimes: 'always' as never }, /lifetimes/],
      [{ defaultLifetimeMs: 0 }, /defaultLifetimeMs/],
      [{ defaultLifetimeMs: 1.5 }, /defaultLifetimeMs/],
      [{ staleIfErrorMs: -1 }, /staleIfErrorMs/],
      [{ keyHeaders: ['surrogate key'] }, /keyHeaders/],
      [{ keyHeaders: 'cache-tag' as never }, /keyHeaders/],
      [{ keyHeaders: ['é'] }, /keyHeaders/],
    ];
    for (const [options, message] of cases) assert.throws(() => createPageCache(options), { code: 'PAGE_CACHE_OPTIONS_INVALID', message }, JSON.stringify(options));
  });
});
