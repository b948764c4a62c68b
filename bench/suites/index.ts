import type { BenchSuite } from '../lib.js';
import { edgeSuite } from './edge.js';
import { fleetSuite } from './fleet.js';
import { fleetTierSuite } from './fleet-tier.js';
import { freshnessSuite } from './freshness.js';
import { fromSiteSuite } from './from-site.js';
import { imagesSuite } from './images.js';
import { markdownSuite } from './markdown.js';
import { pageCacheTarballSuite } from './page-cache-package.js';
import { pageCacheSuite } from './page-cache.js';
import { pageCacheEvictionSuite } from './page-cache-eviction.js';
import { pagePathSuite } from './page-path.js';
import { publicationSuite } from './publication.js';
import { proxySuite } from './proxy.js';
import { purgeKeysSuite } from './purge-keys.js';
import { operationsSuite } from './operations.js';
import { pageWeightSuite } from './page-weight.js';
import { scaleSuite } from './scale.js';
import { searchIndexSuite } from './search-index.js';
import { sharedTierSuite } from './shared-tier.js';
import { searchQualitySuite } from './search-quality.js';
import { searchQuerySuite } from './search-query.js';
import { songsSuite } from './songs.js';

/** Every benchmark suite, in the order `npm run bench` runs them. */
export const suites: BenchSuite[] = [pageCacheSuite, pageCacheEvictionSuite, pageCacheTarballSuite, pagePathSuite, pageWeightSuite, edgeSuite, searchIndexSuite, searchQuerySuite, searchQualitySuite, songsSuite, scaleSuite, freshnessSuite, operationsSuite, purgeKeysSuite, markdownSuite, publicationSuite, imagesSuite, fromSiteSuite, fleetSuite, fleetTierSuite, sharedTierSuite, proxySuite];
