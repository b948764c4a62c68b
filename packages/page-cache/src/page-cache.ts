import type { IncomingMessage, ServerResponse } from 'node:http';
import { Answers } from './answer.js';
import { isBypassed } from './bypass.js';
import { EncodingKeeper } from './encodings.js';
import type { CacheEntry } from './entry.js';
import { ExpiredSweep } from './expired-sweep.js';
import { staleUse } from './freshness.js';
import { originForm } from './key.js';
import { logUrl } from './log.js';
import { preferencesMemo } from './negotiate.js';
import { resolveOptions, type PageCacheOptions, type PurgeRequest } from './options.js';
import { purgeTargetsOf } from './purge-request.js';
import { answerPurge, isPurgeRoute } from './purge-route.js';
import { Misses, type RenderDone } from './miss.js';
import type { Render } from './render-recording.js';
import { answerFailure, type NextFunction } from './renderer-call.js';
import { requestKeyOf } from './request-key.js';
import { Revalidator } from './revalidation.js';
import { RunningRenders, type PurgeMarks } from './running-renders.js';
import { SharedMisses } from './shared-misses.js';
import { SingleFlight } from './single-flight.js';
import { Revalidations } from './soft-purge.js';
import type { StandIn } from './stand-in.js';
import { EntryStore, type PageCacheStats, type RequestCounters } from './store.js';
import { PERSONAL, Variants } from './variants.js';

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
  /**
   * Purges every entry of this cache (with `purgeMode: 'soft'`, marks each stale) and every render under way, and
   * returns the keys purged: for when what the cache holds can no longer be trusted at all (its purges were lost).
   * Unlike a purge, it is never distributed to other processes.
   */
  purgeAll(): string[];
  /** Entries held. */
  readonly size: number;
  stats(): PageCacheStats;
}

/** Creates a page cache; see {@link PageCacheOptions} for the options and their defaults. */
export function createPageCache(options: PageCacheOptions = {}): PageCache {
  const config = resolveOptions(options);
  const { logger } = config;
  const store = new EntryStore(config);
  const counters: RequestCounters = { hits: 0, misses: 0, stale: 0, compressions: 0, sharedHits: 0 };
  const preferences = preferencesMemo();
  const running = new RunningRenders<Render>(config);
  const variants = new Variants(store, config.maxEntries);
  const canRevalidate = config.revalidate !== undefined;
  const useOfStale = (entry: CacheEntry, staleSince: number | undefined, now: number) => staleUse(entry, staleSince, now, config.staleMaxMs, canRevalidate);
  const sweep = new ExpiredSweep(store, config.maxEntries, useOfStale);
  const misses = new Misses({ config, store, variants, sweep, running, preferences, counters, logger });
  const answers = new Answers(new EncodingKeeper(store, config, counters, logger), preferences, counters);
  const flights = new SingleFlight<[CacheEntry | undefined, boolean, string | undefined]>();
  const lookups = new RunningRenders<PurgeMarks>(config);
  const { sharedTier: tier, sharedWaitMs: waitMs, sharedPollMs: pollMs, maxBytes } = config;
  const shared = tier === undefined ? undefined : new SharedMisses({ tier, waitMs, pollMs, rules: config, maxBytes, store, sweep, answers, misses, lookups, counters, logger });
  const revalidator = config.revalidate === undefined ? undefined : new Revalidator(new Revalidations(config.staleMaxMs), shared ?? misses, store, config.revalidate);
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
    let storedKey: string | typeof PERSONAL = key;
    let entry = store.get(key);
    if (entry === undefined) {
      const variant = variants.keyFor(key, req.headers);
      if (variant !== undefined) storedKey = variant;
      if (typeof variant === 'string') entry = store.get(variant);
    }
    let standIn: StandIn | undefined;
    if (entry !== undefined && storedKey !== PERSONAL) {
      const staleSince = store.staleSince(storedKey);
      if (staleSince === undefined && (entry.freshUntil === Infinity || Date.now() < entry.freshUntil)) {
        answers.serve(req, res, storedKey, entry, head, false);
        return;
      }
      const now = Date.now();
      const use = useOfStale(entry, staleSince, now);
      if (use === 'revalidate') {
        answers.serve(req, res, storedKey, entry, head, true);
        revalidator?.start(req, url, key, storedKey, entry, now);
        return;
      }
      if (use === 'fallback') standIn = standInFor(req, storedKey, entry, head);
      else store.drop(storedKey, entry);
    }
    if (head) misses.renderHead(req, res, next, key, standIn);
    else if (!config.singleFlight || storedKey === PERSONAL) misses.render(req, res, next, key, undefined, standIn);
    else if (flights.lead(storedKey)) {
      const flightKey = storedKey;
      const land: RenderDone = (stored, outdated, underKey) => flights.land(flightKey, stored, outdated, underKey);
      // The shared tier holds responses that vary by nothing else than their coding: a variant renders on its own.
      if (shared !== undefined && storedKey === key) shared.miss(req, res, next, key, land, standIn);
      else misses.render(req, res, next, key, land, standIn);
    } else {
      // A follower: answered from the leader's entry (if it is this request's variant), or renders itself when the
      // leader's response was not stored.
      const flightKey = storedKey;
      flights.follow(flightKey, (stored, outdated, underKey) => {
        if (res.destroyed) return;
        if (stored !== undefined && underKey !== undefined && variants.matches(key, flightKey, underKey, req.headers)) answers.serve(req, res, underKey, stored, false, outdated);
        else misses.render(req, res, next, key, undefined, standIn);
      });
    }
  }

  /** The held copy under `storedKey` as the stand-in for a render of `req` that fails (stale-if-error), logged when used. */
  function standInFor(req: IncomingMessage, storedKey: string, entry: CacheEntry, head: boolean): StandIn {
    return {
      entry,
      key: storedKey,
      answer(res) {
        logger.warn(`page cache: the render of ${logUrl(storedKey)} failed; answered from the copy held for stale-if-error`);
        answers.serveHeldStale(req, res, storedKey, entry, head);
      },
    };
  }

  function purge(request: readonly string[] | PurgeRequest): string[] {
    const targets = purgeTargetsOf(request, config);
    const now = Date.now();
    running.markPurged(targets, now);
    lookups.markPurged(targets, now);
    return store.purge(targets, config.purgeMode === 'soft' ? now : undefined);
  }

  function purgeAll(): string[] {
    const now = Date.now();
    running.markAllPurged(now);
    lookups.markAllPurged(now);
    return store.purgeAll(config.purgeMode === 'soft' ? now : undefined);
  }

  return {
    handle,
    purge,
    purgeAll,
    get size() {
      return store.size;
    },
    stats() {
      const { entries, bytes, evictions, purged } = store.counters();
      const { hits, misses, stale, compressions, sharedHits } = counters;
      return { entries, bytes, hits, misses, stale, evictions, purged, compressions, sharedHits };
    },
  };
}
