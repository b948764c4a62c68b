import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { bundleBrowserScript } from '../../page/bundle.js';

/** Options of the search box routes. */
export interface SearchBoxOptions {
  /** Where the script is served. @default '/api/search/box.js' */
  path?: string;
  /** `Cache-Control` of the script: it changes only with a new version of sitestack. @default 'public, max-age=3600' */
  cacheControl?: string;
}

export const SEARCH_BOX_DEFAULTS = { path: '/api/search/box.js', cacheControl: 'public, max-age=3600' } as const;

/**
 * Lets any site's pages read the search API's GET answers (the search box calls it from their origin): the answers are
 * public and the same for everyone, so `*`, without credentials. Errors (400, 429, 503) carry it too, so the box can
 * tell the reader what went wrong. A fastify onSend hook for the search routes' own context.
 */
export async function allowCrossOriginReads(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (request.method === 'GET' || request.method === 'HEAD') {
    reply.header('access-control-allow-origin', '*');
    reply.header('cross-origin-resource-policy', 'cross-origin');
  }
  return payload;
}

/** `GET /api/search/box.js`: the `<sitestack-search>` element's script, bundled once when the plugin is registered. */
export function searchBoxRoutes(options: SearchBoxOptions = {}): FastifyPluginAsync {
  const path = options.path ?? SEARCH_BOX_DEFAULTS.path;
  const cacheControl = options.cacheControl ?? SEARCH_BOX_DEFAULTS.cacheControl;
  return async (app) => {
    const script = await bundleBrowserScript(new URL('./client', import.meta.url), 'search box script');
    app.addHook('onSend', allowCrossOriginReads);
    app.get(path, async (_request, reply) =>
      reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', cacheControl).header('x-content-type-options', 'nosniff').send(script),
    );
  };
}
