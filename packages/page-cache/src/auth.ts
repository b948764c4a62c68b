import { createHash, timingSafeEqual } from 'node:crypto';

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or `undefined` for anything else. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  return match?.[1];
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * True when `authorization` is `Bearer <secret>`, compared in the same time whatever the token: both sides are hashed
 * to equal-length digests first, so neither their contents nor their lengths leak through timing. An unset or empty
 * secret matches nothing.
 */
export function bearerMatches(authorization: string | undefined, secret: string | undefined): boolean {
  const token = bearerToken(authorization);
  if (token === undefined || secret === undefined || secret === '') return false;
  return timingSafeEqual(digest(token), digest(secret));
}
