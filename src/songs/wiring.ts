import { join } from 'node:path';
import type { Logger } from '../log.js';
import { DEMO_SONGS } from './demo-songs.js';
import { createAmazonProvider } from './providers/amazon.js';
import { createItunesProvider } from './providers/itunes.js';
import { unavailableProvider, type SongProvider } from './providers/provider.js';
import type { SongRoutesDeps } from './routes.js';
import type { SongsConfig } from './types.js';
import { openSongStore, type SongStore } from './store.js';

export const SONGS_FILE = 'songs.sqlite';

/** Every provider the configuration describes; amazon without credentials answers 503 instead of being unknown. */
export function createSongProviders(config: SongsConfig): SongProvider[] {
  const { amazon } = config;
  return [
    createItunesProvider({ baseUrl: config.itunesApiBase }),
    amazon.credentials === undefined
      ? unavailableProvider('amazon', 'set AMAZON_ACCESS_KEY, AMAZON_SECRET_KEY and AMAZON_PARTNER_TAG')
      : createAmazonProvider({ ...amazon.credentials, baseUrl: amazon.baseUrl, region: amazon.region, marketplace: amazon.marketplace }),
  ];
}

export interface Songs extends SongRoutesDeps {
  store: SongStore;
  close(): void;
}

/**
 * Opens `<dataDir>/songs.sqlite` and the configured providers: what `songRoutes` and the `songs` command need.
 * With `seed`, a store without songs gets the demo catalogue (the servers' first start).
 */
export function openSongs(options: { dataDir: string; config: SongsConfig; logger: Logger; seed: boolean }): Songs {
  const store = openSongStore(join(options.dataDir, SONGS_FILE));
  if (options.seed && store.seedIfEmpty(DEMO_SONGS)) options.logger.info({ songs: DEMO_SONGS.length }, 'seeded the demo song catalogue');
  return {
    store,
    providers: createSongProviders(options.config),
    logger: options.logger,
    providerTimeoutMs: options.config.providerTimeoutMs,
    close: () => store.close(),
  };
}
