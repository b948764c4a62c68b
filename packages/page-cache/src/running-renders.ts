import { purgeMatches, type PurgeRules } from './purge-match.js';
import type { PurgeTargets } from './store.js';

/**
 * What a purge notes on a render under way, whose response may be older than the purge: the render's own key, when a
 * pathname first matched it, and when each surrogate key was first purged (its response names its keys only at the end).
 */
export interface PurgeMarks {
  readonly key: string;
  outdatedAt: number | undefined;
  purgedKeys: Map<string, number> | undefined;
}

/** When a purge made a render whose response names `keys` out of date (the earliest such purge), or `undefined`. */
export function outdatedSince(render: PurgeMarks, keys: readonly string[]): number | undefined {
  let since = render.outdatedAt;
  for (const name of keys) {
    const at = render.purgedKeys?.get(name);
    if (at !== undefined && (since === undefined || at < since)) since = at;
  }
  return since;
}

/** The renders under way, so that a purge can mark those it overtakes. Pure: the caller passes the time. */
export class RunningRenders<R extends PurgeMarks> {
  readonly #renders = new Set<R>();

  constructor(private readonly rules: PurgeRules) {}

  get size(): number {
    return this.#renders.size;
  }

  add(render: R): void {
    this.#renders.add(render);
  }

  delete(render: R): void {
    this.#renders.delete(render);
  }

  /** Notes a purge of `targets` at `now` on every render under way (a mark once set keeps its first time). */
  /** Marks every render under way out of date from `now`: what it answers may predate a purge of everything. */
  markAllPurged(now: number): void {
    for (const running of this.#renders) running.outdatedAt ??= now;
  }

  markPurged(targets: PurgeTargets, now: number): void {
    const { pathnames, keys } = targets;
    for (const running of this.#renders) {
      if (running.outdatedAt === undefined && pathnames?.some((pathname) => purgeMatches(running.key, pathname, this.rules)) === true) running.outdatedAt = now;
      if (keys !== undefined) {
        running.purgedKeys ??= new Map();
        for (const name of keys) if (!running.purgedKeys.has(name)) running.purgedKeys.set(name, now);
      }
    }
  }
}
