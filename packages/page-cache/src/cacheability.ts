import type { OutgoingHttpHeaders } from 'node:http';
import { responseDirectives, type ResponseDirectives } from './cache-control.js';
import { lifetimeOf, unusableLifetime, type FreshnessPolicy, type Lifetime } from './freshness.js';
import { varyNames } from './vary.js';

/**
 * Response headers that describe one client (rate-limit state, when to retry), in lower case: an answer carrying any of
 * them is that client's, so no shared cache keeps it (this page cache, and the edge: see src/edge/nginx-public.ts).
 */
export const PER_CLIENT_HEADERS = [
  'ratelimit',
  'ratelimit-policy',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
] as const;

export interface StorePolicy {
  storeSetCookie: boolean;
  storePrivate: boolean;
}

/** Why a response is not stored, or `undefined` when its head allows storing it. */
export function unstorableHead(
  status: number,
  headers: OutgoingHttpHeaders,
  policy: StorePolicy,
  directives: ResponseDirectives = responseDirectives(headers['cache-control']),
): string | undefined {
  if (status !== 200) return `status ${status}`;
  if (!policy.storeSetCookie && headers['set-cookie'] !== undefined) return 'Set-Cookie';
  const perClient = PER_CLIENT_HEADERS.find((name) => headers[name] !== undefined);
  if (perClient !== undefined) return `${perClient}, which describes one client`;
  if (!policy.storePrivate && (directives.private || directives.noStore)) return 'Cache-Control private or no-store';
  if (varyNames(headers.vary) === '*') return 'Vary: *';
  return undefined;
}

/**
 * The lifetime a response is stored with at `now`, or why it is not stored: {@link unstorableHead}, and with
 * `lifetimes: 'honour'` a `no-cache` response or one stale at once without `stale-while-revalidate`.
 */
export function storedLifetime(status: number, headers: OutgoingHttpHeaders, policy: StorePolicy & FreshnessPolicy, now: number): Lifetime | string {
  const directives = responseDirectives(headers['cache-control']);
  const refused = unstorableHead(status, headers, policy, directives);
  if (refused !== undefined) return refused;
  const lifetime = lifetimeOf(directives, headers, policy, now);
  return (policy.lifetimes === 'honour' ? unusableLifetime(directives, lifetime, now) : undefined) ?? lifetime;
}

/** True when a finished response may be stored: its head allows it and its body is non-empty. */
export function isStorable(status: number, headers: OutgoingHttpHeaders, bodyLength: number, policy: StorePolicy): boolean {
  return bodyLength > 0 && unstorableHead(status, headers, policy) === undefined;
}
