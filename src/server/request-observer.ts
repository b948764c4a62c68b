import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../log.js';
import type { LogRequestsMode } from '../log-bounds.js';
import { boundedLogPath, chosenForLog, shouldLogRequest } from './operations-policy.js';

/** The page cache's answer header: `hit`, `miss` (or `stale`, with soft purges). */
const CACHE_HEADER = 'x-middleware-cache';

/** Options of {@link observeRequests}. */
export interface RequestObserverOptions {
  /** Names the server in each log line (`sitestack start` runs both in one process). */
  server: 'front' | 'origin' | 'proxy';
  /** The route class of a path (frontRouteClass, originRouteClass). */
  routeClass: (path: string, method: string | undefined) => string;
  /** Called once per request when its answer ended or the client left. */
  record: (routeClass: string, status: number, seconds: number) => void;
  logger: Logger;
  /** `LOG_REQUESTS`. */
  logRequests: LogRequestsMode;
  /** Names this process in each log line (a front worker's cluster id). */
  worker?: string;
  /** Whether log lines carry the answer's cache status (the front). @default false */
  cacheStatus?: boolean;
  /** @default Math.random */
  random?: () => number;
}

type WriteHead = ServerResponse['writeHead'];

/** The cache header among writeHead's arguments: the page cache writes its hits' heads as a flat list, which getHeader cannot see. */
function cacheHeaderIn(args: unknown[]): string | undefined {
  const headers = typeof args[1] === 'string' ? args[2] : args[1];
  if (Array.isArray(headers)) {
    // The page cache's heads end with the cache header: look there first.
    for (let i = headers.length - 2; i >= 0; i -= 2) {
      const name: unknown = headers[i];
      if (typeof name === 'string' && name.toLowerCase() === CACHE_HEADER) return String(headers[i + 1]);
    }
    return undefined;
  }
  const value = (headers as OutgoingHttpHeaders | undefined)?.[CACHE_HEADER];
  return value === undefined ? undefined : String(value);
}

function pathOf(url: string): string {
  const mark = url.indexOf('?');
  return mark === -1 ? url : url.slice(0, mark);
}

/**
 * Times every request `server` takes, from its arrival to the end of its answer (or the client leaving), and hands
 * it to `record`; writes the request log line `LOG_REQUESTS` asks for. Installed first among the server's request
 * listeners, so it sees every request, whatever answers it.
 */
export function observeRequests(server: Server, options: RequestObserverOptions): void {
  const { server: name, routeClass, record, logger, logRequests, worker } = options;
  const random = options.random ?? Math.random;
  const readCache = options.cacheStatus ?? false;
  // The fields every line of this server shares are serialized once, in the child's bindings.
  const lines = logger.child({ server: name, ...(worker === undefined ? {} : { worker }) });
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const chosen = chosenForLog(logRequests, random());
    let cache: string | undefined;
    // Only for a line sure to be written, so the requests that are not logged keep the plain writeHead.
    if (readCache && chosen) {
      const writeHead = res.writeHead;
      res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
        cache = cacheHeaderIn(args);
        return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
      } as WriteHead;
    }
    res.on('close', () => {
      const seconds = (performance.now() - started) / 1000;
      const url = req.url ?? '/';
      const aborted = !res.writableFinished;
      const status = res.headersSent ? res.statusCode : 0;
      if (readCache && cache === undefined) {
        const header = res.getHeader(CACHE_HEADER);
        if (header !== undefined) cache = String(header);
      }
      const route = routeClass(pathOf(url), req.method);
      record(route, status, seconds);
      if (!shouldLogRequest(logRequests, status, aborted, chosen)) return;
      lines.info(
        {
          method: req.method,
          path: boundedLogPath(url),
          route,
          status,
          durationMs: Math.round(seconds * 10_000) / 10,
          ...(cache === undefined ? {} : { cache }),
          ...(aborted ? { aborted } : {}),
        },
        'request',
      );
    });
  });
}
