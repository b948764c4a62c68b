import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { SearchResponse } from '../api/routes.js';
import { startSearchServer, type DocSpec, type SearchServer } from './search-server.js';

/** The pages the search API tests search, and what they send and read. */

const FILLER = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore';

/** Pages of several locales, slugs and popularities, a scattered phrase, markup in a title, and a dozen zebras. */
export const DOCS: DocSpec[] = [
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

export async function get(server: { url: string }, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = await fetch(`${server.url}${path}`, { headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

export async function search(server: { url: string }, query: string): Promise<SearchResponse> {
  const response = await get(server, `/api/v1/search?${query}`);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body as SearchResponse;
}

export function fieldCodes(body: unknown): Record<string, string[]> {
  const errors = (body as { errors: Record<string, { code: string; message: string }[]> }).errors;
  return Object.fromEntries(Object.entries(errors).map(([field, list]) => [field, list.map((item) => item.code)]));
}

export const hostile = [
  '"', '""', '"unbalanced', '*', 'a*', '* *', 'NEAR', 'NEAR(a b)', 'a AND', 'AND OR NOT', 'title:canvas', ':', '^canvas',
  '(', ')', '((a)', '[a]', '{a}', '-canvas', '+canvas', 'canvas OR', '\u0000\u0001\u001f', '\u202eכתב עברית', 'مرحبا بالعالم',
  '😀🎉', '👩‍👩‍👧', 'z̷̢a̸l̵g̶o', 'a'.repeat(200), `${'w'.repeat(199)} x`, '%', '%%', '\\', "'; DROP TABLE x; --", '<img src=x onerror=alert(1)>',
];

export const urls = (answer: SearchResponse) => answer.documents.map((doc) => doc.url);

/** The server over `docs` that the tests of the enclosing describe share: started before them, closed after. */
export function sharedSearchServer(docs: readonly DocSpec[]): { readonly url: string } {
  let server: SearchServer | undefined;
  before(async () => {
    server = await startSearchServer(docs);
  });
  after(async () => {
    await server?.close();
  });
  return {
    get url() {
      if (server === undefined) throw new Error('the search server starts before the tests');
      return server.url;
    },
  };
}
