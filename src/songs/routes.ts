import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import { createAffiliateLookups, type AffiliateLookups } from './lookups.js';
import type { SongProvider } from './providers/provider.js';
import { parseSongId } from './song-id.js';
import type { SongStore } from './store.js';

/** What the song API needs: the store, the providers and how long a provider may take. */
export interface SongRoutesDeps {
  store: SongStore;
  providers: readonly SongProvider[];
  logger: Logger;
  /** @default 5000 */
  providerTimeoutMs?: number;
  /** The clock for `fetched_at`. @default Date.now */
  now?: () => number;
}

/** How long a reverse proxy may keep an affiliate answer (DESIGN §8). */
export const AFFILIATE_CACHE_CONTROL = 'public, max-age=86400';

export const AFFILIATE_ROUTE = '/api/song/:songId/affiliate/:provider';

/**
 * `GET /api/song/<song_id>/affiliate/<provider>`, as a fastify plugin for the front's API app (which installs the error
 * mapper). Every error answer of these routes carries `Cache-Control: no-store`, so no proxy keeps a failure.
 */
export function songRoutes(deps: SongRoutesDeps): FastifyPluginAsync {
  const lookups: AffiliateLookups = createAffiliateLookups({
    store: deps.store,
    providers: deps.providers,
    logger: deps.logger,
    ...(deps.providerTimeoutMs === undefined ? {} : { providerTimeoutMs: deps.providerTimeoutMs }),
    ...(deps.now === undefined ? {} : { now: deps.now }),
  });
  return async (app) => {
    app.addHook('onSend', async (_request, reply, payload) => {
      if (reply.statusCode >= 400) reply.header('cache-control', 'no-store');
      return payload;
    });
    app.get<{ Params: { songId: string; provider: string } }>(AFFILIATE_ROUTE, async (request, reply) => {
      const songId = parseSongId(request.params.songId);
      if (songId === undefined) {
        throw new AppError('INVALID_SONG_ID', 'song id must be a positive integer without sign, exponent or leading zeros, at most 9007199254740991', 400);
      }
      const answer = await lookups.lookup(songId, request.params.provider);
      reply.header('cache-control', AFFILIATE_CACHE_CONTROL);
      return answer;
    });
  };
}
