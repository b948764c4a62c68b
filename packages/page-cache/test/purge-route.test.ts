import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { cacheForSuite, delay, gate, htmlRenderer, recordingLogger, request, withCache, type Harness, type Renderer } from './helpers.js';

const SECRET = 's3cret-token_42';
const auth = { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' };
const post = (h: Harness, body: string | Buffer, headers: Record<string, string> = auth) =>
  request(h.url, '/__purge__', { method: 'POST', headers, body });
const purgeJson = (h: Harness, pathnames: unknown) => post(h, JSON.stringify({ pathnames }));

async function fill(h: Harness, paths: string[]): Promise<void> {
  for (const path of paths) await request(h.url, path);
}

describe('purge route', () => {
  const h = cacheForSuite({ purgeSecret: SECRET });

  it('answers 405 with Allow: POST when the method is not POST', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'HEAD']) {
      const reply = await request(h.url, '/__purge__', { method });
      assert.equal(reply.status, 405, method);
      assert.equal(reply.headers.allow, 'POST');
    }
  });

  it('answers 400 with a plain-text message when the body is not JSON', async () => {
    for (const body of ['', 'pathnames=/a', '{"pathnames": [', '\u00ff\u00fe']) {
      const reply = await post(h, body);
      assert.equal(reply.status, 400);
      assert.match(reply.headers['content-type'] ?? '', /^text\/plain/);
      assert.equal(reply.body, 'request body is not valid JSON');
    }
  });

  it('answers 400 with the validation message when pathnames is invalid', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'pathnames must be a non-empty array of strings'],
      [{ pathnames: [] }, 'pathnames must be a non-empty array of strings'],
      [{ pathnames: '/a' }, 'pathnames must be a non-empty array of strings'],
      [{ pathnames: ['/a', 7] }, 'pathnames[1] must be a string'],
      [{ pathnames: [{ toString: '/a' }] }, 'pathnames[0] must be a string'],
      [{ pathnames: ['plog/a'] }, "pathnames[0] must start with '/'"],
      [{ pathnames: ['/a\u0007'] }, 'pathnames[0] must not contain control characters'],
      [{ pathnames: [`/${'a'.repeat(2048)}`] }, 'pathnames[0] must be at most 2048 characters'],
      [{ pathnames: Array.from({ length: 1001 }, () => '/a') }, 'pathnames must hold at most 1000 entries, got 1001'],
      [['/a'], 'body must be a JSON object with a pathnames or keys array'],
      [null, 'body must be a JSON object with a pathnames or keys array'],
    ];
    for (const [body, message] of cases) {
      const reply = await post(h, JSON.stringify(body));
      assert.equal(reply.status, 400, message);
      assert.equal(reply.body, message);
    }
  });

  it('answers 400 naming the field, and purges nothing, when the body holds bytes that are not UTF-8', async () => {
    await fill(h, ['/utf8-a']);
    const bad = (prefix: string, suffix: string) => Buffer.concat([Buffer.from(prefix), Buffer.from([0xff, 0xfe]), Buffer.from(suffix)]);
    const cases: Array<[Buffer, string]> = [
      [bad('{"pathnames":["/utf8-a","/utf8-a', '"]}'), 'pathnames[1] is not valid UTF-8 (byte 32 of the body)'],
      [bad('{"keys":["post:', '"]}'), 'keys[0] is not valid UTF-8 (byte 15 of the body)'],
      [bad('{"pathnames":["/utf8-a"]', '}'), 'the body is not valid UTF-8 (byte 24 of the body)'],
    ];
    for (const [body, message] of cases) {
      const reply = await post(h, body);
      assert.equal(reply.status, 400, message);
      assert.equal(reply.body, message);
    }
    assert.equal((await request(h.url, '/utf8-a')).headers['x-middleware-cache'], 'hit');
  });

  it('answers 400 rather than crashing when the JSON is deeply nested', async () => {
    const depth = 200_000;
    const reply = await post(h, `{"pathnames":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    assert.equal(reply.status, 400);
    assert.equal(reply.body, 'pathnames[0] must be a string');
    const deepObject = await post(h, `${'{"a":'.repeat(depth / 2)}1${'}'.repeat(depth / 2)}`);
    assert.equal(deepObject.status, 400);
    assert.equal((await request(h.url, '/still-up')).status, 200);
  });

  it('validates before it checks the token', async () => {
    const reply = await post(h, JSON.stringify({ pathnames: ['nope'] }), { authorization: 'Bearer wrong' });
    assert.equal(reply.status, 400);
  });

  it('answers 401 with WWW-Authenticate: Bearer when there are no bearer credentials', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer' }]) {
      const reply = await post(h, JSON.stringify({ pathnames: ['/a'] }), headers);
      assert.equal(reply.status, 401);
      assert.equal(reply.body, 'Unauthorized');
      assert.equal(reply.headers['www-authenticate'], 'Bearer');
    }
  });

  it('answers 403 Forbidden when the token differs from the secret', async () => {
    for (const token of ['wrong', SECRET.slice(0, -1), `${SECRET}x`, 's3cret-token_42\u00e9', Buffer.from('\u{1F600}').toString('latin1')]) {
      const reply = await post(h, JSON.stringify({ pathnames: ['/a'] }), { authorization: `Bearer ${token}` });
      assert.equal(reply.status, 403, token);
      assert.equal(reply.body, 'Forbidden');
    }
  });

  it('answers 200 with exactly the keys removed, pathname by pathname, when authorised', async () => {
    await fill(h, [
      '/',
      '/plog',
      '/plog/a',
      '/plog/a?utm=1',
      '/_render/data/b1/en-US/index.json',
      '/_render/data/b1/en-US/plog/a.json',
      '/_render/data/b1/en-US/plog/ab.json',
      '/other',
    ]);
    const reply = await purgeJson(h, ['/plog/a', '/', '/plog/a', '/missing']);
    assert.equal(reply.status, 200);
    assert.match(reply.headers['content-type'] ?? '', /^application\/json/);
    assert.deepEqual(JSON.parse(reply.body), {
      purged: ['/plog/a', '/_render/data/b1/en-US/plog/a.json', '/', '/_render/data/b1/en-US/index.json'],
    });
    const states = await Promise.all(
      ['/plog/a', '/', '/_render/data/b1/en-US/index.json', '/plog/a?utm=1', '/_render/data/b1/en-US/plog/ab.json', '/other'].map(
        async (path) => (await request(h.url, path)).headers['x-middleware-cache'],
      ),
    );
    assert.deepEqual(states, ['miss', 'miss', 'miss', 'hit', 'hit', 'hit']);
    assert.deepEqual(JSON.parse((await purgeJson(h, ['/nothing-here'])).body), { purged: [] });
  });

  it('matches unicode and ../ pathnames only to equal keys as strings', async () => {
    await fill(h, ['/caf%C3%A9', '/a/../b', '/b']);
    assert.deepEqual(JSON.parse((await purgeJson(h, ['/caf\u00e9', '/\u{1F600}'])).body), { purged: [] });
    assert.deepEqual(JSON.parse((await purgeJson(h, ['/caf%C3%A9'])).body), { purged: ['/caf%C3%A9'] });
    assert.deepEqual(JSON.parse((await purgeJson(h, ['/a/../b'])).body), { purged: ['/a/../b'] });
    assert.equal((await request(h.url, '/b')).headers['x-middleware-cache'], 'hit');
  });

  it('still purges a contrived data-route key with hundreds of slashes and .json parts', async () => {
    const contrived = `/_render/data/${'x/a.json'.repeat(300)}`;
    await fill(h, [contrived]);
    assert.equal((await request(h.url, contrived)).headers['x-middleware-cache'], 'hit');
    assert.deepEqual(JSON.parse((await purgeJson(h, ['/a'])).body), { purged: [contrived] });
    assert.equal(h.cache.stats().entries, h.cache.size);
  });

  it('removes query variants too when purgeQueryVariants is on', async () => {
    await withCache({ purgeSecret: SECRET, purgeQueryVariants: true }, htmlRenderer, async (variants) => {
      await fill(variants, ['/p', '/p?a=1', '/p?b=2', '/pq?a=1']);
      assert.deepEqual(JSON.parse((await purgeJson(variants, ['/p'])).body).purged.sort(), ['/p', '/p?a=1', '/p?b=2']);
    });
  });

  it('counts purged keys in stats', () => {
    assert.equal(h.cache.stats().purged, 7);
  });
});

describe('purge route limits', () => {
  const h = cacheForSuite({ purgeSecret: SECRET });

  it('answers 413 without reading when Content-Length is over 1 MiB', async () => {
    const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(h.url);
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: '/__purge__', method: 'POST', agent: false, headers: { 'content-length': String(2 * 1024 * 1024) } },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', (error) => (String(error).includes('ECONNRESET') || String(error).includes('EPIPE') ? undefined : reject(error)));
      req.write('{"pathnames":[');
    });
    assert.equal(reply.status, 413);
    assert.equal(reply.body, 'request body larger than 1048576 bytes');
  });

  it('answers 413 when a body without Content-Length grows over 1 MiB', async () => {
    const reply = await new Promise<number>((resolve, reject) => {
      const url = new URL(h.url);
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: '/__purge__', method: 'POST', agent: false, headers: { 'transfer-encoding': 'chunked' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', (error) => (String(error).includes('ECONNRESET') || String(error).includes('EPIPE') ? undefined : reject(error)));
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (let i = 0; i < 20; i++) req.write(chunk);
    });
    assert.equal(reply, 413);
  });

  it('answers 400 for a large array of non-strings under the byte limit', async () => {
    const reply = await post(h, JSON.stringify({ pathnames: Array.from({ length: 100_000 }, (_, i) => i) }));
    assert.equal(reply.status, 400);
    assert.equal(reply.body, 'pathnames must hold at most 1000 entries, got 100000');
  });

  it('accepts a body of exactly 1 MiB', async () => {
    const padding = ' '.repeat(1024 * 1024 - JSON.stringify({ pathnames: ['/a'] }).length);
    const reply = await post(h, `${JSON.stringify({ pathnames: ['/a'] })}${padding}`);
    assert.equal(reply.status, 200);
  });
});

describe('purge route without a secret', () => {
  it('refuses every purge with 403 and logs one warning at creation', async () => {
    const { logger, lines } = recordingLogger();
    await withCache({ logger }, htmlRenderer, async (h) => {
      for (const headers of [{} as Record<string, string>, { authorization: 'Bearer anything' }, { authorization: 'Bearer ' }]) {
        const reply = await post(h, JSON.stringify({ pathnames: ['/a'] }), headers);
        assert.equal(reply.status, 403);
        assert.equal(reply.body, 'Forbidden');
      }
      const warnings = lines.filter((line) => line.level === 40);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]?.msg ?? '', /no purge secret configured/);
    });
  });
});

describe('purge()', () => {
  it('throws a 400 PageCacheError when a pathname is invalid', async () => {
    await withCache({}, htmlRenderer, async (h) => {
      assert.throws(() => h.cache.purge(['relative']), { code: 'PURGE_PATHNAMES_INVALID', status: 400 });
      assert.deepEqual(h.cache.purge(['/']), []);
    });
  });
});

describe('purgeAll()', () => {
  it('removes every entry, whatever its key or keys, and renders each page again when asked', async () => {
    await withCache({}, htmlRenderer, async (h) => {
      for (const path of ['/', '/a', '/b?x=1', '/_render/data/a.json']) await request(h.url, path);
      assert.equal(h.cache.size, 4);
      assert.deepEqual(h.cache.purgeAll().sort(), ['/', '/_render/data/a.json', '/a', '/b?x=1']);
      assert.equal(h.cache.size, 0);
      assert.equal((await request(h.url, '/a')).headers['x-middleware-cache'], 'miss');
      assert.deepEqual(h.cache.purgeAll(), ['/a']);
    });
  });

  it('keeps a render under way from storing what it answers when everything is purged during it', async () => {
    const hold = gate();
    const renderer: Renderer = async (req, res, call) => {
      if (call === 1) await hold.promise;
      htmlRenderer(req, res);
    };
    await withCache({}, renderer, async (h) => {
      const first = request(h.url, '/slow');
      await delay(50);
      h.cache.purgeAll();
      hold.open();
      assert.equal((await first).status, 200);
      assert.equal(h.cache.size, 0);
      assert.equal((await request(h.url, '/slow')).headers['x-middleware-cache'], 'miss');
    });
  });

  it('marks every entry stale instead when purges are soft', async () => {
    await withCache({ purgeMode: 'soft', revalidate: htmlRenderer }, htmlRenderer, async (h) => {
      await request(h.url, '/a');
      assert.deepEqual(h.cache.purgeAll(), ['/a']);
      assert.equal((await request(h.url, '/a')).headers['x-middleware-cache'], 'stale');
    });
  });
});
