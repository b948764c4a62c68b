import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_SONGS } from '../demo-songs.js';
import type { SongProvider } from '../providers/provider.js';
import type { Song } from '../types.js';
import { standInCatalogue, type StandInTrack } from './catalogue.js';
import type { StandIn } from './stand-in.js';

export interface ProviderFixture {
  provider: SongProvider;
  standIn: StandIn;
}

/** Starts a provider against its stand-in selling `tracks`. */
export type ProviderSetup = (tracks: readonly StandInTrack[]) => Promise<ProviderFixture>;

const QUEEN = DEMO_SONGS[0] as Song;
const BEYONCE = DEMO_SONGS.find((song) => song.artist === 'Beyoncé') as Song;
const LENNON = DEMO_SONGS.find((song) => song.name === 'Imagine') as Song;

function signal(ms = 2_000): { signal: AbortSignal } {
  return { signal: AbortSignal.timeout(ms) };
}

async function rejectsWithCode(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.equal((error as { code?: string }).code, code, String(error));
    assert.equal((error as { status?: number }).status, 502);
    return true;
  });
}

/**
 * What every SongProvider must do, run against each with its stand-in server (model: undici's cacheStoreTests):
 * choose the best match by title and artist, report "nothing found" as a null match, and turn every failure of the
 * service into a 502 ProviderError with a stable code.
 */
export function providerContract(name: string, setup: ProviderSetup): void {
  describe(`SongProvider contract: ${name}`, () => {
    let fixture: ProviderFixture;
    const fixtures: ProviderFixture[] = [];
    const start = async (tracks: readonly StandInTrack[]) => {
      const started = await setup(tracks);
      fixtures.push(started);
      return started;
    };

    before(async () => {
      fixture = await start(standInCatalogue(DEMO_SONGS));
    });
    beforeEach(() => fixture.standIn.behave('normal'));
    after(async () => {
      await Promise.all(fixtures.map((started) => started.standIn.close()));
    });

    it('is named as its route segment', () => {
      assert.equal(fixture.provider.name, name);
    });

    it("chooses the song's own recording when a karaoke cover is listed first", async () => {
      const answer = await fixture.provider.lookup(QUEEN, signal());
      assert.ok(answer.match, 'expected a match');
      assert.equal(answer.match.artist, 'Queen');
      assert.match(answer.match.title, /^Bohemian Rhapsody/);
      assert.match(answer.match.url, /^https:\/\//);
      assert.match(answer.match.image ?? '', /^https:\/\//);
      assert.equal(answer.match.price, '$1.29');
      assert.deepEqual(Object.keys(answer.match).sort(), ['artist', 'image', 'price', 'title', 'url']);
      assert.ok(JSON.stringify(answer.raw).includes('Party Tyme Karaoke'), 'the full answer, cover included, is kept');
    });

    it('matches an artist written with accents', async () => {
      const answer = await fixture.provider.lookup(BEYONCE, signal());
      assert.equal(answer.match?.artist, 'Beyoncé');
    });

    it('answers a null match, keeping the full answer, when nothing is found', async () => {
      const answer = await fixture.provider.lookup({ id: 999, name: 'Zzyzx Road Hum', artist: 'Nobody Atall', album: null, year: null }, signal());
      assert.equal(answer.match, null);
      assert.notEqual(answer.raw, undefined);
    });

    it('answers a null match when only another artist has a song of that title', async () => {
      const other = await start([{ id: 5, title: 'Imagine', artist: 'Imagine Dragons', album: 'Night Visions', price: 1.29, currency: 'USD' }]);
      const answer = await other.provider.lookup(LENNON, signal());
      assert.equal(answer.match, null);
      assert.equal(other.standIn.searches, 1);
    });

    it('fails with PROVIDER_FAILED when the service answers 500', async () => {
      fixture.standIn.behave('status-500');
      await rejectsWithCode(fixture.provider.lookup(QUEEN, signal()), 'PROVIDER_FAILED');
    });

    for (const behaviour of ['wrong-shape', 'truncated-json', 'html'] as const) {
      it(`fails with PROVIDER_GARBAGE when the service answers ${behaviour}`, async () => {
        fixture.standIn.behave(behaviour);
        await rejectsWithCode(fixture.provider.lookup(QUEEN, signal()), 'PROVIDER_GARBAGE');
      });
    }

    it('fails with PROVIDER_ANSWER_TOO_LARGE, without reading it all, when the answer is huge', async () => {
      fixture.standIn.behave('huge');
      await rejectsWithCode(fixture.provider.lookup(QUEEN, signal(10_000)), 'PROVIDER_ANSWER_TOO_LARGE');
    });

    it('fails with PROVIDER_TIMEOUT when the service does not answer in time', async () => {
      fixture.standIn.behave('hang');
      await rejectsWithCode(fixture.provider.lookup(QUEEN, signal(150)), 'PROVIDER_TIMEOUT');
    });

    it('fails with PROVIDER_FAILED when the service cannot be reached', async () => {
      const gone = await start([]);
      await gone.standIn.close();
      await rejectsWithCode(gone.provider.lookup(QUEEN, signal()), 'PROVIDER_FAILED');
    });
  });
}
