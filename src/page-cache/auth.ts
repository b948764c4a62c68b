import { secretMatches } from '../secret-compare.js';

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or `undefined` for anything else. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  return match?.[1];
}

/**
 * True when `authorization` is `Bearer <secret>`, compared in constant time (secretMatches). An unset or empty secret
 * matches nothing.
 */
export function bearerMatches(authorization: string | undefined, secret: string | undefined): boolean {
  const token = bearerToken(authorization);
  if (token === undefined || secret === undefined || secret === '') return false;
  return secretMatches(token, secret);
}
