import type { EvictionBounds, EvictionPolicy, PolicyKey } from './policy.js';
import { S3FifoPolicy } from './s3-fifo.js';
import { SievePolicy } from './sieve.js';
import { WTinyLfuPolicy } from './w-tinylfu.js';

/** The policies implemented here, beside lru-cache's LRU: the candidates the bench replays traces through. */
export const POLICY_NAMES = ['w-tinylfu', 's3-fifo', 'sieve'] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];

/**
 * Values of the page cache's `eviction` option, chosen by the bench's trace replays: S3-FIFO hits most on the public
 * web traces and on Zipf traffic with or without scans; W-TinyLFU alone keeps hitting when a loop larger than the cache
 * recurs. SIEVE hit less than S3-FIFO on every trace, so it is not offered.
 */
export const EVICTIONS = ['lru', 's3-fifo', 'w-tinylfu'] as const;
export type Eviction = (typeof EVICTIONS)[number];

export function createEvictionPolicy<K extends PolicyKey>(name: PolicyName, bounds: EvictionBounds): EvictionPolicy<K> {
  switch (name) {
    case 'w-tinylfu':
      return new WTinyLfuPolicy<K>(bounds);
    case 's3-fifo':
      return new S3FifoPolicy<K>(bounds);
    case 'sieve':
      return new SievePolicy<K>();
  }
}
