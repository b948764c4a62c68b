import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { createPageCache, createStatsHandler, type PageCache } from '../page-cache/index.js';
import { buildClient, createRenderer, type BuildClientOptions } from '../renderer/index.js';
import { openSongs, songRoutes } from '../songs/index.js';
import { createApiApp } from './api.js';
import type { Command } from './command.js';
import { createFrontServer } from './front.js';
import { waitForShutdown } from './shutdown.js';

export interface RunningFront {
  url: string;
  buildId: string;
  pageCache: PageCache;
  server: Server;
  close(): Promise<void>;
}

export interface StartFrontOptions {
  config: Config;
  logger: Logger;
  /** Overrides `config.purgeSecret` (`sitestack start` shares a per-run secret with its origin). */
  purgeSecret?: string | undefined;
  /** Overrides `config.port`; 0 picks a free port. */
  port?: number;
  /** Where the client bundle is built. @default `<dataDir>/client` */
  buildDir?: string;
  /** Client bundle options other than its folder (e.g. a release banner). */
  clientBuild?: Omit<BuildClientOptions, 'outDir'>;
  /** Route plugins for `/api/*` besides the song routes. */
  apiPlugins?: readonly FastifyPluginAsync[];
}

/**
 * Builds the client bundle when its sources changed, then serves the front: the API (song routes and `apiPlugins`),
 * the page cache and the renderer. The song store (`<dataDir>/songs.sqlite`) is opened, and seeded when empty.
 */
export async function startFront(options: StartFrontOptions): Promise<RunningFront> {
  const { config, logger } = options;
  const purgeSecret = options.purgeSecret ?? config.purgeSecret;
  const buildDir = options.buildDir ?? join(config.dataDir, 'client');
  const manifest = await buildClient({ ...options.clientBuild, outDir: buildDir });
  const renderer = createRenderer({ apiBase: config.apiBase, buildDir, logger });
  const pageCache = createPageCache({
    maxEntries: config.cacheMaxEntries,
    maxBytes: config.cacheMaxBytes,
    key: config.cacheKey,
    variantCookie: config.cacheVariantCookie,
    variantHeader: config.cacheVariantHeader,
    purgeSecret,
    logger,
  });
  const songs = openSongs({ dataDir: config.dataDir, config: config.songs, logger, seed: true });
  const api = await createApiApp({ logger, plugins: [songRoutes(songs), ...(options.apiPlugins ?? [])] });
  const server = createFrontServer({ api, pageCache, stats: createStatsHandler(pageCache, { secret: purgeSecret }), renderer, logger });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await api.close();
    songs.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    buildId: manifest.buildId,
    pageCache,
    server,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await api.close();
      songs.close();
    },
  };
}

export const frontCommand: Command = {
  name: 'front',
  summary: 'Run the front: /api/*, the page cache with its purge route, and the React renderer (PORT)',
  usage: 'sitestack front',
  async run({ config, logger, out }) {
    const front = await startFront({ config, logger });
    out.write(`front listening on ${front.url} (build ${front.buildId})\n`);
    await waitForShutdown(logger);
    await front.close();
    return 0;
  },
};
