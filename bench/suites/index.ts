import type { BenchSuite } from '../lib.js';
import { searchQuerySuite } from './search-query.js';

/** Every benchmark suite, in the order `npm run bench` runs them. */
export const suites: BenchSuite[] = [searchQuerySuite];
