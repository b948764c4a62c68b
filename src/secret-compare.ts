import { createHash, timingSafeEqual } from 'node:crypto';

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Whether a presented token equals the configured secret, in the same time whatever the token: both sides are hashed to
 * equal-length digests first, so neither their contents nor their lengths leak through timing.
 */
export function secretMatches(token: string, secret: string): boolean {
  return timingSafeEqual(digest(token), digest(secret));
}
