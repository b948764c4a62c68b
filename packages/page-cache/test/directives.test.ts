import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { OutgoingHttpHeaders } from 'node:http';
import { createPageCache, type PageCacheOptions } from '../src/index.js';
import { closeServer, listen, request } from './helpers.js';
import { forwardTo, page, startUpstream, type Upstream } from './upstream.js';

/**
 * Each row: the upstream's headers, and whether the page cache stores the page with lifetimes ignored (sitestack's
 * front) and honoured (`sitestack proxy`).
 */
const ROWS: Array<[OutgoingHttpHeaders, { ignore: boolean; honour: boolean }]> = [
  [{}, { ignore: true, honour: true }],
  [{ 'cache-control': 'public, max-age=60' }, { ignore: true, honour: true }],
  [{ 'cache-control': 's-maxage=60, max-age=0' }, { ignore: true, honour: true }],
  [{ 'cache-control': 'max-age=0, s-maxage=60' }, { ignore: true, honour: true }],
  [{ 'cache-control': 'max-age=60, s-maxage=0' }, { ignore: true, honour: false }],
  [{ 'cache-control': 'private' }, { ignore: false, honour: false }],
  [{ 'cache-control': 'PRIVATE, max-age=60' }, { ignore: false, honour: false }],
  [{ 'cache-control': 'private="set-cookie", max-age=60' }, { ignore: false, honour: false }],
  [{ 'cache-control': 'no-store' }, { ignore: false, honour: false }],
  [{ 'Cache-Control': ['public', 'No-Store'] }, { ignore: false, honour: false }],
  [{ 'cache-control': 'no-cache' }, { ignore: true, honour: false }],
  [{ 'cache-control': 'no-cache="set-cookie", max-age=60' }, { ignore: true, honour: false }],
  [{ 'cache-control': 'max-age=0' }, { ignore: true, honour: false }],
  [{ 'cache-control': 'max-age=0, stale-while-revalidate=60' }, { ignore: true, honour: true }],
  [{ 'cache-control': 'max-age=60, max-age=0' }, { ignore: true, honour: false }],
  [{ 'cache-control': 'max-age=60, max-age=ten' }, { ignore: true, honour: false }],
  [{ 'cache-control': 'ext="a, private, no-store", max-age=60' }, { ignore: true, honour: true }],
  [{ 'cache-control': 'x-private, no-storey, max-age=60' }, { ignore: true, honour: true }],
  [{ 'cache-control': 'max-age=60, must-revalidate' }, { ignore: true, honour: true }],
  [{ 'cache-control': 'public, max-age=60', 'set-cookie': 'session=1' }, { ignore: false, honour: false }],
  [{ 'cache-control': 'max-age=60', age: '60' }, { ignore: true, honour: false }],
  [{ expires: 'Thu, 01 Jan 2099 00:00:00 GMT' }, { ignore: true, honour: true }],
  [{ expires: '0' }, { ignore: true, honour: false }],
  [{ 'cache-control': 'max-age=60', vary: '*' }, { ignore: false, honour: false }],
  [{ 'cache-control': 'max-age=60', 'retry-after': '5' }, { ignore: false, honour: false }],
];

for (const lifetimes of ['ignore', 'honour'] as const) {
  describe(`Cache-Control from an upstream, lifetimes ${lifetimes}`, () => {
    let upstream: Upstream;
    let url = '';
    let close: () => Promise<void> = async () => undefined;
    before(async () => {
      upstream = await startUpstream((req) => page(1, ROWS[Number(req.url?.slice(1).split('?')[0])]![0]));
      const forward = forwardTo(upstream);
      const options: PageCacheOptions = { lifetimes, revalidate: (req, res) => forward(req, res, 0) };
      const cache = createPageCache(options);
      const started = await listen((req, res) => cache.handle(req, res, () => forward(req, res, 0)));
      url = started.url;
      close = () => closeServer(started.server);
    });
    after(async () => {
      await close();
      await upstream.close();
    });

    for (const [index, [headers, stored]] of ROWS.entries()) {
      it(`${stored[lifetimes] ? 'stores' : 'does not store'} the page when the upstream sends ${JSON.stringify(headers)}`, async () => {
        const first = await request(url, `/${index}`);
        assert.equal(first.status, 200);
        assert.equal(first.body, '<p>v1</p>');
        const second = await request(url, `/${index}`);
        // Stored stale at once (max-age=0 with stale-while-revalidate) answers stale, not miss.
        assert.equal(second.headers['x-middleware-cache'] !== 'miss', stored[lifetimes]);
      });
    }
  });
}

describe('hostile answers from an upstream', () => {
  const hostile: Record<string, OutgoingHttpHeaders> = {
    '/long': { 'cache-control': `${',"'.repeat(4000)}max-age=60`, vary: `${'x-a,'.repeat(300)}accept-language`, 'cache-tag': 'a,'.repeat(3000) },
    '/unicode': { 'cache-control': 'max-age=60, x-\u00e9="\u00e9,\u00e9"', 'surrogate-key': '\u00e9t\u00e9 post:1', vary: 'Accept-Language' },
    // UTF-8 bytes sent as they are (Node reads them as Latin-1): Arabic-Indic digits are no delta-seconds.
    '/digits': { 'cache-control': `max-age=${Buffer.from('\u0661\u0662').toString('latin1')}`, 'surrogate-key': 'post:1' },
    '/quotes': { 'cache-control': 'max-age="60, s-maxage=\\"0', 'cache-tag': '"a",,,', vary: ',,' },
    '/huge': { 'cache-control': `max-age=${'9'.repeat(400)}, stale-if-error=${'9'.repeat(400)}`, age: `${'9'.repeat(400)}` },
  };

  it('answers every request and stores within the rules, whatever the upstream sends', async () => {
    const upstream = await startUpstream((req) => page(1, hostile[req.url ?? ''] ?? {}));
    const cache = createPageCache({ lifetimes: 'honour', keyHeaders: ['surrogate-key', 'cache-tag'], staleIfErrorMs: 1000 });
    const forward = forwardTo(upstream);
    const { server, url } = await listen((req, res) => cache.handle(req, res, () => forward(req, res, 0)));
    try {
      for (const path of Object.keys(hostile)) {
        for (const language of ['en', '\u00e9\u00e9', 'x'.repeat(4000), '']) {
          const reply = await request(url, path, { headers: { 'accept-language': encodeURIComponent(language) } });
          assert.equal(reply.status, 200, path);
          assert.equal(reply.body, '<p>v1</p>');
        }
      }
      assert.deepEqual(cache.purge({ keys: ['post:1'] }).length, 4, 'the unicode page, stored per language, its bad key ignored');
    } finally {
      await closeServer(server);
      await upstream.close();
    }
  });
});
