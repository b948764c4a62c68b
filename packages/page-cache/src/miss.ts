import type { IncomingMessage, ServerResponse } from 'node:http';
import { CACHE_HEADER, withLifetime, type CacheEntry } from './entry.js';
import type { ExpiredSweep } from './expired-sweep.js';
import { logUrl, type Logger } from './log.js';
import type { Preferences } from './negotiate.js';
import type { ResolvedPageCacheOptions } from './options.js';
import { Render, type RenderOwner } from './render-recording.js';
import { callRenderer, type NextFunction } from './renderer-call.js';
import { outdatedSince, type RunningRenders } from './running-renders.js';
import type { StandIn } from './stand-in.js';
import type { EntryStore, RequestCounters } from './store.js';
import type { Variants } from './variants.js';

/**
 * How a render ended: the entry it stored, or none, and whether a purge during it made it out of date (then, with soft
 * purge, the entry is stored stale; with delete, not at all), and the key it is held under (a variant's own key when
 * the response varies). A render a stand-in answered for ends with the stand-in's entry, out of date.
 */
export type RenderDone = (entry: CacheEntry | undefined, outdated: boolean, storedKey?: string) => void;

const noWaiters: RenderDone = () => undefined;

/** What the misses of one cache share. */
export interface MissParts {
  config: ResolvedPageCacheOptions;
  store: Pick<EntryStore, 'set'>;
  variants: Pick<Variants, 'storageKey'>;
  sweep: Pick<ExpiredSweep, 'stored'>;
  running: RunningRenders<Render>;
  preferences: (acceptEncoding: string | undefined) => Preferences;
  counters: Pick<RequestCounters, 'misses' | 'compressions'>;
  logger: Logger;
}

/** Passes misses to the renderer, recording each response to store it (see {@link Render}), and counts them. */
export class Misses {
  /** How every render reports to this cache: one object, so recording a render allocates no closures of its own. */
  readonly #owner: RenderOwner;

  constructor(private readonly parts: MissParts) {
    const { config, store, variants, sweep, running, counters, logger } = parts;
    this.#owner = {
      settings: {
        storeSetCookie: config.storeSetCookie,
        storePrivate: config.storePrivate,
        maxBytes: config.maxBytes,
        compress: config.compress,
        compressMinBytes: config.compressMinBytes,
        brotliQuality: config.brotliQuality,
        gzipLevel: config.gzipLevel,
        lifetimes: config.lifetimes,
        defaultLifetimeMs: config.defaultLifetimeMs,
        staleIfErrorMs: config.staleIfErrorMs,
        keyHeaders: config.keyHeaders,
        hideKeyHeaders: config.hideKeyHeaders,
      },
      recorded(render, entry) {
        running.delete(render);
        if (render.answeredBy !== undefined) {
          render.settled(render.answeredBy, true, render.answeredUnder);
          return;
        }
        const since = entry === undefined ? undefined : outdatedSince(render, entry.keys);
        // Out of date: with delete, not stored; with soft, stored stale from the purge that overtook it, newer than any
        // copy held before, so that purges more frequent than renders still let the page move on.
        const kept = since !== undefined && config.purgeMode === 'delete' ? undefined : withLifetime(entry, render.lifetime);
        const storedKey = kept === undefined ? undefined : variants.storageKey(render.key, kept, render.request);
        const stored = storedKey !== undefined && store.set(storedKey, kept!, since);
        if (stored) sweep.stored(Date.now());
        render.settled(stored ? kept : undefined, since !== undefined, storedKey);
      },
      compressed() {
        counters.compressions++;
      },
      compressionFailed(render, error) {
        logger.error({ err: error, url: logUrl(render.key) }, 'page cache: compressing a render failed; sent identity');
      },
      outdatedSince,
    };
  }

  /**
   * A miss of a GET: counted, rendered, and its response stored under `key` (or its variant's key); `onDone` is told how
   * it ended. With a `standIn`, a 5xx of the renderer is answered by it instead.
   */
  render(req: IncomingMessage, res: ServerResponse, next: NextFunction, key: string, onDone: RenderDone = noWaiters, standIn?: StandIn): void {
    this.parts.counters.misses++;
    this.renderInBackground(req, res, next, key, onDone, standIn);
  }

  /** A render no reader counts as a miss (soft purge's revalidation), stored like any other. */
  renderInBackground(req: IncomingMessage, res: ServerResponse, next: NextFunction, key: string, onDone: RenderDone, standIn?: StandIn): void {
    res.setHeader(CACHE_HEADER, 'miss');
    const render = new Render(key, res, this.#owner, this.parts.preferences(req.headers['accept-encoding']), req.headers, onDone, true);
    render.standIn = standIn;
    this.parts.running.add(render);
    callRenderer(res, next, this.parts.logger);
  }

  /**
   * A miss of a HEAD: never stored and never leading a single flight. It is rendered as a GET (Node sends no body to a
   * HEAD whatever the renderer writes), so that it gets the same head as the GET would, ETag and encoding included.
   */
  renderHead(req: IncomingMessage, res: ServerResponse, next: NextFunction, key: string, standIn?: StandIn): void {
    this.parts.counters.misses++;
    res.setHeader(CACHE_HEADER, 'miss');
    req.method = 'GET';
    new Render(key, res, this.#owner, this.parts.preferences(req.headers['accept-encoding']), req.headers, noWaiters, false).standIn = standIn;
    callRenderer(res, next, this.parts.logger);
  }
}
