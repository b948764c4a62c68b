import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { silentLogger } from '../../log.js';
import { installErrorMapper } from '../../http/index.js';
import type { SearchEngine, SearchHit, SearchQuery, SearchResult, SuggestQuery, Suggestion } from '../engines/types.js';
import { searchRoutes, type SearchResponse } from './routes.js';
import { get, search, urls } from '../test-support/api-requests.js';

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
    assert.equal(response.headers.get('cache-control'), 'public, max-age=10, s-maxage=1');
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
