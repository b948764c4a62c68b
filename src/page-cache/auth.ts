import { createHash, timingSafeEqual } from 'node:crypto';

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or `undefined` for anything else. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  return match?.[1];
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * True when `authorization` is `Bearer <secret>`. The comparison takes the same time whatever the token: both sides are
 * hashed to equal-length digests and compared with `timingSafeEqual`. An unset or empty secret matches nothing.
 */
export function bearerMatches(authorization: string | undefined, secret: string | undefined): boolean {
  const token = bearerToken(authorization);
  if (token === undefined || secret === undefined || secret === '') return false;
  return timingSafeEqual(digest(token), digest(secret));
}
