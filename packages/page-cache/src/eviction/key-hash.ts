import type { PolicyKey } from './policy.js';

/** murmur3's 32-bit finaliser: spreads every input bit over the output, so nearby integers land far apart. */
export function mix32(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of a key: FNV-1a over a string's UTF-16 units (no allocation), then {@link mix32}. */
export function hashKey(key: PolicyKey): number {
  if (typeof key === 'number') return mix32(key);
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return mix32(h);
}
