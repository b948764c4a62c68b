import type { FastifyPluginAsync } from 'fastify';
import { SEARCH_LOCALE } from '../../locale.js';
import { bundleSearchPageScript } from './bundle.js';
import { searchPageHtml } from './html.js';

/** Options of the search page routes. */
export interface SearchPageOptions {
  /** Where the page loads its script from. @default '/static/search-page.js' */
  scriptPath?: string;
  /** `Cache-Control` of the page and its script: both are the same for every query. @default 'public, max-age=3600' */
  cacheControl?: string;
}

export const SEARCH_PAGE_DEFAULTS = { scriptPath: '/static/search-page.js', cacheControl: 'public, max-age=3600' } as const;

/**
 * `GET /<locale>/search` (the static page) and its bundled script, as a fastify plugin. The script is bundled once,
 * when the plugin is registered.
 */
export function searchPageRoutes(options: SearchPageOptions = {}): FastifyPluginAsync {
  const scriptPath = options.scriptPath ?? SEARCH_PAGE_DEFAULTS.scriptPath;
  const cacheControl = options.cacheControl ?? SEARCH_PAGE_DEFAULTS.cacheControl;
  return async (app) => {
    const script = await bundleSearchPageScript();
    app.get(scriptPath, async (_request, reply) =>
      reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', cacheControl).send(script),
    );
    app.get<{ Params: { locale: string } }>('/:locale/search', async (request, reply) => {
      const { locale } = request.params;
      if (!SEARCH_LOCALE.test(locale)) return reply.callNotFound();
      return reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', cacheControl).send(searchPageHtml(locale, scriptPath));
    });
  };
}
