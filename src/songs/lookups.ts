import { ERRORS } from '../error-codes.js';
import { isAppError } from '../errors.js';
import { silentLogger, type Logger } from '../log.js';
import { ProviderError, type SongProvider } from './providers/provider.js';
import { affiliateAnswer, scrubMatch } from './scrub.js';
import type { SongStore } from './store.js';
import type { AffiliateAnswer, Song } from './types.js';

export interface AffiliateLookupsOptions {
  store: SongStore;
  providers: readonly SongProvider[];
  /** How long a provider may take to answer, in milliseconds. @default 5000 */
  providerTimeoutMs?: number;
  /** @default silentLogger() */
  logger?: Logger;
  /** The clock for `fetched_at`, epoch milliseconds. @default Date.now */
  now?: () => number;
}

export const LOOKUP_DEFAULTS = { providerTimeoutMs: 5_000, now: Date.now };

export interface RefreshFailure {
  songId: number;
  provider: string;
  error: string;
}

export interface RefreshSummary {
  refreshed: number;
  failed: RefreshFailure[];
}

export interface AffiliateLookups {
  readonly providerNames: readonly string[];
  /** The saved answer for a song and provider, or the provider's (saved first); one provider call per song and provider at a time. */
  lookup(songId: number, providerName: string): Promise<AffiliateAnswer>;
  /** Asks the providers again for every saved lookup fetched more than `olderThanMs` ago; a failure keeps the old answer. */
  refreshOlderThan(olderThanMs: number): Promise<RefreshSummary>;
}

export function createAffiliateLookups(options: AffiliateLookupsOptions): AffiliateLookups {
  const { store } = options;
  const timeoutMs = options.providerTimeoutMs ?? LOOKUP_DEFAULTS.providerTimeoutMs;
  const now = options.now ?? LOOKUP_DEFAULTS.now;
  const logger = options.logger ?? silentLogger();
  const providers = new Map(options.providers.map((provider) => [provider.name, provider]));
  const inFlight = new Map<string, Promise<AffiliateAnswer>>();

  function providerNamed(name: string): SongProvider {
    const provider = providers.get(name);
    if (provider === undefined) {
      throw ERRORS.PROVIDER_NOT_FOUND([...providers.keys()]);
    }
    return provider;
  }

  function songWithId(id: number): Song {
    const song = store.getSong(id);
    if (song === undefined) throw ERRORS.SONG_NOT_FOUND(id);
    return song;
  }

  async function askAndSave(song: Song, provider: SongProvider): Promise<AffiliateAnswer> {
    let answer;
    try {
      answer = await provider.lookup(song, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      if (isAppError(error)) throw error;
      logger.error({ err: error, provider: provider.name, songId: song.id }, 'provider lookup failed unexpectedly');
      throw new ProviderError(ERRORS.PROVIDER_FAILED.with({ cause: error }, provider.name, 'lookup failed'));
    }
    const match = scrubMatch(answer.match);
    store.saveLookup({ songId: song.id, provider: provider.name, fetchedAt: now(), raw: answer.raw, match });
    logger.info({ provider: provider.name, songId: song.id, matched: match !== null }, 'saved provider lookup');
    return affiliateAnswer(song.id, provider.name, match);
  }

  function singleFlight(song: Song, provider: SongProvider): Promise<AffiliateAnswer> {
    const key = `${song.id}\u0000${provider.name}`;
    const running = inFlight.get(key);
    if (running !== undefined) return running;
    const flight = askAndSave(song, provider).finally(() => inFlight.delete(key));
    inFlight.set(key, flight);
    return flight;
  }

  return {
    providerNames: [...providers.keys()],
    async lookup(songId, providerName) {
      const provider = providerNamed(providerName);
      const saved = store.getSavedMatch(songId, provider.name);
      if (saved !== undefined) return affiliateAnswer(songId, provider.name, saved.match);
      return singleFlight(songWithId(songId), provider);
    },
    async refreshOlderThan(olderThanMs) {
      const summary: RefreshSummary = { refreshed: 0, failed: [] };
      for (const { songId, provider: name } of store.lookupsFetchedBefore(now() - olderThanMs)) {
        try {
          await singleFlight(songWithId(songId), providerNamed(name));
          summary.refreshed++;
        } catch (error) {
          summary.failed.push({ songId, provider: name, error: error instanceof Error ? error.message : String(error) });
        }
      }
      return summary;
    },
  };
}
