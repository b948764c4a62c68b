import { IncomingMessage, ServerResponse } from 'node:http';
import type { CacheEntry } from './entry.js';
import type { Misses } from './miss.js';
import type { Revalidations } from './soft-purge.js';
import type { EntryStore } from './store.js';

/** Request headers a background render must not inherit: it must produce a whole, storable 200. */
const CONDITIONAL_HEADERS = new Set(['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range', 'range']);

/**
 * A copy of a reader's request for a background render: a `GET` of the same URL and headers, without conditionals,
 * already ended. Its response, made with `new ServerResponse(copy)`, has no socket: what the renderer writes is
 * captured and stored, and goes nowhere else.
 */
export function detachedCopy(req: IncomingMessage, url: string): IncomingMessage {
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

/** The renderer of soft purge's background renders (the `revalidate` option). */
export type BackgroundRenderer = (req: IncomingMessage, res: ServerResponse) => unknown;

/** Soft purge's background renders: each replaces a stale entry with a fresh response. */
export class Revalidator {
  constructor(
    private readonly revalidations: Revalidations,
    private readonly misses: Pick<Misses, 'renderInBackground'>,
    private readonly store: Pick<EntryStore, 'drop'>,
    private readonly renderer: BackgroundRenderer,
  ) {}

  /**
   * Starts the background render of `staleEntry`, the stale entry held under `storedKey` (`key`'s own, or its
   * variant's), on a copy of the request `req` that found it at `now` (see {@link Revalidations.begin}), as
   * `purgeMode: 'soft'` describes. A response a purge overtook is stored all the same, stale from that purge (it is
   * newer than the copy it replaces), and the next request starts another render. A render that fails drops the stale
   * entry, unless it has a `stale-if-error` window: then it stays, for the next request to decide on.
   */
  start(req: IncomingMessage, url: string, key: string, storedKey: string, staleEntry: CacheEntry, now: number): void {
    if (!this.revalidations.begin(storedKey, now)) return;
    const copy = detachedCopy(req, url);
    const res = new ServerResponse(copy);
    const keep = staleEntry.staleIfErrorMs > 0 ? { entry: staleEntry, key: storedKey, answer: () => undefined } : undefined;
    this.misses.renderInBackground(
      copy,
      res,
      () => this.renderer(copy, res),
      key,
      (entry, outdated) => {
        this.revalidations.end(storedKey, now);
        if (entry === undefined && !outdated) this.store.drop(storedKey, staleEntry);
      },
      keep,
    );
  }
}
