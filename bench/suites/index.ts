import type { BenchSuite } from '../lib.js';
import { edgeSuite } from './edge.js';

/** Every benchmark suite, in the order `npm run bench` runs them. */
export const suites: BenchSuite[] = [edgeSuite];
