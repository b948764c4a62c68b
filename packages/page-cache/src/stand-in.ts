/**
 * stale-if-error's stand-in: a held copy that answers a reader in place of the 5xx its render is about to send (the
 * renderer answered one, or threw and the cache's own 500 was on its way).
 */
import type { ServerResponse } from 'node:http';
import type { CacheEntry } from './entry.js';

export interface StandIn {
  /** The held copy, and the key it is held under. */
  readonly entry: CacheEntry;
  readonly key: string;
  /** Sends it on `res` at once (no compression is waited for): a response with no header set and nothing sent. */
  answer(res: ServerResponse): void;
}

/** Drops every header the renderer set on `res` (a `Set-Cookie`, a `Retry-After`…), then lets `standIn` answer. */
export function answerInstead(res: ServerResponse, standIn: StandIn): void {
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  standIn.answer(res);
}

/**
 * What a renderer's `write` or `end` returns once the stand-in has answered: `result`, its chunk dropped, and the first
 * function among `args` (its callback) called as Node would, on a later tick.
 */
export function discarded<T>(result: T, ...args: unknown[]): T {
  const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined;
  if (callback !== undefined) process.nextTick(callback);
  return result;
}
