import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createItunesProvider, itunesCandidates } from './itunes.js';

describe('itunes provider', () => {
  let url: string;
  const seen: URL[] = [];
  const server = createServer((request, response) => {
    seen.push(new URL(request.url ?? '/', 'http://x'));
    response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end('{"resultCount":0,"results":[]}');
  });
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  it('asks the Search API for songs by artist and title when looking a song up', async () => {
    await createItunesProvider({ baseUrl: url, limit: 7 }).lookup(
      { id: 1, name: 'Amor & "Prohibido"', artist: 'Sélena', album: null, year: null },
      { signal: AbortSignal.timeout(2_000) },
    );
    const request = seen.at(-1);
    assert.equal(request?.pathname, '/search');
    assert.equal(request?.searchParams.get('term'), 'Sélena Amor & "Prohibido"');
    assert.equal(request?.searchParams.get('media'), 'music');
    assert.equal(request?.searchParams.get('entity'), 'song');
    assert.equal(request?.searchParams.get('limit'), '7');
  });
});

describe('itunesCandidates', () => {
  it('skips rows without a title, an artist or an http(s) link and formats prices', () => {
    const rows = [
      { trackName: 'A', artistName: 'B', trackViewUrl: 'javascript:alert(1)' },
      { trackName: 'A', artistName: '', trackViewUrl: 'https://x/1' },
      { trackName: 'A', artistName: 'B', trackViewUrl: 'https://x/2', artworkUrl100: 'data:image/png;base64,AA', trackPrice: -1, currency: 'USD' },
      { trackName: 'C', artistName: 'D', trackViewUrl: 'https://x/3', artworkUrl100: 'https://x/3.jpg', trackPrice: 1.29, currency: 'EUR' },
      'not an object',
    ];
    assert.deepEqual(itunesCandidates({ resultCount: rows.length, results: rows }), [
      { title: 'A', artist: 'B', url: 'https://x/2', image: null, price: null },
      { title: 'C', artist: 'D', url: 'https://x/3', image: 'https://x/3.jpg', price: '€1.29' },
    ]);
  });

  it('rejects an answer without a results array', () => {
    for (const body of [null, [], 'x', { results: {} }]) assert.throws(() => itunesCandidates(body), { code: 'PROVIDER_GARBAGE' });
  });
});
