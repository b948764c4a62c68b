import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderToString } from 'react-dom/server';
import { ERRORS } from '../error-codes.js';
import { errorBody, isAppError, type AppError } from '../errors.js';
import { logUrl } from '../log-bounds.js';
import { silentLogger, type Logger } from '../log.js';
import { publicBaseMemo, type PublicBaseOptions } from '../http/index.js';
import { pathOf, preferencesMemo, SURROGATE_KEY_HEADER } from '@sitestack/page-cache';
import { surrogateKeyHeader } from '../surrogate-keys.js';
import { loadClientBuild, type ClientBuild } from './build.js';
import { renderDocument } from './document.js';
import { atomFeed, CRAWLER_PATHS, FAVICON, FEED_ENTRIES, robotsTxt, sitemap } from './feeds.js';
import { loadLatestPosts, loadPostList } from './origin-client.js';
import { isMoved, loadPageData } from './pages/sources.js';
import { feedKeys, pageKeys, sitemapKeys } from './page-keys.js';
import { App } from './pages/views.js';
import { SITE_DEFAULTS, type SiteIdentity } from './site.js';
import { canonicalUrlMemo, type CanonicalUrl } from './canonical-url.js';
import { prepareStaticFile, sendStaticFile } from './static-file.js';
import { createImageRoute } from './image-route.js';
import { IMAGE_PREFIX } from '../origin/images/names.js';
import { DATA_PREFIX, dataUrl, DEFAULT_LOCALE, matchPage, pagePathOf, parseDataUrl, STATIC_PREFIX } from './routes.js';
import type { PageData } from './types.js';

export interface RendererOptions {
  /** The content origin, e.g. `http://127.0.0.1:4000` (`API_BASE`). */
  apiBase: string;
  /** Folder of client builds (`buildClient`'s `outDir`); the renderer serves the build its manifest names. */
  buildDir?: string;
  /** An already loaded build, instead of `buildDir`. */
  build?: ClientBuild;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** @default a silent logger */
  logger?: Logger;
  /** Locales with a search page; the other pages are in the first one. @default ['en-US'] */
  locales?: string[];
  /** Per origin request, for its headers and its whole body. @default 10000 */
  timeoutMs?: number;
  /**
   * Largest answer read from the origin, in bytes: a Content-Length above it, or a body growing past it, fails the page
   * with the 502 page, never cached, and the rest is not read. Room for the largest post the origin accepts (500,000
   * characters of 4 bytes each) with its comments. @default 4194304 (4 MiB)
   */
  maxOriginAnswerBytes?: number;
  /** Largest image file passed on from the origin (`/_render/image/`), in bytes. @default 33554432 (32 MiB) */
  maxImageBytes?: number;
  /** Posts listed on the home page. @default 10 */
  latestPosts?: number;
  /** `Cache-Control` of pages, data routes, the feed, the sitemap and robots.txt. @default 'public,max-age=86400' */
  cacheControl?: string;
  /** Name, description and footer of the site. @default SITE_DEFAULTS (the demo's) */
  site?: SiteIdentity;
  /**
   * Hosts trusted in `X-Forwarded-Host` when absolute URLs (canonical links, Open Graph, feed, sitemap, robots.txt) are
   * made: the public base URL rule (publicBaseUrl). @default ['localhost', '127.0.0.1']
   */
  allowedHosts?: readonly string[];
  /** `PUBLIC_URL` and the proxies whose `X-Forwarded-Proto` is believed (publicBaseUrl). @default neither */
  publicBase?: PublicBaseOptions;
}

export const RENDERER_DEFAULTS = {
  locales: [DEFAULT_LOCALE],
  timeoutMs: 10_000,
  maxOriginAnswerBytes: 4 * 1024 * 1024,
  maxImageBytes: 32 * 1024 * 1024,
  latestPosts: 10,
  cacheControl: 'public,max-age=86400',
  staticCacheControl: 'public, max-age=31536000, immutable',
  uncached: 'no-store',
  site: SITE_DEFAULTS,
  allowedHosts: ['localhost', '127.0.0.1'],
} as const;

/** A node:http handler; `next(error)`, when given, receives render failures instead of the built-in 502 page. */
export type RendererHandler = ((req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void) & {
  readonly buildId: string;
  /** Answers `page` as a full HTML page with `status`, never cacheable: the front's answers to a posted form. */
  readonly sendUncachedPage: (req: IncomingMessage, res: ServerResponse, status: number, page: PageData) => void;
  /** The identity the pages show, for page titles made outside the renderer. */
  readonly site: SiteIdentity;
  /**
   * The one URL of what a request target names, with this renderer's locales (canonicalUrl): the front sends every
   * other spelling there before its page cache, and keys the cache on its `cacheTarget`.
   */
  readonly canonicalUrl: (url: string) => CanonicalUrl | undefined;
};

/** The `Surrogate-Key` header of a cacheable answer showing what `keys` name; none when they name nothing. */
function keyHeader(keys: readonly string[]): Record<string, string> {
  const value = surrogateKeyHeader(keys);
  return value === '' ? {} : { [SURROGATE_KEY_HEADER]: value };
}

function send(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { ...headers, 'content-length': String(bytes.length) });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/** Creates the server-side renderer of every page, its data routes and its static files. */
export function createRenderer(options: RendererOptions): RendererHandler {
  const build = options.build ?? (options.buildDir === undefined ? undefined : loadClientBuild(options.buildDir));
  if (build === undefined) throw ERRORS.RENDERER_OPTIONS_INVALID('it needs buildDir or build');
  const logger = options.logger ?? silentLogger();
  const locales = options.locales ?? [...RENDERER_DEFAULTS.locales];
  const cacheControl = options.cacheControl ?? RENDERER_DEFAULTS.cacheControl;
  const site = options.site ?? RENDERER_DEFAULTS.site;
  const allowedHosts = options.allowedHosts ?? RENDERER_DEFAULTS.allowedHosts;
  const baseOf = publicBaseMemo(allowedHosts, options.publicBase);
  const canonicalOf = canonicalUrlMemo(locales);
  const origin = {
    apiBase: options.apiBase.replace(/\/+$/, ''),
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? RENDERER_DEFAULTS.timeoutMs,
    maxAnswerBytes: options.maxOriginAnswerBytes ?? RENDERER_DEFAULTS.maxOriginAnswerBytes,
    latestPosts: options.latestPosts ?? RENDERER_DEFAULTS.latestPosts,
    siteName: site.name,
  };
  const scriptUrl = `${STATIC_PREFIX}${build.buildId}/${build.script}`;
  const script = build.files.get(build.script);
  if (script === undefined) throw ERRORS.RENDERER_OPTIONS_INVALID(`the client build holds no ${build.script}`);
  const bundle = prepareStaticFile(script, build.encoded, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': RENDERER_DEFAULTS.staticCacheControl });
  const preferences = preferencesMemo();
  const serveImage = createImageRoute({ ...origin, maxBytes: options.maxImageBytes ?? RENDERER_DEFAULTS.maxImageBytes, logger });
  const locale = locales[0] ?? DEFAULT_LOCALE;

  const html = (req: IncomingMessage, page: PageData) =>
    renderDocument({
      bodyHtml: renderToString(<App page={page} site={site} locale={locale} />),
      bootstrap: { buildId: build.buildId, locales, page, site },
      scriptUrl,
      baseUrl: baseOf(req),
    });

  const cacheHeaders = (cache: boolean, keys: readonly string[]) => (cache ? { 'cache-control': cacheControl, ...keyHeader(keys) } : { 'cache-control': RENDERER_DEFAULTS.uncached });

  const sendPage = (req: IncomingMessage, res: ServerResponse, status: number, page: PageData, cache = status === 200) =>
    send(req, res, status, { 'content-type': 'text/html; charset=utf-8', ...cacheHeaders(cache, pageKeys(page)) }, html(req, page));

  const sendJson = (req: IncomingMessage, res: ServerResponse, status: number, body: unknown, keys: readonly string[] = []) =>
    send(req, res, status, { 'content-type': 'application/json; charset=utf-8', ...cacheHeaders(status === 200, keys) }, JSON.stringify(body));

  /** The renderer's JSON answers (the data routes) fail with the one error body of every JSON API. */
  const sendError = (req: IncomingMessage, res: ServerResponse, error: AppError) => sendJson(req, res, error.status, errorBody(error));

  const notFoundPage = (pathname: string): PageData => ({ kind: 'not-found', title: `Not found · ${site.name}`, pathname });

  /**
   * A moved page (a renamed post) sends readers, feed readers and the client's navigation to its new address for good.
   * Kept by no cache but the edge's refresh (which stores it in place of the old page, as it does a 404): the slug may
   * be taken over or renamed back, and a browser keeping a 301 forever would then loop.
   */
  const sendMoved = (req: IncomingMessage, res: ServerResponse, location: string) =>
    send(req, res, 301, { location, 'cache-control': RENDERER_DEFAULTS.uncached, 'content-type': 'text/plain; charset=utf-8' }, `Moved Permanently: ${location}`);

  /**
   * Every failure after the request was routed: the origin's (unreachable, an error status, a malformed answer) and
   * the render's own. It never throws, since it runs last in a promise chain whose rejection nobody would handle.
   */
  const fail = (req: IncomingMessage, res: ServerResponse, error: unknown, asJson: boolean, next?: (error?: unknown) => void) => {
    try {
      logger.error({ err: error, url: logUrl(req.url) }, isAppError(error) ? error.message : 'render failed');
      if (next !== undefined) next(error);
      else if (res.headersSent) res.destroy();
      else if (asJson) sendError(req, res, ERRORS.ORIGIN_FAILED());
      else sendPage(req, res, 502, { kind: 'error', title: `Error · ${site.name}` });
    } catch (failure) {
      logger.error({ err: failure, url: logUrl(req.url) }, 'answering a failed render failed');
      res.destroy();
    }
  };

  /** The feed, the sitemap, robots.txt and the icon: true when `pathname` named one of them and it is being answered. */
  const serveCrawlerFile = (req: IncomingMessage, res: ServerResponse, pathname: string, next?: (error?: unknown) => void): boolean => {
    const text = (type: string, body: string, keys: readonly string[] = []) => send(req, res, 200, { 'content-type': `${type}; charset=utf-8`, ...cacheHeaders(true, keys) }, body);
    switch (pathname) {
      case CRAWLER_PATHS.feed:
        loadLatestPosts(origin, FEED_ENTRIES)
          .then((posts) => text('application/atom+xml', atomFeed(posts, site, baseOf(req)), feedKeys(posts)))
          .catch((error: unknown) => fail(req, res, error, false, next));
        return true;
      case CRAWLER_PATHS.sitemap:
        loadPostList(origin)
          .then((posts) => text('application/xml', sitemap(posts, baseOf(req)), sitemapKeys(posts)))
          .catch((error: unknown) => fail(req, res, error, false, next));
        return true;
      case CRAWLER_PATHS.robots:
        text('text/plain', robotsTxt(baseOf(req)));
        return true;
      case CRAWLER_PATHS.favicon:
        send(req, res, 200, { 'content-type': 'image/x-icon', 'cache-control': cacheControl }, FAVICON);
        return true;
      default:
        return false;
    }
  };

  const handler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(req, res, 405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8', 'cache-control': RENDERER_DEFAULTS.uncached }, 'Method Not Allowed');
      return;
    }
    // One URL per resource: nothing is rendered under a spelling of its own, so no cache can keep one.
    const canonical = canonicalOf(req.url ?? '/');
    if (canonical === undefined) {
      send(req, res, 400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': RENDERER_DEFAULTS.uncached }, 'Bad Request');
      return;
    }
    if (canonical.target !== req.url) {
      send(req, res, 301, { location: canonical.target, 'cache-control': RENDERER_DEFAULTS.uncached }, '');
      return;
    }
    const pathname = pathOf(canonical.target);

    if (pathname.startsWith(STATIC_PREFIX)) {
      if (pathname === scriptUrl) sendStaticFile(req, res, bundle, preferences(req.headers['accept-encoding']));
      else send(req, res, 404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': RENDERER_DEFAULTS.uncached }, 'Not Found');
      return;
    }

    if (pathname.startsWith(IMAGE_PREFIX)) {
      serveImage(req, res, pathname.slice(IMAGE_PREFIX.length));
      return;
    }

    if (pathname.startsWith(DATA_PREFIX)) {
      const data = parseDataUrl(pathname, locales);
      if (data === undefined || data.buildId !== build.buildId) {
        sendError(req, res, ERRORS.NOT_FOUND(data === undefined ? 'such data route' : `data route of build ${data.buildId}, which is not the current build`));
        return;
      }
      loadPageData(data.route, origin)
        .then((page) => {
          if (page === undefined) sendError(req, res, ERRORS.NOT_FOUND('such page'));
          else if (isMoved(page)) sendMoved(req, res, dataUrl(build.buildId, page.movedTo));
          else sendJson(req, res, 200, page, pageKeys(page));
        })
        .catch((error: unknown) => fail(req, res, error, true, next));
      return;
    }

    if (serveCrawlerFile(req, res, pathname, next)) return;

    const route = matchPage(pathname, locales);
    if (route === undefined) {
      sendPage(req, res, 404, notFoundPage(pathname));
      return;
    }
    loadPageData(route, origin)
      .then((page) => {
        if (page !== undefined && isMoved(page)) sendMoved(req, res, pagePathOf(page.movedTo));
        else sendPage(req, res, page === undefined ? 404 : 200, page ?? notFoundPage(pathname));
      })
      .catch((error: unknown) => fail(req, res, error, false, next));
  };
  return Object.assign(handler, {
    buildId: build.buildId,
    sendUncachedPage: (req: IncomingMessage, res: ServerResponse, status: number, page: PageData) => sendPage(req, res, status, page, false),
    site,
    canonicalUrl: canonicalOf,
  });
}
