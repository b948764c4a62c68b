import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../log.js';
import { logUrl } from '../log-bounds.js';
import { pathOf, type PageCache } from '@sitestack/page-cache';
import { REQUEST_BOUNDS, urlTooLong } from '../http/index.js';
import { ERRORS } from '../error-codes.js';
import { matchCommentPath, type RendererHandler } from '../renderer/index.js';
import { isOperationsPath } from './operations.js';
import { STATS_PATH } from './operations-policy.js';

export interface FrontParts {
  api: FastifyInstance;
  pageCache: PageCache;
  /** `GET /__cache__/stats` (createStatsHandler). */
  stats: (req: IncomingMessage, res: ServerResponse) => void;
  renderer: RendererHandler;
  /** `POST /plog/<oid>/comments` and its thanks page (createCommentRoute): answered before the page cache, never kept. */
  comments: (req: IncomingMessage, res: ServerResponse, oid: string, sent: boolean) => void;
  logger: Logger;
  /** `/healthz`, `/readyz` and `/metrics` (createOperationsHandler): answered first, never cached nor rate-limited. */
  operations: (req: IncomingMessage, res: ServerResponse, path: string) => void;
  /** Told of every render: its status and how long it took until its answer ended. */
  onRender?: (status: number, seconds: number) => void;
}

/** A plain-text error answer, or the response cut when its head is gone already. */
export function sendError(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Answers a `GET` or `HEAD` of any other spelling than its canonical URL with a 301 there (path-relative: never built
 * from `Host`), and says whether it did. Done before the page cache, so that no spelling is stored under a key of its
 * own here, nor at the edge (which stores 200s only), and purges and refreshes of canonical URLs reach every copy.
 */
function redirectedToCanonical(req: IncomingMessage, res: ServerResponse, renderer: RendererHandler, url: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const canonical = renderer.canonicalUrl(url);
  if (canonical === undefined || canonical.target === url) return false;
  res.writeHead(301, { location: canonical.target, 'cache-control': 'no-store', 'content-length': 0 });
  res.end();
  return true;
}

/**
 * The `next` the page cache calls on a miss: a page cache failure answered 500 (logged), else the request handed to
 * `render`, timed for `onRender`.
 */
export function missPasser(
  parts: Pick<FrontParts, 'logger' | 'onRender'>,
  render: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => (error?: unknown) => void {
  const { logger, onRender } = parts;
  return (req, res) => (error) => {
    if (error !== undefined) {
      logger.error({ err: error, url: logUrl(req.url) }, 'page cache failed');
      sendError(res, 500, 'Internal Server Error');
      return;
    }
    if (onRender !== undefined) {
      const started = performance.now();
      res.once('close', () => onRender(res.statusCode, (performance.now() - started) / 1000));
    }
    render(req, res);
  };
}

/**
 * The front's request handler, in the order of DESIGN §1 after the operations endpoints: `/api/*` → the API app; `/__cache__/stats`; the comment
 * route (`/plog/<oid>/comments`, posted forms are never cached); a non-canonical spelling → 301; everything else → the page cache (which answers `/__purge__` itself) → on a miss, the renderer.
 */
export function createFrontHandler(parts: FrontParts): (req: IncomingMessage, res: ServerResponse) => void {
  const { api, pageCache, stats, renderer, comments, logger, operations } = parts;
  const renderMiss = missPasser(parts, renderer);
  return guardedHandler(logger, 'front', (req, res, url, path) => {
    if (isOperationsPath(path)) operations(req, res, path);
    else if (path === '/api' || path.startsWith('/api/')) api.routing(req, res);
    else if (path === STATS_PATH) stats(req, res);
    else {
      const comment = matchCommentPath(path);
      if (comment !== undefined) comments(req, res, comment.oid, comment.sent);
      else if (!redirectedToCanonical(req, res, renderer, url)) pageCache.handle(req, res, renderMiss(req, res));
    }
  });
}

/**
 * A handler that answers a request target beyond the bound 414 before `route` sees it, and what `route` throws 500
 * (logged as the `name` handler's failure). `route` gets the target and its path.
 */
export function guardedHandler(
  logger: Logger,
  name: string,
  route: (req: IncomingMessage, res: ServerResponse, url: string, path: string) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = req.url ?? '/';
    // Before anything reads or logs it: a client chooses its URLs, and the longest the edge forwards is within this.
    if (urlTooLong(url)) {
      sendError(res, ERRORS.URI_TOO_LONG.status, 'URI Too Long');
      return;
    }
    try {
      route(req, res, url, pathOf(url));
    } catch (error) {
      logger.error({ err: error, url: logUrl(url) }, `${name} handler failed`);
      sendError(res, 500, 'Internal Server Error');
    }
  };
}

/**
 * A node:http server around the front handler that answers malformed requests with 400 (headers beyond
 * `REQUEST_BOUNDS.maxHeaderBytes`: 431) instead of dropping them, and logs none of them. A request target with a
 * character HTTP does not allow (raw UTF-8, a space) is told to percent-encode it.
 */
export function createFrontServer(parts: FrontParts): Server {
  return createBoundedServer(createFrontHandler(parts));
}

/** The node:http server of {@link createFrontServer} around any handler (the proxy's too). */
export function createBoundedServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Server {
  const server = createServer({ maxHeaderSize: REQUEST_BOUNDS.maxHeaderBytes }, handler);
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      socket.end(`HTTP/1.1 ${ERRORS.HEADERS_TOO_LARGE.status} Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    // A query typed into curl as it reads (`?q=国际`) reaches the front unencoded through the edge: say what to do.
    const body = error.code === 'HPE_INVALID_URL' ? `${ERRORS.REQUEST_TARGET_INVALID().message}\n` : '';
    const type = body === '' ? '' : 'content-type: text/plain; charset=utf-8\r\n';
    socket.end(`HTTP/1.1 400 Bad Request\r\nconnection: close\r\n${type}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
  return server;
}
