import { IncomingMessage, ServerResponse } from 'node:http';
import { sendText } from './http-answers.js';
import { isBypassed } from './bypass.js';
import { compress } from './compress.js';
import { CACHE_HEADER, withCacheStatus, withEncodings, type CacheEntry, type Representation } from './entry.js';
import { keyForTarget, originForm } from './key.js';
import { chooseCoding, ifNoneMatchMatches, preferencesMemo, type Compressed } from './negotiate.js';
import { resolveOptions, type PageCacheOptions, type PurgeRequest } from './options.js';
import { validatePathnames } from './pathnames.js';
import { validateKeys } from './surrogate-keys.js';
import { purgeMatches } from './purge-match.js';
import { answerPurge } from './purge-route.js';
import { Render, type RenderOwner } from './render-recording.js';
import { EntryStore, type PageCacheStats } from './store.js';
import { ERRORS } from '../error-codes.js';
import { logUrl } from '../log-bounds.js';

/** Connect-style `next`: the renderer (or the next middleware). */
export type NextFunction = (error?: unknown) => unknown;

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


/** How a render ended: the entry it stored, or none, and whether a purge during it is why. */
/**
 * How a render ended: the entry it stored, or none, and whether a purge during it made it out of date (then, with soft
 * purge, the entry is stored stale; with delete, not at all).
 */
type RenderDone = (entry: CacheEntry | undefined, outdated: boolean) => void;

/** Request headers a background render must not inherit: it must produce a whole, storable 200. */
const CONDITIONAL_HEADERS = new Set(['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range', 'range']);

/**
 * A copy of a reader's request for a background render: a `GET` of the same URL and headers, without conditionals,
 * already ended. Its response, made with `new ServerResponse(copy)`, has no socket: what the renderer writes is
 * captured and stored, and goes nowhere else.
 */
function detachedCopy(req: IncomingMessage, url: string): IncomingMessage {
  const copy = new IncomingMessage(req.socket);
  copy.method = 'GET';
  copy.url = req.url ?? url;
  (copy as { originalUrl?: string }).originalUrl = url;
  copy.httpVersion = req.httpVersion;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  for (const [name, value] of Object.entries(req.headers)) if (!CONDITIONAL_HEADERS.has(name)) copy.headers[name] = value;
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (!CONDITIONAL_HEADERS.has(req.rawHeaders[i]!.toLowerCase())) copy.rawHeaders.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  copy.push(null);
  return copy;
}

const BOTH: Readonly<Record<Compressed, boolean>> = { br: true, gzip: true };

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Creates a page cache; see {@link PageCacheOptions} for the options and their defaults. */
export function createPageCache(options: PageCacheOptions = {}): PageCache {
  const config = resolveOptions(options);
  const { logger } = config;
  const store = new EntryStore(config);
  /** Single-flight renders by key, with the requests waiting for each. */
  const flights = new Map<string, RenderDone[]>();
  /** Renders under way; a purge that matches one marks it out of date, so its (possibly old) response is not stored. */
  const renders = new Set<Render>();
  /** Background renders of soft-purged entries, by key, with when each started (one at a time per key). */
  const revalidations = new Map<string, number>();
  const keyPolicy = config.key;
  let hits = 0;
  let misses = 0;
  let staleAnswers = 0;
  let compressions = 0;
  const preferences = preferencesMemo();
  /**
   * Encodings being compressed on the thread pool (bodies over 128 KiB), by response and coding: hits for one wait for
   * it. Keyed by the identity representation, which an entry keeps when it is replaced by one with another encoding.
   */
  const compressing = new WeakMap<Representation, Map<Compressed, Array<(held: Representation) => void>>>();

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

  function send(req: IncomingMessage, res: ServerResponse, held: Representation, head: boolean, stale = false): void {
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, held.etag)) {
      res.writeHead(304, stale ? withCacheStatus(held.notModifiedHeaders, 'stale') : held.notModifiedHeaders);
      res.end();
      return;
    }
    res.writeHead(200, stale ? withCacheStatus(held.headers, 'stale') : held.headers);
    if (head) res.end();
    else res.end(held.body);
  }

  /**
   * The entry `key` holds now, if it is still the response `from` was (it may have gained encodings since `from` was
   * read: a follower of a single flight holds the entry as first stored).
   */
  function currentOf(key: string, from: CacheEntry): CacheEntry | undefined {
    const current = store.peek(key);
    return current !== undefined && current.identity === from.identity ? current : undefined;
  }

  /**
   * Keeps `bytes` as the `coding` encoding of the entry `key` holds, if that is still the response they were made from
   * (the entry, with its heads prepared, is replaced by one with the encoding, which counts in `maxBytes`). Returns the
   * representation of those bytes, kept or not.
   */
  function keepEncoding(key: string, from: CacheEntry, coding: Compressed, bytes: Buffer): Representation {
    const current = currentOf(key, from);
    const next = withEncodings(current ?? from, { [coding]: bytes });
    if (current !== undefined && current[coding] === undefined) store.replace(key, current, next);
    return next[coding]!;
  }

  /**
   * A hit for a coding the entry does not hold yet: compressed now, once (the entry keeps the encoding), and sent at
   * once for a body up to 128 KiB; a larger one is compressed on the thread pool, and hits for it meanwhile wait.
   */
  function sendEncoded(req: IncomingMessage, res: ServerResponse, key: string, entry: CacheEntry, coding: Compressed, head: boolean, stale: boolean): void {
    const use = (held: Representation) => {
      if (!res.destroyed) send(req, res, held, head, stale);
    };
    let byCoding = compressing.get(entry.identity);
    const waiting = byCoding?.get(coding);
    if (waiting !== undefined) {
      waiting.push(use);
      return;
    }
    const waiters = [use];
    let finished = false;
    compressions++;
    compress(entry.identity.body, coding, config, (error, bytes) => {
      finished = true;
      byCoding?.delete(coding);
      let held = entry.identity;
      if (bytes === undefined) logger.error({ err: error, url: logUrl(key) }, `page cache: ${coding} compression failed; sent identity`);
      else held = keepEncoding(key, entry, coding, bytes);
      for (const waiter of waiters) waiter(held);
    });
    // Still running (a large body): later hits for this coding join the waiters instead of compressing again.
    if (!finished) {
      if (byCoding === undefined) compressing.set(entry.identity, (byCoding = new Map()));
      byCoding.set(coding, waiters);
    }
  }

  /** Answers from a held entry: a hit, or with `stale` a soft-purged copy. */
  function serve(req: IncomingMessage, res: ServerResponse, key: string, entry: CacheEntry, head: boolean, stale = false): void {
    if (stale) staleAnswers++;
    else hits++;
    if (entry.compressible) {
      const coding = chooseCoding(preferences(req.headers['accept-encoding']), BOTH);
      if (coding !== 'identity') {
        const held = entry[coding] ?? currentOf(key, entry)?.[coding];
        if (held === undefined) sendEncoded(req, res, key, entry, coding, head, stale);
        else send(req, res, held, head, stale);
        return;
      }
    }
    send(req, res, entry.identity, head, stale);
  }

  function outdatedSince(render: Render, keys: readonly string[]): number | undefined {
    let since = render.outdatedAt;
    for (const name of keys) {
      const at = render.purgedKeys?.get(name);
      if (at !== undefined && (since === undefined || at < since)) since = at;
    }
    return since;
  }

  /** How every render reports to this cache: one object, so recording a render allocates no closures of its own. */
  const owner: RenderOwner = {
    settings: {
      storeSetCookie: config.storeSetCookie,
      storePrivate: config.storePrivate,
      maxBytes: config.maxBytes,
      compress: config.compress,
      compressMinBytes: config.compressMinBytes,
      brotliQuality: config.brotliQuality,
      gzipLevel: config.gzipLevel,
    },
    recorded(render, entry) {
      renders.delete(render);
      const since = entry === undefined ? undefined : outdatedSince(render, entry.keys);
      // Out of date: with delete, not stored; with soft, stored stale from the purge that overtook it, newer than any
      // copy held before, so that purges more frequent than renders still let the page move on.
      const kept = since !== undefined && config.purgeMode === 'delete' ? undefined : entry;
      render.settled(kept !== undefined && store.set(render.key, kept, since) ? kept : undefined, since !== undefined);
    },
    compressed() {
      compressions++;
    },
    compressionFailed(render, error) {
      logger.error({ err: error, url: logUrl(render.key) }, 'page cache: compressing a render failed; sent identity');
    },
    outdatedSince,
  };

  function failed(res: ServerResponse, error: unknown, what = 'the renderer failed'): void {
    logger.error({ err: error }, `page cache: ${what}`);
    if (!res.headersSent) sendText(res, 500, 'Internal Server Error');
    else if (!res.writableEnded) res.destroy();
  }

  function render(req: IncomingMessage, res: ServerResponse, next: NextFunction, key: string, onDone: RenderDone): void {
    res.setHeader(CACHE_HEADER, 'miss');
    renders.add(new Render(key, res, owner, preferences(req.headers['accept-encoding']), req.headers['if-none-match'], onDone, true));
    callRenderer(res, next);
  }

  function callRenderer(res: ServerResponse, next: NextFunction): void {
    try {
      const result = next();
      if (isThenable(result)) result.then(undefined, (error: unknown) => failed(res, error));
    } catch (error) {
      failed(res, error);
    }
  }

  const noWaiters: RenderDone = () => undefined;

  function renderAsLeader(req: IncomingMessage, res: ServerResponse, next: NextFunction, key: string): void {
    misses++;
    flights.set(key, []);
    render(req, res, next, key, (entry, outdated) => {
      const waiters = flights.get(key) ?? [];
      flights.delete(key);
      for (const waiter of waiters) waiter(entry, outdated);
    });
  }

  function handle(req: IncomingMessage, res: ServerResponse, next: NextFunction): void {
    // Mounted under a path (Express, Connect), `req.url` lacks the mount point; keys and purges use the full path.
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    if (isPurgeRoute(url)) {
      const distribute = config.distributePurge;
      const routePurge = distribute === undefined ? purge : (request: PurgeRequest) => distribute(request, purge);
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
      const staleSince = store.staleSince(key);
      if (staleSince === undefined) {
        serve(req, res, key, entry, method === 'HEAD');
        return;
      }
      const now = Date.now();
      if (now - staleSince <= config.staleMaxMs) {
        serve(req, res, key, entry, method === 'HEAD', true);
        revalidate(req, url, key, entry, now);
        return;
      }
      // Stale for too long (its background renders failed to replace it in time): a miss like any other.
      store.drop(key, entry);
    }
    // A HEAD miss is never stored and never leads a single flight. It is rendered as a GET (Node sends no body to a
    // HEAD whatever the renderer writes), so that it gets the same head as the GET would, ETag and encoding included.
    if (method === 'HEAD') {
      misses++;
      res.setHeader(CACHE_HEADER, 'miss');
      req.method = 'GET';
      new Render(key, res, owner, preferences(req.headers['accept-encoding']), req.headers['if-none-match'], noWaiters, false);
      callRenderer(res, next);
      return;
    }
    if (!config.singleFlight) {
      misses++;
      render(req, res, next, key, noWaiters);
      return;
    }
    const waiters = flights.get(key);
    if (waiters === undefined) {
      renderAsLeader(req, res, next, key);
      return;
    }
    // A follower: answered from the leader's entry, or renders itself when the leader's response was not stored.
    waiters.push((leaderEntry, outdated) => {
      if (res.destroyed) return;
      if (leaderEntry !== undefined) serve(req, res, key, leaderEntry, false, outdated);
      else {
        misses++;
        render(req, res, next, key, noWaiters);
      }
    });
  }

  /**
   * Starts the one background render of a soft-purged entry, unless one is under way (one that has run for longer than
   * `staleMaxMs` is taken as lost). Its response replaces the entry; a failed or unstorable one drops it, so the next
   * request renders; one a purge overtook is stored all the same, stale from that purge (it is newer than the copy
   * it replaces), and the next request starts another.
   */
  function revalidate(req: IncomingMessage, url: string, key: string, staleEntry: CacheEntry, now: number): void {
    const started = revalidations.get(key);
    if (started !== undefined && now - started <= config.staleMaxMs) return;
    revalidations.set(key, now);
    const copy = detachedCopy(req, url);
    const res = new ServerResponse(copy);
    const revalidateWith = config.revalidate!;
    render(copy, res, () => revalidateWith(copy, res), key, (entry, outdated) => {
      if (revalidations.get(key) === now) revalidations.delete(key);
      if (entry === undefined && !outdated) store.drop(key, staleEntry);
    });
  }

  function purge(request: readonly string[] | PurgeRequest): string[] {
    const { pathnames, keys } = Array.isArray(request) ? { pathnames: request as readonly string[], keys: undefined } : (request as PurgeRequest);
    if (pathnames !== undefined || keys === undefined) {
      const validation = validatePathnames(pathnames, config);
      if (!validation.ok) throw ERRORS.PURGE_PATHNAMES_INVALID(validation.message);
    }
    if (keys !== undefined) {
      const validation = validateKeys(keys, config);
      if (!validation.ok) throw ERRORS.PURGE_KEYS_INVALID(validation.message);
    }
    const now = Date.now();
    for (const running of renders) {
      if (running.outdatedAt === undefined && pathnames?.some((pathname) => purgeMatches(running.key, pathname, config)) === true) running.outdatedAt = now;
      if (keys !== undefined) {
        running.purgedKeys ??= new Map();
        for (const name of keys) if (!running.purgedKeys.has(name)) running.purgedKeys.set(name, now);
      }
    }
    return store.purge({ pathnames, keys }, config.purgeMode === 'soft' ? now : undefined);
  }

  return {
    handle,
    purge,
    get size() {
      return store.size;
    },
    stats() {
      const { entries, bytes, evictions, purged } = store.counters();
      return { entries, bytes, hits, misses, stale: staleAnswers, evictions, purged, compressions };
    },
  };
}
