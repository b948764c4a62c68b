/**
 * How long a stored response is fresh, and what a stale one may still do (RFC 9111 §4.2, RFC 5861). Pure: the caller
 * passes the time.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import { deltaSeconds, type ResponseDirectives } from './cache-control.js';
import { staleServable } from './soft-purge.js';

/** Whether lifetimes come from the response (`Cache-Control`, `Expires`, `Age`) or only from purges. */
export const LIFETIME_MODES = ['ignore', 'honour'] as const;
export type LifetimeMode = (typeof LIFETIME_MODES)[number];

export interface FreshnessPolicy {
  lifetimes: LifetimeMode;
  /** Lifetime of a response that states none (with `'ignore'`, of every response); `undefined`: until purged. */
  defaultLifetimeMs: number | undefined;
  /** How long past its freshness a copy answers in place of a failed render when the response gives no `stale-if-error`. */
  staleIfErrorMs: number;
}

/** When a stored response stops being fresh (ms since the epoch; `Infinity`: only a purge ends it), and its stale windows. */
export interface Lifetime {
  readonly freshUntil: number;
  /** For how long after `freshUntil` it is answered at once while one background render replaces it. */
  readonly staleWhileRevalidateMs: number;
  /** For how long after it turns stale (expiry or soft purge) it answers in place of a failed render. */
  readonly staleIfErrorMs: number;
}

function text(value: OutgoingHttpHeaders[string]): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** A time from an HTTP-date header (ms), or `undefined` when absent or unreadable. */
function dateOf(value: OutgoingHttpHeaders[string]): number | undefined {
  const written = text(value);
  if (written === undefined) return undefined;
  const time = Date.parse(written);
  return Number.isNaN(time) ? undefined : time;
}

/**
 * The freshness lifetime the response states, in ms, or `undefined` when it states none: `s-maxage` (a shared cache's
 * own), else `max-age`, else `Expires` less `Date` (or less `now` without a readable `Date`). An invalid `max-age`,
 * `s-maxage` or `Expires` (`Expires: 0`) is a lifetime of 0: RFC 9111 §4.2.1 and §5.3 treat it as already stale.
 */
export function statedLifetimeMs(directives: ResponseDirectives, headers: OutgoingHttpHeaders, now: number): number | undefined {
  const seconds = directives.sMaxAge ?? directives.maxAge;
  if (seconds !== undefined) return seconds === 'invalid' ? 0 : seconds * 1000;
  if (headers.expires === undefined) return undefined;
  const expires = dateOf(headers.expires);
  return expires === undefined ? 0 : Math.max(0, expires - (dateOf(headers.date) ?? now));
}

/**
 * The lifetime of a response stored at `now`. With `'honour'`: the stated lifetime (see {@link statedLifetimeMs}), else
 * `defaultLifetimeMs`, less the `Age` it arrived with; `stale-while-revalidate` and `stale-if-error` (else the policy's
 * `staleIfErrorMs`) give the stale windows; `must-revalidate`/`proxy-revalidate` close both unless `stale-if-error` is
 * explicit (RFC 5861 §4: it applies regardless of other freshness information). With `'ignore'` the response's
 * directives are not read: `defaultLifetimeMs` (or until purged) and `staleIfErrorMs`.
 */
export function lifetimeOf(directives: ResponseDirectives, headers: OutgoingHttpHeaders, policy: FreshnessPolicy, now: number): Lifetime {
  const fallbackMs = policy.defaultLifetimeMs ?? Infinity;
  if (policy.lifetimes === 'ignore') return { freshUntil: now + fallbackMs, staleWhileRevalidateMs: 0, staleIfErrorMs: policy.staleIfErrorMs };
  const ageMs = (deltaSeconds(text(headers.age)) ?? 0) * 1000;
  const lifetimeMs = statedLifetimeMs(directives, headers, now) ?? fallbackMs;
  const closed = directives.mustRevalidate;
  return {
    freshUntil: now + lifetimeMs - ageMs,
    staleWhileRevalidateMs: closed ? 0 : (directives.staleWhileRevalidate ?? 0) * 1000,
    staleIfErrorMs: directives.staleIfError !== undefined ? directives.staleIfError * 1000 : closed ? 0 : policy.staleIfErrorMs,
  };
}

/** Why a response with this lifetime is not stored at `now` (`'honour'` only), or `undefined`. */
export function unusableLifetime(directives: ResponseDirectives, lifetime: Lifetime, now: number): string | undefined {
  if (directives.noCache) return 'Cache-Control no-cache';
  if (lifetime.freshUntil <= now && lifetime.staleWhileRevalidateMs === 0) return 'already stale (max-age, s-maxage, Expires or Age)';
  return undefined;
}

/** What a request does with a held entry that is no longer fresh. */
export type StaleUse =
  /** Answer from it at once (`x-middleware-cache: stale`) while one background render replaces it. */
  | 'revalidate'
  /** Render as a miss, but answer from it if the render fails. */
  | 'fallback'
  /** Every window is closed: drop it and render as a miss. */
  | 'drop';

/**
 * What a held entry that is not fresh at `now` is good for: a soft-purged one (`staleSince`) is answered while its
 * purge is at most `staleMaxMs` old, an expired one within `stale-while-revalidate`, either only with a background
 * renderer (`canRevalidate`); else it stands in for a failed render within `stale-if-error`, counted from when it
 * turned stale (its expiry or its purge, the earlier).
 */
export function staleUse(entry: Lifetime, staleSince: number | undefined, now: number, staleMaxMs: number, canRevalidate: boolean): StaleUse {
  if (canRevalidate) {
    if (staleSince !== undefined) {
      if (staleServable(staleSince, now, staleMaxMs)) return 'revalidate';
    } else if (now < entry.freshUntil + entry.staleWhileRevalidateMs) return 'revalidate';
  }
  const staleFrom = staleSince === undefined ? entry.freshUntil : Math.min(staleSince, entry.freshUntil);
  return now < staleFrom + entry.staleIfErrorMs ? 'fallback' : 'drop';
}
