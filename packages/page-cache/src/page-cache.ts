import type { IncomingMessage, ServerResponse } from 'node:http';
import { Answers } from './answer.js';
import { isBypassed } from './bypass.js';
import { EncodingKeeper } from './encodings.js';
import type { CacheEntry } from './entry.js';
import { originForm } from './key.js';
import { preferencesMemo } from './negotiate.js';
import { resolveOptions, type PageCacheOptions, type PurgeRequest } from './options.js';
import { purgeTargetsOf } from './purge-request.js';
import { answerPurge, isPurgeRoute } from './purge-route.js';
import { Misses } from './miss.js';
import type { Render } from './render-recording.js';
import { answerFailure, type NextFunction } from './renderer-call.js';
import { requestKeyOf } from './request-key.js';
import { Revalidator } from './revalidation.js';
import { RunningRenders } from './running-renders.js';
import { SingleFlight } from './single-flight.js';
import { Revalidations, staleServable } from './soft-purge.js';
import { EntryStore, type PageCacheStats, type RequestCounters } from './store.js';

export type { NextFunction } from './renderer-call.js';

export interface PageCache {
  /** Connect-style middleware: answers hits and the purge route, passes misses to `next` while capturing them. */
  handle(req: IncomingMessage, res: ServerResponse, next: NextFunction): void;
  /**
   * Purges every key the pathnames match (spec §4 rule), pathname by pathname, then every entry that named one of the
   * surrogate keys, and returns those cache keys, each once. An array is a list of pathnames. With `purgeMode: 'soft'`
   * the entries are marked stale instead of removed.
   */
  purge(request: readonly string[] | PurgeRequest): string[];
  /** Entries held. */
  readonly size: number;
  stats(): PageCacheStats;
}

/** Creates a page cache; see {@link PageCacheOptions} for the options and their defaults. */
export function createPageCache(options: PageCacheOptions = {}): PageCache {
  const config = resolveOptions(options);
  const { logger } = config;
  const store = new EntryStore(config);
  const counters: RequestCounters = { hits: 0, misses: 0, stale: 0, compressions: 0 };
  const preferences = preferencesMemo();
  const running = new RunningRenders<Render>(config);
  const misses = new Misses({ config, store, running, preferences, counters, logger });
  const answers = new Answers(new EncodingKeeper(store, config, counters, logger), preferences, counters);
  const flights = new SingleFlight<[CacheEntry | undefined, boolean]>();
  const revalidator = config.revalidate === undefined ? undefined : new Revalidator(new Revalidations(config.staleMaxMs), misses, store, config.revalidate);
  const keyOf = requestKeyOf(config.key, config, logger);
  const distribute = config.distributePurge;
  const purgeRoute = { ...config, purge: distribute === undefined ? purge : (request: PurgeRequest) => distribute(request, purge) };

  if (config.purgeSecret === undefined) {
    logger.warn(`page cache: no purge secret configured, every request to ${config.purgePath} is refused with 403`);
  }

  function handle(req: IncomingMessage, res: ServerResponse, next: NextFunction): void {
    // Mounted under a path (Express, Connect), `req.url` lacks the mount point; keys and purges use the full path.
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    if (isPurgeRoute(url, config.purgePath)) {
      answerPurge(req, res, purgeRoute).catch((error: unknown) => answerFailure(res, logger, error, 'the purge route failed'));
      return;
    }
    const method = req.method;
    const target = method === 'GET' || method === 'HEAD' ? originForm(url) : undefined;
    const key = target === undefined || isBypassed(target, config.bypassPrefixes) ? undefined : keyOf(req, target);
    if (key === undefined) {
      next();
      return;
    }
    const head = method === 'HEAD';
    const entry = store.get(key);
    if (entry !== undefined) {
      const staleSince = store.staleSince(key);
      if (staleSince === undefined) {
        answers.serve(req, res, key, entry, head, false);
        return;
      }
      const now = Date.now();
      if (staleServable(staleSince, now, config.staleMaxMs)) {
        answers.serve(req, res, key, entry, head, true);
        revalidator?.start(req, url, key, entry, now);
        return;
      }
      // Stale for too long (its background renders failed to replace it in time): a miss like any other.
      store.drop(key, entry);
    }
    if (head) misses.renderHead(req, res, next, key);
    else if (!config.singleFlight) misses.render(req, res, next, key);
    else if (flights.lead(key)) misses.render(req, res, next, key, (stored, outdated) => flights.land(key, stored, outdated));
    else {
      // A follower: answered from the leader's entry, or renders itself when the leader's response was not stored.
      flights.follow(key, (stored, outdated) => {
        if (res.destroyed) return;
        if (stored !== undefined) answers.serve(req, res, key, stored, false, outdated);
        else misses.render(req, res, next, key);
      });
    }
  }

  function purge(request: readonly string[] | PurgeRequest): string[] {
    const targets = purgeTargetsOf(request, config);
    const now = Date.now();
    running.markPurged(targets, now);
    return store.purge(targets, config.purgeMode === 'soft' ? now : undefined);
  }

  return {
    handle,
    purge,
    get size() {
      return store.size;
    },
    stats() {
      const { entries, bytes, evictions, purged } = store.counters();
      return { entries, bytes, hits: counters.hits, misses: counters.misses, stale: counters.stale, evictions, purged, compressions: counters.compressions };
    },
  };
}
