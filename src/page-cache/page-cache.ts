import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendText } from './http-answers.js';
import { isBypassed } from './bypass.js';
import { captureResponse } from './capture.js';
import { CACHE_HEADER, type CacheEntry } from './entry.js';
import { keyForTarget, originForm } from './key.js';
import { resolveOptions, type PageCacheOptions } from './options.js';
import { validatePathnames } from './pathnames.js';
import { purgeMatches } from './purge-match.js';
import { answerPurge } from './purge-route.js';
import { EntryStore, type PageCacheStats } from './store.js';
import { ERRORS } from '../error-codes.js';
import { logUrl } from '../log-bounds.js';

/** Connect-style `next`: the renderer (or the next middleware). */
export type NextFunction = (error?: unknown) => unknown;

export interface PageCache {
  /** Connect-style middleware: answers hits and the purge route, passes misses to `next` while capturing them. */
  handle(req: IncomingMessage, res: ServerResponse, next: NextFunction): void;
  /** Removes every key the pathnames match (spec §4 purge rule) and returns them, pathname by pathname. */
  purge(pathnames: readonly string[]): string[];
  /** Entries held. */
  readonly size: number;
  stats(): PageCacheStats;
}

type Waiter = (entry: CacheEntry | undefined) => void;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Creates a page cache; see {@link PageCacheOptions} for the options and their defaults. */
export function createPageCache(options: PageCacheOptions = {}): PageCache {
  const config = resolveOptions(options);
  const { logger } = config;
  const store = new EntryStore(config);
  const flights = new Map<string, Waiter[]>();
  /** Renders under way; a purge that matches one marks it stale so its (possibly outdated) response is not stored. */
  const renders = new Set<{ key: string; stale: boolean }>();
  const keyPolicy = config.key;
  let hits = 0;
  let misses = 0;

  if (config.purgeSecret === undefined) {
    logger.warn(`page cache: no purge secret configured, every request to ${config.purgePath} is refused with 403`);
  }

  function isPurgeRoute(url: string): boolean {
    const path = config.purgePath;
    return url.startsWith(path) && (url.length === path.length || url.charCodeAt(path.length) === 63 /* ? */);
  }

  function keyOf(req: IncomingMessage, target: string): string | undefined {
    if (typeof keyPolicy !== 'function') return keyForTarget(keyPolicy, target, req.headers, config);
    try {
      const key = keyPolicy(req);
      if (typeof key === 'string') return key;
      logger.error({ url: logUrl(req.url) }, 'page cache: the key function returned a non-string; request not cached');
    } catch (error) {
      logger.error({ err: error, url: logUrl(req.url) }, 'page cache: the key function threw; request not cached');
    }
    return undefined;
  }

  function serve(res: ServerResponse, entry: CacheEntry, head: boolean): void {
    hits++;
    res.writeHead(200, entry.replayHeaders);
    if (head) res.end();
    else res.end(entry.body);
  }

  function failed(res: ServerResponse, error: unknown, what = 'the renderer failed'): void {
    logger.error({ err: error }, `page cache: ${what}`);
    if (!res.headersSent) sendText(res, 500, 'Internal Server Error');
    else if (!res.writableEnded) res.destroy();
  }

  function render(req: IncomingMessage, res: ServerResponse, next: NextFunction, key: string, onDone: Waiter): void {
    misses++;
    res.setHeader(CACHE_HEADER, 'miss');
    const state = { key, stale: false };
    renders.add(state);
    captureResponse(res, {
      storeSetCookie: config.storeSetCookie,
      storePrivate: config.storePrivate,
      maxBytes: config.maxBytes,
      onDone(entry) {
        renders.delete(state);
        const fresh = state.stale ? undefined : entry;
        if (fresh !== undefined) store.set(key, fresh);
        onDone(fresh);
      },
    });
    try {
      const result = next();
      if (isThenable(result)) result.then(undefined, (error: unknown) => failed(res, error));
    } catch (error) {
      failed(res, error);
    }
  }

  const noWaiters: Waiter = () => undefined;

  function renderAsLeader(req: IncomingMessage, res: ServerResponse, next: NextFunction, key: string): void {
    flights.set(key, []);
    render(req, res, next, key, (entry) => {
      const waiters = flights.get(key) ?? [];
      flights.delete(key);
      for (const waiter of waiters) waiter(entry);
    });
  }

  function handle(req: IncomingMessage, res: ServerResponse, next: NextFunction): void {
    // Mounted under a path (Express, Connect), `req.url` lacks the mount point; keys and purges use the full path.
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    if (isPurgeRoute(url)) {
      const distribute = config.distributePurge;
      const routePurge = distribute === undefined ? purge : (pathnames: string[]) => distribute(pathnames, purge);
      answerPurge(req, res, { ...config, purge: routePurge }).catch((error: unknown) => failed(res, error, 'the purge route failed'));
      return;
    }
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') {
      next();
      return;
    }
    const target = originForm(url);
    if (target === undefined || isBypassed(target, config.bypassPrefixes)) {
      next();
      return;
    }
    const key = keyOf(req, target);
    if (key === undefined) {
      next();
      return;
    }
    const entry = store.get(key);
    if (entry !== undefined) {
      serve(res, entry, method === 'HEAD');
      return;
    }
    // A HEAD miss never stores and never leads a single flight: it has no body to capture.
    if (method === 'HEAD') {
      misses++;
      res.setHeader(CACHE_HEADER, 'miss');
      next();
      return;
    }
    if (!config.singleFlight) {
      render(req, res, next, key, noWaiters);
      return;
    }
    const waiters = flights.get(key);
    if (waiters === undefined) {
      renderAsLeader(req, res, next, key);
      return;
    }
    // A follower: answered from the leader's entry, or renders itself when the leader's response was not stored.
    waiters.push((leaderEntry) => {
      if (res.destroyed) return;
      if (leaderEntry !== undefined) serve(res, leaderEntry, false);
      else render(req, res, next, key, noWaiters);
    });
  }

  function purge(pathnames: readonly string[]): string[] {
    const validation = validatePathnames(pathnames, config);
    if (!validation.ok) throw ERRORS.PURGE_PATHNAMES_INVALID(validation.message);
    for (const state of renders) {
      if (validation.pathnames.some((pathname) => purgeMatches(state.key, pathname, config))) state.stale = true;
    }
    return store.purge(validation.pathnames);
  }

  return {
    handle,
    purge,
    get size() {
      return store.size;
    },
    stats() {
      const { entries, bytes, evictions, purged } = store.counters();
      return { entries, bytes, hits, misses, evictions, purged };
    },
  };
}
