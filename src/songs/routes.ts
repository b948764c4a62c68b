import type { FastifyPluginAsync } from 'fastify';
import { ERRORS } from '../error-codes.js';
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

const NULLABLE_STRING = { type: 'string', nullable: true } as const;

/** The answer's JSON schema: fastify serialises with it, which also drops any field not listed here. */
const ANSWER_SCHEMA = {
  type: 'object',
  required: ['song_id', 'provider', 'match'],
  properties: {
    song_id: { type: 'integer' },
    provider: { type: 'string' },
    match: {
      type: 'object',
      nullable: true,
      required: ['title', 'artist', 'url', 'image', 'price'],
      properties: { title: { type: 'string' }, artist: { type: 'string' }, url: { type: 'string' }, image: NULLABLE_STRING, price: NULLABLE_STRING },
    },
  },
} as const;

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
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (reply.statusCode >= 400) reply.header('cache-control', 'no-store');
      done(null, payload);
    });
    app.get<{ Params: { songId: string; provider: string } }>(AFFILIATE_ROUTE, { schema: { response: { 200: ANSWER_SCHEMA } } }, async (request, reply) => {
      const songId = parseSongId(request.params.songId);
      if (songId === undefined) {
        throw ERRORS.INVALID_SONG_ID();
      }
      const answer = await lookups.lookup(songId, request.params.provider);
      reply.header('cache-control', AFFILIATE_CACHE_CONTROL);
      return answer;
    });
  };
}
