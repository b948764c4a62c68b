import { createMemorySharedTier } from '../packages/page-cache/src/test-support/memory-shared-tier.js';
import { sharedTierContract } from '../src/fleet/second-tier/test-support/shared-tier-contract.js';

// The in-memory reference tier the page cache's own tests share, held to the contract the Redis tier is held to.
sharedTierContract('the in-memory reference tier', async () => {
  const tier = createMemorySharedTier();
  return {
    tier,
    purge: async (targets, keys, soft) => tier.purge(targets, keys, soft),
    settled: async () => {},
    close: async () => {},
  };
});
