import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAmazonProvider, createItunesProvider, type Song, type SongProvider } from '../src/songs/index.js';

// The stand-ins' suites prove the clients against the wire format as we understand it; this suite checks that
// understanding against the real services when their addresses and keys are given.
const SONG: Song = { id: 1, name: 'Bohemian Rhapsody', artist: 'Queen', album: 'A Night at the Opera', year: 1975 };
const UNKNOWN: Song = { id: 2, name: 'Qxzvw Plmbr Trnkt', artist: 'Nobody Zzxq', album: null, year: null };

function realProviderSuite(name: string, provider: SongProvider | string): void {
  const skip = typeof provider === 'string' ? provider : false;
  describe(`real ${name} service`, () => {
    it('finds a well-known song by its artist', { skip }, async () => {
      const answer = await (provider as SongProvider).lookup(SONG, { signal: AbortSignal.timeout(10_000) });
      assert.ok(answer.match, `no match in ${JSON.stringify(answer.raw).slice(0, 500)}`);
      assert.match(answer.match.artist, /queen/i);
      assert.match(answer.match.title, /bohemian rhapsody/i);
      assert.match(answer.match.url, /^https:\/\//);
    });

    it('answers a null match for a song nobody sells', { skip }, async () => {
      const answer = await (provider as SongProvider).lookup(UNKNOWN, { signal: AbortSignal.timeout(10_000) });
      assert.equal(answer.match, null);
    });
  });
}

const itunesUrl = process.env.ITUNES_TEST_URL;
realProviderSuite(
  'itunes',
  itunesUrl === undefined || itunesUrl === ''
    ? 'SKIPPED: set ITUNES_TEST_URL=https://itunes.apple.com to run against the real iTunes Search API'
    : createItunesProvider({ baseUrl: itunesUrl }),
);

const { AMAZON_TEST_ACCESS_KEY: accessKey, AMAZON_TEST_SECRET_KEY: secretKey, AMAZON_TEST_PARTNER_TAG: partnerTag } = process.env;
realProviderSuite(
  'amazon',
  accessKey && secretKey && partnerTag
    ? createAmazonProvider({
        accessKey,
        secretKey,
        partnerTag,
        baseUrl: `https://${process.env.AMAZON_TEST_PAAPI_HOST ?? 'webservices.amazon.com'}`,
        region: process.env.AMAZON_TEST_REGION ?? 'us-east-1',
      })
    : 'SKIPPED: set AMAZON_TEST_ACCESS_KEY, AMAZON_TEST_SECRET_KEY and AMAZON_TEST_PARTNER_TAG (and optionally AMAZON_TEST_PAAPI_HOST, AMAZON_TEST_REGION) to run against the real Product Advertising API',
);
