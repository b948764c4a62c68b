import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AutocompleteResponse } from './routes.js';
import { DOCS, fieldCodes, get, hostile, sharedSearchServer } from '../test-support/api-requests.js';

describe('GET /api/search/autocomplete', () => {
  const server = sharedSearchServer(DOCS);

  it('answers title-prefix matches by popularity, at most 10, in the documented shape', async () => {
    const response = await get(server, '/api/search/autocomplete?q=Zeb');
    assert.equal(response.status, 200);
    const body = response.body as AutocompleteResponse;
    assert.equal(body.q, 'Zeb');
    assert.equal(body.matches.length, 10);
    assert.deepEqual(body.matches[0], { title: 'Zebra stripes 11', url: '/en-US/docs/zoo/zebra11', locale: 'en-US' });
    assert.deepEqual((await get(server, '/api/search/autocomplete?q=%3Cscr')).body, {
      q: '<scr',
      matches: [{ title: '<script>alert(1)</script> element', url: '/en-US/docs/web/html/script', locale: 'en-US' }],
    });
  });

  it('answers the matches of the locale asked, at any word of a title, en-US when no locale is given', async () => {
    const urls = async (query: string) => ((await get(server, `/api/search/autocomplete?${query}`)).body as AutocompleteResponse).matches.map((match) => match.url);
    assert.deepEqual(await urls('q=fetch'), ['/en-US/docs/web/api/fetch']);
    assert.deepEqual(await urls('q=fetch&locale=fr'), ['/fr/docs/web/api/fetch']);
    assert.deepEqual(await urls('q=fetch&locale=fr&locale=en-US'), ['/en-US/docs/web/api/fetch', '/fr/docs/web/api/fetch']);
    assert.deepEqual(await urls('q=stri&locale=en-US'), (await urls('q=zebra')).slice(0, 10));
  });

  it('answers 400 through the error mapper when a locale is not a locale code', async () => {
    const response = await get(server, '/api/search/autocomplete?q=fe&locale=%3Cbad%3E');
    assert.equal(response.status, 400);
    assert.deepEqual(fieldCodes(response.body), { locale: ['invalid'] });
    assert.equal(response.headers.get('cache-control'), null);
  });

  const lengths: [string, string, boolean][] = [
    ['1 character', 'a', true],
    ['9 characters', 'zebrastri', true],
    ['10 characters', 'zebrastrip', false],
    ['11 characters', 'zebrastripe', false],
    ['9 emoji (18 UTF-16 units)', '😀'.repeat(9), true],
    ['10 emoji', '😀'.repeat(10), false],
    ['9 accented letters (18 UTF-8 bytes)', 'é'.repeat(9), true],
    ['10 CJK characters', '搜'.repeat(10), false],
  ];
  for (const [name, q, cacheable] of lengths) {
    it(`${cacheable ? 'sets' : 'omits'} Cache-Control public, max-age=3600, s-maxage=1 when q has ${name}`, async () => {
      const response = await get(server, `/api/search/autocomplete?q=${encodeURIComponent(q)}`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), cacheable ? 'public, max-age=3600, s-maxage=1' : null);
    });
  }

  it('answers 400 without Cache-Control when q is missing, empty, repeated or too long', async () => {
    for (const [query, code] of [['', 'required'], ['q=', 'required'], ['q=a&q=b', 'repeated'], [`q=${'a'.repeat(201)}`, 'too_long'], ['q[]=a', 'required']] as const) {
      const response = await get(server, `/api/search/autocomplete?${query}`);
      assert.equal(response.status, 400, query);
      assert.deepEqual(fieldCodes(response.body), { q: [code] });
      assert.equal(response.headers.get('cache-control'), null);
    }
  });

  it('never answers 500 for hostile prefixes', async () => {
    for (const q of hostile) {
      const response = await get(server, `/api/search/autocomplete?q=${encodeURIComponent(q)}`);
      assert.ok(response.status === 200 || response.status === 400, `${JSON.stringify(q)} → ${response.status}`);
    }
  });
});
