import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EncodingKeeper } from './encodings.js';
import { withCacheStatus, type CacheEntry, type Representation } from './entry.js';
import { chooseCoding, ifNoneMatchMatches, type Compressed, type Preferences } from './negotiate.js';
import type { RequestCounters } from './store.js';

/**
 * Sends a held representation with its prepared head: a 304 when `If-None-Match` matches its ETag, else a 200 (its
 * body left out for a HEAD); with `stale`, marked as a soft-purged copy.
 */
export function sendHeld(req: IncomingMessage, res: ServerResponse, held: Representation, head: boolean, stale: boolean): void {
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

const BOTH: Readonly<Record<Compressed, boolean>> = { br: true, gzip: true };

/** Answers requests from held entries, each in the coding it prefers, and counts them. */
export class Answers {
  constructor(
    private readonly encodings: EncodingKeeper,
    private readonly preferences: (acceptEncoding: string | undefined) => Preferences,
    private readonly counters: Pick<RequestCounters, 'hits' | 'stale'>,
  ) {}

  /** Answers from `entry`, held under `key`: a hit, or with `stale` a soft-purged copy. */
  serve(req: IncomingMessage, res: ServerResponse, key: string, entry: CacheEntry, head: boolean, stale: boolean): void {
    if (stale) this.counters.stale++;
    else this.counters.hits++;
    if (entry.compressible) {
      const coding = chooseCoding(this.preferences(req.headers['accept-encoding']), BOTH);
      if (coding !== 'identity') {
        const held = this.encodings.held(key, entry, coding);
        if (held !== undefined) sendHeld(req, res, held, head, stale);
        else this.encodings.encode(key, entry, coding, (made) => {
          if (!res.destroyed) sendHeld(req, res, made, head, stale);
        });
        return;
      }
    }
    sendHeld(req, res, entry.identity, head, stale);
  }

  /**
   * Answers from `entry`, held under `key`, as a stale copy, at once: in the coding the request prefers if the entry
   * holds it, else identity (nothing is compressed for it). Not counted: the request was counted as the miss it was.
   */
  serveHeldStale(req: IncomingMessage, res: ServerResponse, key: string, entry: CacheEntry, head: boolean): void {
    const coding = entry.compressible ? chooseCoding(this.preferences(req.headers['accept-encoding']), BOTH) : 'identity';
    const held = coding === 'identity' ? undefined : this.encodings.held(key, entry, coding);
    sendHeld(req, res, held ?? entry.identity, head, true);
  }
}
