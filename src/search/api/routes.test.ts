import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import fc from 'fast-check';
import { silentLogger } from '../../log.js';
import { installErrorMapper } from '../../server/error-mapper.js';
import type { SearchEngine, SearchHit, SearchQuery, SearchResult, SuggestQuery, Suggestion } from '../engines/types.js';
import { startSearchServer, type DocSpec, type SearchServer } from '../test-support/search-server.js';
import { searchRoutes, type AutocompleteResponse, type SearchResponse } from './routes.js';

const FILLER = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore';

const DOCS: DocSpec[] = [
  { id: 'canvas', title: 'Canvas', body: 'An unrelated paragraph about pixels.', slug: 'docs/web/api/canvas' },
  { id: 'drawing', title: 'Drawing shapes', body: 'You draw shapes on a canvas element with paths.', slug: 'docs/web/api/drawing' },
  { id: 'sw', title: 'Offline pages', body: 'A service worker caches responses for offline use.', slug: 'docs/web/api/sw' },
  { id: 'scattered', title: 'Background tasks', body: `A worker runs ${FILLER} ${FILLER} in its own service.`, slug: 'docs/web/api/tasks' },
  { id: 'sort-popular', title: 'Array sort', body: 'Sorts the elements of an array.', popularity: 0.6, slug: 'docs/web/js/sort' },
  { id: 'sort-rare', title: 'Array sort', body: 'Sorts the elements of an array.', popularity: 0.1, slug: 'docs/web/js/sort_legacy' },
  { id: 'flexbox', title: 'Flexbox', body: 'Flexbox aligns items along one axis.', slug: 'docs/web/css/flexbox', popularity: 0.3 },
  { id: 'grid', title: 'Grid layout', body: 'Grid and flexbox compared side by side.', slug: 'docs/web/css/grid' },
  { id: 'fetch-fr', title: 'Utiliser Fetch', body: 'La méthode fetch renvoie une promesse.', locale: 'fr', slug: 'docs/web/api/fetch' },
  { id: 'fetch', title: 'Using Fetch', body: 'The fetch method returns a promise.', slug: 'docs/web/api/fetch', popularity: 0.2 },
  { id: 'xss', title: '<script>alert(1)</script> element', body: 'The <script> element & "quotes" run <b>code</b>.', slug: 'docs/web/html/script' },
  ...Array.from({ length: 12 }, (_, i): DocSpec => ({ id: `zebra${i}`, title: `Zebra stripes ${i}`, body: 'zebra', popularity: i / 100, slug: `docs/zoo/zebra${i}` })),
];

async function get(server: { url: string }, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = await fetch(`${server.url}${path}`, { headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

async function search(server: { url: string }, query: string): Promise<SearchResponse> {
  const response = await get(server, `/api/v1/search?${query}`);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body as SearchResponse;
}

function fieldCodes(body: unknown): Record<string, string[]> {
  const errors = (body as { errors: Record<string, { code: string; message: string }[]> }).errors;
  return Object.fromEntries(Object.entries(errors).map(([field, list]) => [field, list.map((item) => item.code)]));
}

const hostile = [
  '"', '""', '"unbalanced', '*', 'a*', '* *', 'NEAR', 'NEAR(a b)', 'a AND', 'AND OR NOT', 'title:canvas', ':', '^canvas',
  '(', ')', '((a)', '[a]', '{a}', '-canvas', '+canvas', 'canvas OR', '\u0000\u0001\u001f', '\u202eכתב עברית', 'مرحبا بالعالم',
  '😀🎉', '👩‍👩‍👧', 'z̷̢a̸l̵g̶o', 'a'.repeat(200), `${'w'.repeat(199)} x`, '%', '%%', '\\', "'; DROP TABLE x; --", '<img src=x onerror=alert(1)>',
];

const urls = (answer: SearchResponse) => answer.documents.map((doc) => doc.url);

describe('GET /api/v1/search', () => {
  let server: SearchServer;
  before(async () => {
    server = await startSearchServer(DOCS);
  });
  after(async () => {
    await server.close();
  });

  it('answers the documented shape with Cache-Control public, max-age=10, s-maxage=50 when the query is valid', async () => {
    const response = await get(server, '/api/v1/search?q=canvas');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'public, max-age=10, s-maxage=50');
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
    ['', { q: ['required'] }],
    ['q=', { q: ['required'] }],
    ['q=%20%20%09', { q: ['required'] }],
    [`q=${'a'.repeat(201)}`, { q: ['too_long'] }],
    [`q=${encodeURIComponent('😀'.repeat(201))}`, { q: ['too_long'] }],
    ['q=a&q=b', { q: ['repeated'] }],
    ['q=a&sort=best&sort=relevance', { sort: ['repeated'] }],
    ['q=a&size=1&size=2', { size: ['repeated'] }],
    ['q=a&page=1&page=1', { page: ['repeated'] }],
    ['q=a&size=101', { size: ['out_of_range'] }],
    ['q=a&size=abc', { size: ['not_an_integer'] }],
    ['q=a&size=1.5', { size: ['not_an_integer'] }],
    ['q=a&size=-1', { size: ['not_an_integer'] }],
    ['q=a&size=%2B5', { size: ['not_an_integer'] }],
    ['q=a&page=0', { page: ['out_of_range'] }],
    ['q=a&page=1e1', { page: ['not_an_integer'] }],
    ['q=a&sort=BEST', { sort: ['invalid_choice'] }],
    ['q=a&locale=%3Cscript%3E', { locale: ['invalid'] }],
    [`q=a&${Array.from({ length: 11 }, (_, i) => `locale=l${String.fromCharCode(97 + i)}`).join('&')}`, { locale: ['too_many'] }],
    [`q=a&${Array.from({ length: 11 }, (_, i) => `slug_prefix=docs/${i}`).join('&')}`, { slug_prefix: ['too_many'] }],
    [`q=a&slug_prefix=${'d'.repeat(201)}`, { slug_prefix: ['too_long'] }],
    ['q=a&slug_prefix=docs%00', { slug_prefix: ['invalid'] }],
    ['q=a&exact=true', { exact: ['invalid_choice'] }],
    ['q=a&exact=2', { exact: ['invalid_choice'] }],
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
  let server: SearchServer;
  before(async () => {
    server = await startSearchServer([
      { id: 'canvas', title: 'Canvas', body: 'Pixels.' },
      { id: 'canvas-recipes', title: 'Canvas recipes and canvas tricks', body: 'canvas canvas canvas', popularity: 1 },
      { id: 'cart', title: 'Cart layout', body: 'A shopping cart.' },
      { id: 'card', title: 'Card games', body: 'A deck of cards.' },
    ]);
  });
  after(async () => {
    await server.close();
  });

  it('ranks the page whose whole title is the query first, even against a far more popular page', async () => {
    assert.deepEqual(urls(await search(server, 'q=CANVAS')), ['/en-US/docs/canvas', '/en-US/docs/canvas-recipes']);
  });

  it('suggests a neighbour of a known word when the query of known words matches nothing', async () => {
    assert.deepEqual((await search(server, 'q=card%20layout')).suggestions, [{ text: 'cart layout', total: 1, relation: 'eq' }]);
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

describe('search rate limit', () => {
  it('answers 429 with Retry-After and RateLimit-* headers once a client spends its budget, and no such header before', async () => {
    const server = await startSearchServer(DOCS, { rateLimit: { max: 3, windowMs: 60_000 }, trustedProxies: [] });
    try {
      const first = await get(server, '/api/v1/search?q=canvas');
      for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after']) {
        assert.equal(first.headers.get(name), null, `${name} on a shared answer`);
      }
      await get(server, '/api/v1/search?q=canvas');
      assert.equal((await get(server, '/api/v1/search?q=')).status, 400, 'invalid requests count too');
      const limited = await get(server, '/api/v1/search?q=canvas');
      assert.equal(limited.status, 429);
      assert.match((limited.body as { error: string }).error, /too many searches/);
      assert.ok(Number(limited.headers.get('retry-after')) > 0 && Number(limited.headers.get('retry-after')) <= 60);
      assert.equal(limited.headers.get('ratelimit-remaining'), '0');
      assert.equal(limited.headers.get('ratelimit-limit'), '3');
      assert.ok(Number(limited.headers.get('ratelimit-reset')) > 0);
      assert.equal(limited.headers.get('cache-control'), null);
      const spoofed = await get(server, '/api/v1/search?q=canvas', { 'x-forwarded-for': '203.0.113.9' });
      assert.equal(spoofed.status, 429, 'X-Forwarded-For from an untrusted peer is ignored');
      assert.equal((await get(server, '/api/search/autocomplete?q=can')).status, 200, 'autocomplete is not limited');
    } finally {
      await server.close();
    }
  });

  it('limits each client behind a trusted proxy by its X-Forwarded-For address', async () => {
    const server = await startSearchServer(DOCS, { rateLimit: { max: 2, windowMs: 60_000 } });
    try {
      const as = (client: string) => get(server, '/api/v1/search?q=canvas', { 'x-forwarded-for': `${client}, 127.0.0.1` });
      assert.equal((await as('198.51.100.1')).status, 200);
      assert.equal((await as('198.51.100.1')).status, 200);
      assert.equal((await as('198.51.100.1')).status, 429);
      assert.equal((await as('198.51.100.2')).status, 200, 'another client has its own budget');
    } finally {
      await server.close();
    }
  });
});

describe('GET /api/search/autocomplete', () => {
  let server: SearchServer;
  before(async () => {
    server = await startSearchServer(DOCS);
  });
  after(async () => {
    await server.close();
  });

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
    it(`${cacheable ? 'sets' : 'omits'} Cache-Control public, max-age=3600 when q has ${name}`, async () => {
      const response = await get(server, `/api/search/autocomplete?q=${encodeURIComponent(q)}`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), cacheable ? 'public, max-age=3600' : null);
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

/** The hits of the correcting stub: each matches a text when its title holds every word of it. */
const STUB_HITS: SearchHit[] = [
  { id: 'flexbox', url: '/en-US/docs/flexbox', title: 'Flexbox', summary: 'One axis.', locale: 'en-US', slug: 'docs/flexbox', popularity: 0.3, score: 5 },
  { id: 'flexbox-grid', url: '/en-US/docs/flexbox-grid', title: 'Flexbox and grid', summary: 'Both.', locale: 'en-US', slug: 'docs/flexbox-grid', popularity: 0.1, score: 3 },
];

/**
 * An engine that corrects the misspellings it is given (whole words of the query, case-insensitive) unless asked
 * `corrections: false`, answers `corrected` when it did, and records every search and suggest call.
 */
class CorrectingEngine implements SearchEngine {
  readonly searches: SearchQuery[] = [];
  readonly suggests: SuggestQuery[] = [];
  constructor(private readonly misspellings: Record<string, string>, private readonly suggestions: Suggestion[] = []) {}

  async search(query: SearchQuery): Promise<SearchResult> {
    this.searches.push(query);
    const typed = query.text.split(/\s+/).filter((word) => word !== '');
    const words = query.corrections === false ? typed : typed.map((word) => this.misspellings[word.toLowerCase()] ?? word);
    const documents = STUB_HITS.filter((hit) => words.every((word) => hit.title.toLowerCase().split(' ').includes(word.toLowerCase())));
    const result: SearchResult = { documents, total: { value: documents.length, relation: 'eq' } };
    if (words.some((word, i) => word !== typed[i])) result.corrected = words.join(' ');
    return result;
  }
  async suggest(query: SuggestQuery): Promise<Suggestion[]> {
    this.suggests.push(query);
    return this.suggestions;
  }
  async health(): Promise<'green'> {
    return 'green';
  }
  async count(): Promise<number> {
    return 0;
  }
  async autocomplete(): Promise<[]> {
    return [];
  }
  async close(): Promise<void> {}
  private unused(): never {
    throw new Error('not used by the search routes');
  }
  createIndex = async (): Promise<void> => this.unused();
  bulk = async (): Promise<never> => this.unused();
  deleteDocuments = async (): Promise<never> => this.unused();
  refresh = async (): Promise<void> => this.unused();
  updateAliases = async (): Promise<void> => this.unused();
  listIndices = async (): Promise<never> => this.unused();
  deleteIndex = async (): Promise<void> => this.unused();
  forceMerge = async (): Promise<void> => this.unused();
}

describe('GET /api/v1/search with an engine that corrects misspelt words', () => {
  const engine = new CorrectingEngine({ flexbx: 'flexbox', gird: 'grid' }, [{ text: 'flexbox', total: 2, relation: 'eq' }]);
  const app = Fastify({ logger: false });
  const server = { url: '' };
  before(async () => {
    const logger = silentLogger();
    installErrorMapper(app, logger);
    await app.register(searchRoutes({ engine, logger, rateLimit: { max: 100_000, windowMs: 60_000 } }));
    server.url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await app.close();
  });
  const lastSearch = () => engine.searches.at(-1);

  it('answers metadata.corrected with the text searched, the corrected documents and no suggestions, cached as usual', async () => {
    const suggestsBefore = engine.suggests.length;
    const response = await get(server, '/api/v1/search?q=flexbx%20gird');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'public, max-age=10, s-maxage=50');
    const body = response.body as SearchResponse;
    assert.deepEqual(Object.keys(body.metadata).sort(), ['corrected', 'page', 'size', 'took_ms', 'total']);
    assert.equal(body.metadata.corrected, 'flexbox grid');
    assert.deepEqual(body.metadata.total, { value: 1, relation: 'eq' });
    assert.deepEqual(urls(body), ['/en-US/docs/flexbox-grid']);
    assert.deepEqual(body.suggestions, [], 'a corrected answer offers no "did you mean" for the same query');
    assert.equal(engine.suggests.length, suggestsBefore, 'suggest is not even asked');
    assert.equal(lastSearch()?.corrections, true, 'corrections are asked by default');
    assert.equal(lastSearch()?.text, 'flexbx gird', 'the engine gets the query as typed');
  });

  it('passes exact=1 to the engine as corrections: false and offers suggestions for the query as typed', async () => {
    const body = await search(server, 'q=flexbx&exact=1');
    assert.equal(lastSearch()?.corrections, false);
    assert.equal(lastSearch()?.text, 'flexbx');
    assert.equal('corrected' in body.metadata, false);
    assert.deepEqual(body.documents, []);
    assert.deepEqual(body.suggestions, [{ text: 'flexbox', total: 2, relation: 'eq' }]);
    assert.equal(engine.suggests.at(-1)?.text, 'flexbx');
  });

  it('takes exact=0 and an empty exact as the default, with corrections', async () => {
    for (const query of ['q=flexbx&exact=0', 'q=flexbx&exact=']) {
      const body = await search(server, query);
      assert.equal(lastSearch()?.corrections, true, query);
      assert.equal(body.metadata.corrected, 'flexbox', query);
    }
  });

  it('answers no metadata.corrected and keeps suggestions when the engine matched the words as typed', async () => {
    const body = await search(server, 'q=flexbox');
    assert.deepEqual(Object.keys(body.metadata).sort(), ['page', 'size', 'took_ms', 'total']);
    assert.deepEqual(urls(body), ['/en-US/docs/flexbox', '/en-US/docs/flexbox-grid']);
    assert.deepEqual(body.suggestions, [{ text: 'flexbox', total: 2, relation: 'eq' }], 'whatever the engine suggests is passed on');
  });

  it('answers 400 in the usual shape, without asking the engine, when exact is not 0 or 1', async () => {
    const searchesBefore = engine.searches.length;
    const response = await get(server, '/api/v1/search?q=flexbx&exact=yes');
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('cache-control'), null);
    assert.deepEqual(response.body, {
      error: 'invalid query: exact must be one of 0, 1',
      code: 'INVALID_QUERY',
      errors: { exact: [{ message: 'exact must be one of 0, 1', code: 'invalid_choice' }] },
    });
    assert.equal(engine.searches.length, searchesBefore);
  });
});
