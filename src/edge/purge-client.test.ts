import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { CdnPurgeError, purgeCdn, resolvePurgeUrl } from './purge-client.js';
import { closeServer, listen } from './test-support/edge-harness.js';

const SECRET = 'purge-client-test-secret';

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

describe('purgeCdn', () => {
  const seen: Seen[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let baseUrl = '';
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    seen.push({ url, headers: req.headers });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    if (url.startsWith('/hang')) return; // never answers: the timeout must end it
    const status = url.startsWith('/fail')
      ? 500
      : url.startsWith('/gone')
        ? 404
        : url.startsWith('/withdrawn')
          ? 410
          : url.startsWith('/forbidden')
            ? 403
            : url.startsWith('/moved')
              ? 302
              : url.startsWith('/renamed')
                ? 301
                : 200;
    setTimeout(() => {
      if (url.startsWith('/stale')) res.setHeader('x-middleware-cache', 'stale');
      // How our edge answers: BYPASS to a refresh, HIT or MISS to an ordinary request (a secret it does not take).
      res.setHeader('x-cache', url.startsWith('/ignored') ? 'HIT' : 'BYPASS');
      res.writeHead(status, status === 301 || status === 302 ? { location: '/elsewhere' } : {});
      res.end('x'.repeat(50_000));
    }, 10);
  });

  before(async () => {
    baseUrl = `http://127.0.0.1:${await listen(server)}`;
  });
  after(() => closeServer(server));

  const reset = () => {
    seen.length = 0;
    maxInFlight = 0;
  };

  it('refreshes every URL with a GET carrying secret-header when they all succeed', async () => {
    reset();
    const refreshed = await purgeCdn(['/plog/a', '/', '/plog?page=2'], { secret: SECRET, baseUrl });
    assert.deepEqual(refreshed, [`${baseUrl}/plog/a`, `${baseUrl}/`, `${baseUrl}/plog?page=2`]);
    assert.deepEqual(seen.map((s) => s.url).sort(), ['/', '/', '/', '/plog/a', '/plog/a', '/plog/a', '/plog?page=2', '/plog?page=2', '/plog?page=2']);
    for (const { headers } of seen) assert.equal(headers['secret-header'], SECRET);
    const codings = seen.filter((s) => s.url === '/plog/a').map((s) => s.headers['accept-encoding']);
    assert.deepEqual(codings, ['br', 'gzip', 'identity'], 'one refresh per copy the edge keeps');
  });

  it('refreshes a data route with one request, since the edge keeps it as one copy whatever the coding', async () => {
    reset();
    const route = '/_render/data/b1/en-US/plog/a.json';
    assert.deepEqual(await purgeCdn([route, '/plog/a'], { secret: SECRET, baseUrl }), [`${baseUrl}${route}`, `${baseUrl}/plog/a`]);
    assert.deepEqual(seen.filter((s) => s.url === route).map((s) => s.headers['accept-encoding']), ['gzip']);
    assert.equal(seen.filter((s) => s.url === '/plog/a').length, 3);
  });

  it('counts a 404 or 410 as refreshed, since the edge then holds the gone answer in place of the page', async () => {
    reset();
    const refreshed = await purgeCdn(['/gone', '/withdrawn', '/ok'], { secret: SECRET, baseUrl });
    assert.deepEqual(refreshed, [`${baseUrl}/gone`, `${baseUrl}/withdrawn`, `${baseUrl}/ok`]);
  });

  it('tries every URL and names each failed one, as refreshed and as given, when some fail', async () => {
    reset();
    const urls = ['/ok-1', 'fail-1', '/ok-2', '/gone', '/forbidden', '/moved', '/renamed', '/ok-3'];
    await assert.rejects(purgeCdn(urls, { secret: SECRET, baseUrl }), (error: unknown) => {
      assert.ok(error instanceof CdnPurgeError);
      assert.equal(error.code, 'CDN_PURGE_FAILED');
      assert.deepEqual(error.failures, [
        { url: `${baseUrl}/fail-1`, requested: 'fail-1', reason: 'answered 500' },
        { url: `${baseUrl}/forbidden`, requested: '/forbidden', reason: 'answered 403' },
        { url: `${baseUrl}/moved`, requested: '/moved', reason: 'answered 302' },
      ]);
      assert.match(error.message, /failed for 3 of 8 URL\(s\)/);
      for (const failure of error.failures) assert.ok(error.message.includes(failure.url));
      return true;
    });
    assert.deepEqual(
      [...new Set(seen.map((s) => s.url))].sort(),
      urls.map((url) => (url.startsWith('/') ? url : `/${url}`)).sort(),
      'every URL was tried, and the redirect not followed',
    );
  });

  it("fails a URL as stale, naming the front's stale copy, when the front answers from its soft-purged copy", async () => {
    reset();
    await assert.rejects(purgeCdn(['/stale', '/ok'], { secret: SECRET, baseUrl }), (error: unknown) => {
      assert.ok(error instanceof CdnPurgeError);
      assert.equal(error.failures.length, 1);
      const [failure] = error.failures;
      assert.equal(failure?.url, `${baseUrl}/stale`);
      assert.equal(failure?.stale, true);
      assert.match(failure?.reason ?? '', /stale copy \(x-middleware-cache: stale\)/);
      return true;
    });
    assert.equal(seen.filter((s) => s.url === '/ok').length, 3, 'the other URL is refreshed in every coding');
  });

  it('fails a URL the edge answered as an ordinary request, naming EDGE_REFRESH_SECRET, when its X-Cache is not BYPASS', async () => {
    reset();
    await assert.rejects(purgeCdn(['/ignored', '/ok'], { secret: SECRET, baseUrl }), (error: unknown) => {
      assert.ok(error instanceof CdnPurgeError);
      assert.deepEqual(error.failures.map((f) => f.requested), ['/ignored']);
      assert.match(error.failures[0]?.reason ?? '', /X-Cache: HIT.*EDGE_REFRESH_SECRET/);
      return true;
    });
  });

  it('reports a URL as timed out when the edge does not answer in time, and still tries the others', async () => {
    reset();
    await assert.rejects(purgeCdn(['/hang', '/ok'], { secret: SECRET, baseUrl, timeoutMs: 200 }), (error: unknown) => {
      assert.ok(error instanceof CdnPurgeError);
      assert.deepEqual(error.failures, [{ url: `${baseUrl}/hang`, requested: '/hang', reason: 'timed out' }]);
      return true;
    });
    assert.deepEqual([...new Set(seen.map((s) => s.url))].sort(), ['/hang', '/ok']);
  });

  it('reports a network error naming the URL when nothing listens there', async () => {
    const closed = createServer();
    const port = await listen(closed);
    await closeServer(closed);
    await assert.rejects(purgeCdn(['/a'], { secret: SECRET, baseUrl: `http://127.0.0.1:${port}` }), (error: unknown) => {
      assert.ok(error instanceof CdnPurgeError);
      assert.equal(error.failures[0]?.url, `http://127.0.0.1:${port}/a`);
      assert.match(error.failures[0]?.reason ?? '', /ECONNREFUSED/);
      return true;
    });
  });

  it('keeps at most `concurrency` requests in flight when given many URLs', async () => {
    reset();
    const urls = Array.from({ length: 20 }, (_, i) => `/page-${i}`);
    await purgeCdn(urls, { secret: SECRET, baseUrl, concurrency: 3 });
    assert.equal(seen.length, 60, 'three codings per URL');
    assert.ok(maxInFlight <= 3 && maxInFlight >= 2, `max in flight ${maxInFlight}`);
  });

  it('refuses an absolute URL on another origin without sending it anything', async () => {
    reset();
    await assert.rejects(purgeCdn(['http://evil.example/x', '//evil.example/y', '/ok'], { secret: SECRET, baseUrl }), (error: unknown) => {
      assert.ok(error instanceof CdnPurgeError);
      assert.deepEqual(
        error.failures.map((f) => [f.url, f.requested]),
        [
          ['http://evil.example/x', 'http://evil.example/x'],
          ['//evil.example/y', '//evil.example/y'],
        ],
      );
      assert.match(error.failures[0]?.reason ?? '', /not on the CDN base URL's origin/);
      return true;
    });
    assert.deepEqual([...new Set(seen.map((s) => s.url))], ['/ok']);
  });

  it('resolves nothing and sends nothing when the list is empty', async () => {
    reset();
    assert.deepEqual(await purgeCdn([], { secret: SECRET, baseUrl }), []);
    assert.equal(seen.length, 0);
  });

  it('uses the fetch it is given', async () => {
    const calls: string[] = [];
    const fetchImpl: typeof fetch = async (input) => {
      calls.push(String(input));
      return new Response(null, { status: 204 });
    };
    await purgeCdn(['/a'], { secret: SECRET, baseUrl: 'http://cdn.example', fetch: fetchImpl });
    assert.deepEqual(calls, ['http://cdn.example/a', 'http://cdn.example/a', 'http://cdn.example/a']);
  });

  it('throws a clear error before sending anything when concurrency or timeout is not a positive integer', async () => {
    reset();
    for (const options of [{ concurrency: 0 }, { concurrency: Number.NaN }, { timeoutMs: -5 }, { timeoutMs: 1.5 }]) {
      await assert.rejects(purgeCdn(['/a'], { secret: SECRET, baseUrl, ...options }), { code: 'CDN_PURGE_OPTIONS_INVALID' }, JSON.stringify(options));
    }
    assert.equal(seen.length, 0);
  });

  it('throws a clear error when the base URL is not an http(s) URL', async () => {
    for (const bad of ['', 'cdn.example', 'ftp://cdn.example', 'http://cdn.example/?q=1']) {
      await assert.rejects(purgeCdn(['/a'], { secret: SECRET, baseUrl: bad }), { code: 'CDN_BASE_URL_INVALID' }, bad);
    }
  });
});

describe('resolvePurgeUrl', () => {
  const base = new URL('http://cdn.example:8080');

  it('prefixes relative URLs with the base with exactly one slash between them', () => {
    assert.equal(resolvePurgeUrl('/plog/a', base), 'http://cdn.example:8080/plog/a');
    assert.equal(resolvePurgeUrl('plog/a', base), 'http://cdn.example:8080/plog/a');
    assert.equal(resolvePurgeUrl('plog/a', new URL('http://cdn.example:8080///')), 'http://cdn.example:8080/plog/a');
    assert.equal(resolvePurgeUrl('/', base), 'http://cdn.example:8080/');
    assert.equal(resolvePurgeUrl('/x?q=1', base), 'http://cdn.example:8080/x?q=1');
  });

  it('keeps the path prefix of a base URL that has one', () => {
    const prefixed = new URL('http://cdn.example/site/');
    assert.equal(resolvePurgeUrl('/plog/a', prefixed), 'http://cdn.example/site/plog/a');
    assert.equal(resolvePurgeUrl('plog/a', new URL('http://cdn.example/site')), 'http://cdn.example/site/plog/a');
  });

  it('encodes unicode and spaces when the path has them', () => {
    assert.equal(resolvePurgeUrl('/café song', base), 'http://cdn.example:8080/caf%C3%A9%20song');
  });

  it('refuses a URL that fetch would send as another one, rather than refresh that one', () => {
    for (const url of ['/plog/x/../y', '/plog/./y', '/plog/%2E%2e/y', '/plog/.%2E', '/plog\\y', '/plog/y#frag', '/plog/\ty', 'http://cdn.example:8080/a/../b', '//cdn.example:8080/a/./b']) {
      assert.throws(() => resolvePurgeUrl(url, base), /not refreshed as written/, url);
    }
    assert.equal(resolvePurgeUrl('/plog/..x?a=/../b', base), 'http://cdn.example:8080/plog/..x?a=/../b', 'dots in a query or inside a segment stay');
  });

  it('accepts an absolute URL on the base origin and refuses one elsewhere', () => {
    assert.equal(resolvePurgeUrl('http://CDN.example:8080/a', base), 'http://cdn.example:8080/a');
    for (const foreign of ['http://cdn.example:8081/a', 'https://cdn.example:8080/a', 'http://other/a', 'javascript:alert(1)', 'http://cdn.example:8080@evil/a', '//plog/a']) {
      assert.throws(() => resolvePurgeUrl(foreign, base), /not on the CDN base URL's origin|not a valid URL/, foreign);
    }
  });

  it('never leaves the base origin nor changes the path it is given for a relative URL, whatever its characters (property)', () => {
    const bases = ['http://cdn.example:8080', 'http://cdn.example/site/', 'https://[::1]:8443/a/b'];
    const relative = fc
      .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 3 }), fc.constantFrom('/', '.', '..', '%2e', '?', '#', '\\')), { maxLength: 8 })
      .map((parts) => parts.join(''))
      .filter((url) => !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith('//'));
    fc.assert(
      fc.property(fc.constantFrom(...bases), relative, (baseText, url) => {
        const base = new URL(baseText);
        let resolved: URL;
        try {
          resolved = new URL(resolvePurgeUrl(url, base));
        } catch (error) {
          assert.match((error as Error).message, /not refreshed as written/);
          return;
        }
        assert.equal(resolved.origin, base.origin);
        const path = url.replace(/^\/+/, '').split('?')[0]!;
        assert.equal(resolved.pathname.split('/').length, `${base.pathname.replace(/\/+$/, '')}/${path}`.split('/').length, 'no segment removed');
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts an absolute URL only on the base origin (property)', () => {
    const base = new URL('http://cdn.example:8080');
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        let resolved: string | undefined;
        try {
          resolved = resolvePurgeUrl(url, base);
        } catch {
          resolved = undefined;
        }
        if (new URL(url).origin !== base.origin) assert.equal(resolved, undefined, url);
      }),
    );
  });
});
