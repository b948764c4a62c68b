import type { OutgoingHttpHeaders } from 'node:http';

export interface StorePolicy {
  storeSetCookie: boolean;
  storePrivate: boolean;
}

/** Why a response is not stored, or `undefined` when its head allows storing it. */
export function unstorableHead(status: number, headers: OutgoingHttpHeaders, policy: StorePolicy): string | undefined {
  if (status !== 200) return `status ${status}`;
  if (!policy.storeSetCookie && headers['set-cookie'] !== undefined) return 'Set-Cookie';
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
