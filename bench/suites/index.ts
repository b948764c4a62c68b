import type { BenchSuite } from '../lib.js';
import { searchIndexSuite } from './search-index.js';

/** Every benchmark suite, in the order `npm run bench` runs them. */
export const suites: BenchSuite[] = [searchIndexSuite];
