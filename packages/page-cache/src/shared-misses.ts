import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Answers } from './answer.js';
import type { CacheEntry } from './entry.js';
import type { ExpiredSweep } from './expired-sweep.js';
import { logUrl, type Logger } from './log.js';
import type { Misses, RenderDone } from './miss.js';
import type { PurgeRules } from './purge-match.js';
import type { NextFunction } from './renderer-call.js';
import { outdatedSince, type PurgeMarks, type RunningRenders } from './running-renders.js';
import { entryOfSharedCopy, sharedCopyOf } from './shared-copy.js';
import type { SharedLookup, SharedTicket, SharedTier } from './shared-tier.js';
import type { StandIn } from './stand-in.js';
import type { EntryStore } from './store.js';

const OFF: SharedLookup = { role: 'off' };

/** What a cache's use of its shared tier needs of the cache. */
export interface SharedMissParts {
  tier: SharedTier;
  /** How long a miss waits for another process's render of its key before it renders itself. */
  waitMs: number;
  /** How often a waiting miss looks again. */
  pollMs: number;
  rules: PurgeRules;
  maxBytes: number | undefined;
  store: Pick<EntryStore, 'set'>;
  sweep: Pick<ExpiredSweep, 'stored'>;
  answers: Pick<Answers, 'serve'>;
  misses: Pick<Misses, 'render' | 'renderInBackground'>;
  /** Lookups under way, so that a purge during one keeps its copy out of memory. */
  lookups: RunningRenders<PurgeMarks>;
  counters: { sharedHits: number };
  logger: Logger;
}

/**
 * A miss's way through the shared tier: a copy another process rendered is answered and kept in memory; otherwise the
 * fleet's one render of the key is this process's (its response then goes to the tier too) or another's, which the
 * miss waits for, bounded, serving a soft-purged copy meanwhile when there is one. A tier that cannot answer leaves
 * the miss to render as without it.
 */
export class SharedMisses {
  constructor(private readonly parts: SharedMissParts) {}

  /** A GET miss of `key` leading this process's single flight; `done` lands the flight. */
  miss(req: IncomingMessage, res: ServerResponse, next: NextFunction, key: string, done: RenderDone, standIn: StandIn | undefined): void {
    this.#miss(req, res, next, key, done, standIn).catch((error: unknown) => {
      this.parts.logger.error({ err: error, url: logUrl(key) }, 'page cache: the shared tier lookup failed; rendering');
      if (!res.headersSent) this.parts.misses.render(req, res, next, key, done, standIn);
    });
  }

  async #miss(req: IncomingMessage, res: ServerResponse, next: NextFunction, key: string, done: RenderDone, standIn: StandIn | undefined): Promise<void> {
    const { misses } = this.parts;
    const deadline = Date.now() + this.parts.waitMs;
    for (;;) {
      const { answer, entry } = await this.#look(key);
      if (res.destroyed) {
        if (answer.role === 'lead') this.parts.tier.release(key, answer.ticket);
        done(undefined, false);
        return;
      }
      if (answer.role === 'found' && entry !== undefined) {
        this.#keep(key, entry, undefined);
        this.parts.counters.sharedHits++;
        this.parts.answers.serve(req, res, key, entry, false, false);
        done(entry, false, key);
        return;
      }
      if (answer.role === 'lead') {
        misses.render(req, res, next, key, this.#storing(key, answer.ticket, done), standIn);
        return;
      }
      if (answer.role === 'wait' && entry !== undefined && answer.staleSince !== undefined) {
        // Soft purge: another process renders the page again; this one answers from the marked copy meanwhile.
        this.#keep(key, entry, answer.staleSince);
        this.parts.answers.serve(req, res, key, entry, false, true);
        done(entry, true, key);
        return;
      }
      if (answer.role !== 'wait' || Date.now() + this.parts.pollMs > deadline) {
        misses.render(req, res, next, key, done, standIn);
        return;
      }
      await sleep(this.parts.pollMs);
    }
  }

  /**
   * Soft purge's background render of `key` through the tier: a fresh copy there replaces the stale one in memory; the
   * render is this process's only when it gets the fleet's lock, and without the tier's answer it renders as before.
   */
  renderInBackground(req: IncomingMessage, res: ServerResponse, next: NextFunction, key: string, done: RenderDone, standIn?: StandIn): void {
    this.#revalidate(req, res, next, key, done, standIn).catch((error: unknown) => {
      this.parts.logger.error({ err: error, url: logUrl(key) }, 'page cache: the shared tier lookup failed; rendering');
      this.parts.misses.renderInBackground(req, res, next, key, done, standIn);
    });
  }

  async #revalidate(req: IncomingMessage, res: ServerResponse, next: NextFunction, key: string, done: RenderDone, standIn: StandIn | undefined): Promise<void> {
    const { answer, entry } = await this.#look(key);
    if (answer.role === 'found' && entry !== undefined) {
      this.#keep(key, entry, undefined);
      done(entry, false, key);
    } else if (answer.role === 'lead') this.parts.misses.renderInBackground(req, res, next, key, this.#storing(key, answer.ticket, done), standIn);
    else if (answer.role === 'wait') done(undefined, true);
    else this.parts.misses.renderInBackground(req, res, next, key, done, standIn);
  }

  /** One lookup, and the entry of the copy it found unless a purge of this process overtook it. */
  async #look(key: string): Promise<{ answer: SharedLookup; entry: CacheEntry | undefined }> {
    const marks: PurgeMarks = { key, outdatedAt: undefined, purgedKeys: undefined };
    this.parts.lookups.add(marks);
    let answer: SharedLookup;
    // The tier bounds its own time; this bound only keeps a tier that breaks its contract from holding readers forever.
    const bound = new AbortController();
    try {
      answer = await Promise.race([this.parts.tier.lookup(key, true), sleep(this.parts.waitMs, OFF, { signal: bound.signal }).catch(() => OFF)]);
    } finally {
      bound.abort();
      this.parts.lookups.delete(marks);
    }
    const copy = answer.role === 'off' ? undefined : answer.copy;
    if (copy === undefined) return { answer, entry: undefined };
    const entry = entryOfSharedCopy(copy, this.parts.maxBytes);
    // A copy this version cannot read is as good as no tier (a fleet mid-upgrade renders), and one a purge of this
    // process overtook is gone from the tier by now: the next look finds what replaced it.
    if (entry === undefined) {
      if (answer.role === 'lead') this.parts.tier.release(key, answer.ticket);
      return { answer: { role: 'off' }, entry: undefined };
    }
    if (outdatedSince(marks, entry.keys) !== undefined) {
      return { answer: answer.role === 'lead' ? { role: 'lead', ticket: answer.ticket } : { role: 'wait' }, entry: undefined };
    }
    return { answer, entry };
  }

  #keep(key: string, entry: CacheEntry, staleSince: number | undefined): void {
    if (this.parts.store.set(key, entry, staleSince)) this.parts.sweep.stored(Date.now());
  }

  /** A render's report, which also stores its response in the tier under `ticket` (or releases the lock). */
  #storing(key: string, ticket: SharedTicket, done: RenderDone): RenderDone {
    return (stored, outdated, storedKey) => {
      const copy = stored !== undefined && !outdated && storedKey === key ? sharedCopyOf(key, stored, this.parts.rules) : undefined;
      if (copy === undefined) this.parts.tier.release(key, ticket);
      else this.parts.tier.store(key, copy, ticket);
      done(stored, outdated, storedKey);
    };
  }
}
