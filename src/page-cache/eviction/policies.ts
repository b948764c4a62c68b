import type { EvictionBounds, EvictionPolicy, PolicyKey } from './policy.js';
import { S3FifoPolicy } from './s3-fifo.js';
import { SievePolicy } from './sieve.js';
import { WTinyLfuPolicy } from './w-tinylfu.js';

/** The scan-resistant policies, beside lru-cache's LRU. */
export const POLICY_NAMES = ['w-tinylfu', 's3-fifo', 'sieve'] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];

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
