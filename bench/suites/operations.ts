import { bestOf, load, placement, spawnServer, type BenchResult, type BenchSuite, type LoadResult, type ServerProcess } from '../lib.js';

const ROUNDS = 3;

/** The fronts measured, each in its own process: the request observer off, then on with each LOG_REQUESTS mode. */
const VARIANTS = [
  { mode: 'off', name: 'cache hits of /, metrics and request logs off' },
  { mode: 'metrics-only', name: 'cache hits of /, metrics on, LOG_REQUESTS=off' },
  { mode: 'sampled', name: 'cache hits of /, metrics on, LOG_REQUESTS=sampled (default)' },
  { mode: 'all', name: 'cache hits of /, metrics on, LOG_REQUESTS=all' },
] as const;

/**
 * What the operations features cost on the hot path: page cache hits of the home page on fronts that differ only in
 * the request observer (request duration histogram, cache status, request log line). The fronts run side by side and
 * are measured in alternation over `ROUNDS` rounds, each keeping its best, so that background load hits all alike.
 */
export const operationsSuite: BenchSuite = {
  name: 'operations',
  description: 'cache hits with metrics and request logs on versus off',
  async run(): Promise<BenchResult[]> {
    const origin = await spawnServer('servers/origin.ts', [], {}, { pinned: true });
    const fronts: ServerProcess[] = [];
    const best = new Map<string, LoadResult>();
    try {
      for (const variant of VARIANTS) fronts.push(await spawnServer('servers/front-operations.ts', [origin.url, variant.mode], {}, { pinned: true }));
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, variant] of VARIANTS.entries()) {
          const front = fronts[i]!;
          const result = await load(`${front.url}/`, { connections: 32, pinned: true, ...(front.child.pid === undefined ? {} : { cpuOfPid: front.child.pid }) });
          best.set(variant.mode, bestOf(best.get(variant.mode), result, variant.name));
        }
      }
    } finally {
      for (const front of fronts) await front.stop();
      await origin.stop();
    }
    const off = VARIANTS[0];
    return VARIANTS.map((variant): BenchResult => {
      const result = best.get(variant.mode)!;
      const cpu = `${Math.round(result.cpuMicrosPerRequest ?? Number.NaN)} µs CPU per hit`;
      if (variant === off) return { name: variant.name, value: result.requestsPerSecond, unit: 'req/s', note: `p99 ${result.p99Ms} ms, ${cpu}; ${placement()}` };
      return {
        name: variant.name,
        value: result.requestsPerSecond,
        unit: 'req/s',
        baseline: off.name,
        // The production default is held to the target; every line logged costs a write, so `all` only reports.
        ...(variant.mode === 'all' ? {} : { target: { minRatio: 0.9 } }),
        note: `p99 ${result.p99Ms} ms, ${cpu}`,
      };
    });
  },
};
