import type { OutgoingHttpHeaders } from 'node:http';

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
export function unstorableHead(status: number, headers: OutgoingHttpHeaders, policy: StorePolicy): string | undefined {
  if (status !== 200) return `status ${status}`;
  if (!policy.storeSetCookie && headers['set-cookie'] !== undefined) return 'Set-Cookie';
  const perClient = PER_CLIENT_HEADERS.find((name) => headers[name] !== undefined);
  if (perClient !== undefined) return `${perClient}, which describes one client`;
  if (!policy.storePrivate) {
    const cacheControl = headers['cache-control'];
    const value = Array.isArray(cacheControl) ? cacheControl.join(',') : String(cacheControl ?? '');
    if (/(?:^|[\s,])(?:private|no-store)(?:$|[\s,=])/i.test(value)) return 'Cache-Control private or no-store';
  }
  return undefined;
}

/** True when a finished response may be stored: its head allows it and its body is non-empty. */
export function isStorable(status: number, headers: OutgoingHttpHeaders, bodyLength: number, policy: StorePolicy): boolean {
  return bodyLength > 0 && unstorableHead(status, headers, policy) === undefined;
}
