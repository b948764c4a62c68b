import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { silentLogger } from '../log.js';
import { installErrorMapper } from '../http/index.js';
import { DEMO_SONGS } from './demo-songs.js';
import { createAmazonProvider } from './providers/amazon.js';
import { createItunesProvider } from './providers/itunes.js';
import { unavailableProvider, type SongProvider } from './providers/provider.js';
import { AFFILIATE_CACHE_CONTROL, songRoutes } from './routes.js';
import { openSongStore, type SongStore } from './store.js';
import { startAmazonStandIn } from './test-support/amazon-stand-in.js';
import { standInCatalogue } from './test-support/catalogue.js';
import type { Behaviour, StandIn } from './test-support/stand-in.js';

const KEY = { accessKey: 'AKIDROUTES', secretKey: 'routes-secret', partnerTag: 'routes-20' };
const NOBODY_SELLS = { id: 500, name: 'Zzyzx Road Hum', artist: 'Nobody Atall', album: null, year: null };
const PROVIDER_TIMEOUT_MS = 1_500;
const NOW = Date.UTC(2026, 10, 21, 6, 0, 0);

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

describe('GET /api/song/<song_id>/affiliate/<provider>', () => {
  let dir: string;
  let store: SongStore;
  let itunes: StandIn;
  let amazon: StandIn;
  let app: FastifyInstance;
  let base: string;

  async function get(path: string): Promise<Answer> {
    const response = await fetch(`${base}${path}`);
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
  }

  /** Sends the path byte for byte, without the URL normalisation fetch applies (`..`, unicode). */
  function getRaw(path: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(`${base}/`, { path, method: 'GET' }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
          resolve({ status: response.statusCode ?? 0, headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
        });
      });
      request.on('error', reject);
      request.end();
    });
  }

  function assertError(answer: Answer, status: number, code: string): void {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.body.code, code, JSON.stringify(answer.body));
    assert.equal(typeof answer.body.error, 'string');
    assert.equal(answer.headers.get('cache-control'), 'no-store');
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'songs-routes-'));
    store = openSongStore(join(dir, 'songs.sqlite'));
    store.seedIfEmpty([...DEMO_SONGS, NOBODY_SELLS]);
    const catalogue = standInCatalogue(DEMO_SONGS);
    const { startItunesStandIn } = await import('./test-support/itunes-stand-in.js');
    itunes = await startItunesStandIn(catalogue);
    amazon = await startAmazonStandIn({ tracks: catalogue, keys: { [KEY.accessKey]: KEY.secretKey }, partnerTag: KEY.partnerTag, region: 'us-east-1' });
    const broken: SongProvider = {
      name: 'broken',
      lookup: async () => {
        throw new TypeError('a bug in a provider');
      },
    };
    app = Fastify();
    installErrorMapper(app, silentLogger());
    await app.register(
      songRoutes({
        store,
        logger: silentLogger(),
        // Short enough for the hang case to stay quick, long enough for a loaded machine not to time out normal answers.
        providerTimeoutMs: PROVIDER_TIMEOUT_MS,
        now: () => NOW,
        providers: [
          createItunesProvider({ baseUrl: itunes.url }),
          createAmazonProvider({ ...KEY, baseUrl: amazon.url }),
          unavailableProvider('spotify', 'set SPOTIFY_TOKEN'),
          broken,
        ],
      }),
    );
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });

  beforeEach(() => {
    itunes.behave('normal');
    amazon.behave('normal');
  });

  after(async () => {
    await app.close();
    await Promise.all([itunes.close(), amazon.close()]);
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const provider of ['itunes', 'amazon'] as const) {
    it(`answers the scrubbed best match with a day's public caching and saves the full ${provider} answer`, async () => {
      const songId = provider === 'itunes' ? 1 : 2;
      const answer = await get(`/api/song/${songId}/affiliate/${provider}`);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('cache-control'), AFFILIATE_CACHE_CONTROL);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(Object.keys(answer.body).sort(), ['match', 'provider', 'song_id']);
      assert.equal(answer.body.song_id, songId);
      assert.equal(answer.body.provider, provider);
      const match = answer.body.match as Record<string, unknown>;
      assert.deepEqual(Object.keys(match).sort(), ['artist', 'image', 'price', 'title', 'url']);
      assert.equal(match.artist, DEMO_SONGS[songId - 1]?.artist);
      assert.equal(match.price, '$1.29');
      const saved = store.getLookup(songId, provider);
      assert.equal(saved?.fetchedAt, NOW);
      assert.deepEqual(saved?.match, match);
      assert.ok(JSON.stringify(saved?.raw).includes('Party Tyme Karaoke'), 'the full answer is saved, not only the match');
    });
  }

  it('asks the provider once when the same song is asked for twice', async () => {
    const before = itunes.searches;
    const first = await get('/api/song/3/affiliate/itunes');
    const second = await get('/api/song/3/affiliate/itunes');
    assert.equal(itunes.searches - before, 1);
    assert.deepEqual(second.body, first.body);
    assert.equal(second.headers.get('cache-control'), AFFILIATE_CACHE_CONTROL);
  });

  it('asks the provider once when first requests for one song arrive together', async () => {
    const before = amazon.searches;
    const answers = await Promise.all(Array.from({ length: 12 }, () => get('/api/song/4/affiliate/amazon')));
    assert.equal(amazon.searches - before, 1);
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, answers[0]?.body);
    }
  });

  it('saves and answers a null match when the provider finds nothing, and does not ask again', async () => {
    for (const provider of ['itunes', 'amazon'] as const) {
      const standIn = provider === 'itunes' ? itunes : amazon;
      const before = standIn.searches;
      const first = await get(`/api/song/${NOBODY_SELLS.id}/affiliate/${provider}`);
      assert.equal(first.status, 200);
      assert.deepEqual(first.body, { song_id: NOBODY_SELLS.id, provider, match: null });
      assert.equal(first.headers.get('cache-control'), AFFILIATE_CACHE_CONTROL);
      await get(`/api/song/${NOBODY_SELLS.id}/affiliate/${provider}`);
      assert.equal(standIn.searches - before, 1);
      assert.notEqual(store.getLookup(NOBODY_SELLS.id, provider), undefined);
    }
  });

  it('answers 404 without asking a provider when the song is unknown', async () => {
    const before = itunes.searches;
    assertError(await get('/api/song/424242/affiliate/itunes'), 404, 'SONG_NOT_FOUND');
    assertError(await get('/api/song/9007199254740991/affiliate/itunes'), 404, 'SONG_NOT_FOUND');
    assert.equal(itunes.searches, before);
  });

  it('answers 404 when the provider is unknown', async () => {
    for (const provider of ['spotify2', 'ITUNES', 'itunes%20', '%F0%9F%8E%B5', '__proto__', 'constructor', 'x'.repeat(90)]) {
      assertError(await get(`/api/song/1/affiliate/${provider}`), 404, 'PROVIDER_NOT_FOUND');
    }
    assertError(await getRaw('/api/song/1/affiliate/..'), 404, 'PROVIDER_NOT_FOUND');
  });

  it('answers 400 when the song id is not a plain positive integer', async () => {
    const ids = ['0', '-1', '1e3', '007', '1.5', '0x1F', 'abc', '9007199254740992', '99999999999999999999', '%2E%2E%2F1', '%E2%91%A0', '%D9%A1', '%201', '1%00', 'x'.repeat(100)];
    for (const id of ids) assertError(await get(`/api/song/${id}/affiliate/itunes`), 400, 'INVALID_SONG_ID');
    assertError(await getRaw('/api/song/../affiliate/itunes'), 400, 'INVALID_SONG_ID');
  });

  it('answers a JSON client error, never a 500, when the id is longer than the router takes', async () => {
    const answer = await get(`/api/song/${'9'.repeat(5000)}/affiliate/itunes`);
    assert.ok(answer.status >= 400 && answer.status < 500, String(answer.status));
    assert.equal(typeof answer.body.code, 'string');
  });

  const failures: [Behaviour, string][] = [
    ['status-500', 'PROVIDER_FAILED'],
    ['wrong-shape', 'PROVIDER_GARBAGE'],
    ['truncated-json', 'PROVIDER_GARBAGE'],
    ['html', 'PROVIDER_GARBAGE'],
    ['huge', 'PROVIDER_ANSWER_TOO_LARGE'],
    ['hang', 'PROVIDER_TIMEOUT'],
  ];
  failures.forEach(([behaviour, code], index) => {
    it(`answers 502 ${code}, saves nothing and tries again next time when the provider answers ${behaviour}`, async () => {
      const songId = 10 + index;
      for (const [provider, standIn] of [['itunes', itunes], ['amazon', amazon]] as const) {
        standIn.behave(behaviour);
        const before = standIn.searches;
        assertError(await get(`/api/song/${songId}/affiliate/${provider}`), 502, code);
        assert.equal(store.getLookup(songId, provider), undefined);
        standIn.behave('normal');
        const retried = await get(`/api/song/${songId}/affiliate/${provider}`);
        assert.equal(retried.status, 200, JSON.stringify(retried.body));
        assert.equal(retried.headers.get('cache-control'), AFFILIATE_CACHE_CONTROL);
        assert.equal(standIn.searches - before, 2);
      }
    });
  });

  it('answers 503 with no-store when the provider is known but not configured', async () => {
    assertError(await get('/api/song/1/affiliate/spotify'), 503, 'PROVIDER_UNAVAILABLE');
  });

  it('answers 502, not 500, when a provider fails in an unexpected way', async () => {
    assertError(await get('/api/song/1/affiliate/broken'), 502, 'PROVIDER_FAILED');
  });
});
