import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { startSearchServer } from '../test-support/search-server.js';
import type { SearchResponse } from './routes.js';
import { DOCS, fieldCodes, get, hostile, search, sharedSearchServer, urls } from '../test-support/api-requests.js';

describe('GET /api/v1/search', () => {
  const server = sharedSearchServer(DOCS);

  it('answers the documented shape with Cache-Control public, max-age=10, s-maxage=1 when the query is valid', async () => {
    const response = await get(server, '/api/v1/search?q=canvas');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'public, max-age=10, s-maxage=1');
    const body = response.body as SearchResponse;
    assert.deepEqual(Object.keys(body).sort(), ['documents', 'metadata', 'suggestions']);
    assert.deepEqual(Object.keys(body.metadata).sort(), ['page', 'size', 'took_ms', 'total']);
    assert.deepEqual(body.metadata.total, { value: 2, relation: 'eq' });
    assert.equal(body.metadata.size, 10);
    assert.equal(body.metadata.page, 1);
    const [first] = body.documents;
    assert.deepEqual(Object.keys(first ?? {}).sort(), ['highlight', 'locale', 'popularity', 'score', 'slug', 'summary', 'title', 'url']);
    assert.deepEqual(first?.highlight.title, ['<mark>Canvas</mark>']);
    assert.deepEqual(body.suggestions, []);
  });

  it('answers 400 with every field error and no Cache-Control when parameters are invalid', async () => {
    const response = await get(server, '/api/v1/search?sort=loud&size=0&page=11&locale=not%20a%20locale');
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('cache-control'), null);
    assert.deepEqual(fieldCodes(response.body), {
      q: ['required'],
      locale: ['invalid'],
      sort: ['invalid_choice'],
      size: ['out_of_range'],
      page: ['out_of_range'],
    });
    for (const list of Object.values((response.body as { errors: Record<string, { message: string }[]> }).errors)) {
      for (const item of list) assert.ok(item.message.length > 0);
    }
  });

  const rules: [string, Record<string, string[]>][] = [
    ['', { q: ['required'] }], ['q=', { q: ['required'] }], ['q=%20%20%09', { q: ['required'] }], [`q=${'a'.repeat(201)}`, { q: ['too_long'] }],
    [`q=${encodeURIComponent('😀'.repeat(201))}`, { q: ['too_long'] }], ['q=a&q=b', { q: ['repeated'] }],
    ['q=a&sort=best&sort=relevance', { sort: ['repeated'] }],
    ['q=a&size=1&size=2', { size: ['repeated'] }],
    ['q=a&page=1&page=1', { page: ['repeated'] }],
    ['q=a&size=101', { size: ['out_of_range'] }], ['q=a&size=abc', { size: ['not_an_integer'] }], ['q=a&size=1.5', { size: ['not_an_integer'] }],
    ['q=a&size=-1', { size: ['not_an_integer'] }], ['q=a&size=%2B5', { size: ['not_an_integer'] }],
    ['q=a&page=0', { page: ['out_of_range'] }], ['q=a&page=1e1', { page: ['not_an_integer'] }],
    ['q=a&sort=BEST', { sort: ['invalid_choice'] }],
    ['q=a&locale=%3Cscript%3E', { locale: ['invalid'] }],
    [`q=a&${Array.from({ length: 11 }, (_, i) => `locale=l${String.fromCharCode(97 + i)}`).join('&')}`, { locale: ['too_many'] }],
    [`q=a&${Array.from({ length: 11 }, (_, i) => `slug_prefix=docs/${i}`).join('&')}`, { slug_prefix: ['too_many'] }],
    [`q=a&slug_prefix=${'d'.repeat(201)}`, { slug_prefix: ['too_long'] }], ['q=a&slug_prefix=docs%00', { slug_prefix: ['invalid'] }],
    ['q=a&exact=true', { exact: ['invalid_choice'] }], ['q=a&exact=2', { exact: ['invalid_choice'] }],
    ['q=a&exact=1&exact=1', { exact: ['repeated'] }],
  ];
  for (const [query, expected] of rules) {
    it(`answers 400 ${JSON.stringify(expected)} when the query string is '${query.slice(0, 60)}'`, async () => {
      const response = await get(server, `/api/v1/search?${query}`);
      assert.equal(response.status, 400);
      assert.deepEqual(fieldCodes(response.body), expected);
    });
  }

  it('accepts a q of exactly 200 characters, counted in code points', async () => {
    assert.equal((await get(server, `/api/v1/search?q=${'a'.repeat(200)}`)).status, 200);
    assert.equal((await get(server, `/api/v1/search?q=${encodeURIComponent('😀'.repeat(200))}`)).status, 200);
  });

  it('takes the default when a value is empty', async () => {
    const answer = await search(server, 'q=zebra&size=&page=&sort=&locale=');
    assert.equal(answer.metadata.size, 10);
    assert.equal(answer.metadata.page, 1);
    assert.equal(answer.documents.length, 10);
    assert.equal(answer.documents[0]?.url, '/en-US/docs/zoo/zebra11', 'best sort: the most popular first');
  });

  it('searches en-US by default and the given locales when locale is repeated', async () => {
    assert.deepEqual(urls(await search(server, 'q=fetch')), ['/en-US/docs/web/api/fetch']);
    assert.deepEqual(urls(await search(server, 'q=fetch&locale=fr')), ['/fr/docs/web/api/fetch']);
    assert.deepEqual(urls(await search(server, 'q=fetch&locale=FR&locale=en-US')).sort(), ['/en-US/docs/web/api/fetch', '/fr/docs/web/api/fetch']);
  });

  it('keeps only documents under one of the slug prefixes, with or without a leading slash', async () => {
    assert.deepEqual(urls(await search(server, 'q=flexbox&slug_prefix=/docs/web/css/grid')), ['/en-US/docs/web/css/grid']);
    assert.equal((await search(server, 'q=flexbox&slug_prefix=docs/web/css')).documents.length, 2);
    assert.equal((await search(server, 'q=flexbox&slug_prefix=docs/web/css/grid&slug_prefix=docs/web/css/flex')).documents.length, 2);
    assert.equal((await search(server, 'q=flexbox&slug_prefix=docs/web/api')).documents.length, 0);
  });

  it('pages with size and page and reports the full total', async () => {
    const first = await search(server, 'q=zebra&size=5&page=1');
    const third = await search(server, 'q=zebra&size=5&page=3');
    assert.equal(first.documents.length, 5);
    assert.equal(third.documents.length, 2);
    assert.deepEqual(third.metadata, { ...third.metadata, size: 5, page: 3, total: { value: 12, relation: 'eq' } });
    assert.deepEqual(first.metadata.total, { value: 12, relation: 'eq' });
    assert.equal(new Set([...urls(first), ...urls(third)]).size, 7);
    const small = await search(server, 'q=zebra&size=1&page=2');
    assert.deepEqual(small.metadata.total, { value: 10, relation: 'gte' }, 'exact only as far as 10 pages of 1 reach');
    for (const doc of [...first.documents, ...third.documents]) {
      assert.equal(doc.highlight.title[0]?.replace(/<\/?mark>/g, ''), doc.title, 'each highlight belongs to its own document');
    }
  });

  it('orders by popularity, then score, when sort=popularity', async () => {
    const answer = await search(server, 'q=zebra&sort=popularity&size=3');
    assert.deepEqual(answer.documents.map((doc) => doc.popularity), [0.11, 0.1, 0.09]);
  });

  it('ranks an exact title match above a body mention', async () => {
    for (const sort of ['best', 'relevance']) {
      assert.deepEqual(urls(await search(server, `q=canvas&sort=${sort}`)), ['/en-US/docs/web/api/canvas', '/en-US/docs/web/api/drawing']);
    }
  });

  it('lets popularity break a near-tie of text scores', async () => {
    const answer = await search(server, 'q=array%20sort');
    assert.deepEqual(urls(answer).slice(0, 2), ['/en-US/docs/web/js/sort', '/en-US/docs/web/js/sort_legacy']);
    const [popular, rare] = answer.documents;
    assert.ok(Math.abs((popular?.score ?? 0) - (rare?.score ?? 0)) < 0.5, 'the text scores are close');
  });

  it('ranks the words as a phrase above the same words scattered', async () => {
    assert.deepEqual(urls(await search(server, 'q=service%20worker&sort=relevance')), ['/en-US/docs/web/api/sw', '/en-US/docs/web/api/tasks']);
  });

  it('matches the last word as a prefix', async () => {
    assert.deepEqual(urls(await search(server, 'q=offline%20pag')), ['/en-US/docs/web/api/sw']);
    assert.deepEqual(urls(await search(server, 'q=flexb')).sort(), ['/en-US/docs/web/css/flexbox', '/en-US/docs/web/css/grid']);
  });

  it('marks matched words in the title and up to 3 body fragments of escaped text', async () => {
    const answer = await search(server, 'q=service%20worker');
    const hit = answer.documents.find((doc) => doc.url.endsWith('/sw'));
    assert.deepEqual(hit?.highlight.body, ['A <mark>service worker</mark> caches responses for offline use.'], 'a phrase is marked as one');
    for (const doc of answer.documents) assert.ok(doc.highlight.body.length <= 3);
  });

  it('suggests the indexed word with its count for a one-letter typo, and nothing for a correct query', async () => {
    // exact=1: the words as typed, which an engine correcting misspelt words would otherwise answer corrected.
    assert.deepEqual((await search(server, 'q=flexbx&exact=1')).suggestions, [{ text: 'flexbox', total: 2, relation: 'eq' }]);
    assert.deepEqual((await search(server, 'q=flexbox')).suggestions, []);
    assert.deepEqual((await search(server, 'q=zebar%20stripes&exact=1')).suggestions, [{ text: 'zebra stripes', total: 12, relation: 'eq' }], 'a transposition');
    assert.deepEqual((await search(server, 'q=flexbx&locale=fr&exact=1')).suggestions, [], 'counted within the locale');
  });

  it('returns a <script> title as text and escapes it in highlights', async () => {
    const answer = await search(server, 'q=%3Cscript%3E%20element');
    const [hit] = answer.documents;
    assert.equal(hit?.title, '<script>alert(1)</script> element');
    assert.deepEqual(hit?.highlight.title, ['&lt;<mark>script</mark>&gt;alert(1)&lt;/<mark>script&gt; element</mark>']);
    assert.ok(hit?.highlight.body.every((fragment) => !fragment.replace(/<\/?mark>/g, '').includes('<')));
    assert.equal(hit?.highlight.body[0], 'The &lt;<mark>script&gt; element</mark> &amp; &quot;quotes&quot; run &lt;b&gt;code&lt;/b&gt;.');
  });

  it('never answers 500 for FTS syntax, control characters, emoji, RTL text and 200-character words', async () => {
    for (const q of hostile) {
      const response = await get(server, `/api/v1/search?q=${encodeURIComponent(q)}`);
      assert.ok(response.status === 200 || response.status === 400, `${JSON.stringify(q)} → ${response.status}`);
    }
  });

  it('never answers 500 for malformed query strings: bad escapes, arrays and brackets where strings belong', async () => {
    for (const query of ['q=%', 'q=%ED%A0%80', 'q=%FF%FE', 'q=%E0%A4%A', 'q[]=a', 'q[0]=a&q[1]=b', 'q=a&locale[]=fr', 'q=a&size[]=1', 'q=a&&&', '=&=', 'q=a&__proto__=x', 'q=a&constructor=1']) {
      const response = await get(server, `/api/v1/search?${query}`);
      assert.ok(response.status === 200 || response.status === 400, `${query} → ${response.status}`);
    }
  });

  it('never answers 500 for arbitrary parameter values (property)', async () => {
    const names = fc.constantFrom('q', 'locale', 'sort', 'size', 'page', 'slug_prefix', 'exact', 'x');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(names, fc.string({ unit: 'binary', maxLength: 40 })), { maxLength: 6 }), async (pairs) => {
        const query = pairs.map(([name, value]) => `${name}=${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, ''))}`).join('&');
        const response = await get(server, `/api/v1/search?${query}`);
        assert.ok(response.status === 200 || response.status === 400, `${query} → ${response.status}`);
      }),
      { numRuns: 150 },
    );
  });
});

describe('GET /api/v1/search ranking and suggestions on a small corpus', () => {
  const server = sharedSearchServer([
      { id: 'canvas', title: 'Canvas', body: 'Pixels.' },
      { id: 'canvas-recipes', title: 'Canvas recipes and canvas tricks', body: 'canvas canvas canvas', popularity: 1 },
      { id: 'cart', title: 'Cart layout', body: 'A shopping cart.' },
      { id: 'card', title: 'Card games', body: 'A deck of cards.' },
  ]);

  it('ranks the page whose whole title is the query first, even against a far more popular page', async () => {
    assert.deepEqual(urls(await search(server, 'q=CANVAS')), ['/en-US/docs/canvas', '/en-US/docs/canvas-recipes']);
  });

  it('suggests a neighbour of a known word when the query of known words matches nothing, and answers the title a typo names', async () => {
    assert.deepEqual(urls(await search(server, 'q=card%20layout')), ['/en-US/docs/cart']);
    assert.deepEqual((await search(server, 'q=cards%20layout')).suggestions, [{ text: 'cart layout', total: 1, relation: 'eq' }]);
    assert.deepEqual((await search(server, 'q=card%20games')).suggestions, []);
  });
});

describe('GET /api/v1/search before any index is built', () => {
  it('answers 503 SEARCH_NOT_READY without Cache-Control', async () => {
    const server = await startSearchServer(undefined);
    try {
      const response = await get(server, '/api/v1/search?q=canvas');
      assert.equal(response.status, 503);
      assert.deepEqual(response.body, { error: "search index 'site_docs' does not exist yet", code: 'SEARCH_NOT_READY' });
      assert.equal(response.headers.get('cache-control'), null);
    } finally {
      await server.close();
    }
  });
});
