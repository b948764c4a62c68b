import { load, spawnServer, type BenchResult, type BenchSuite } from '../lib.js';

/**
 * The page path through the front, origin and front in their own processes: cache hits against uncached renders of
 * the same page (every request a new query string, so the LRU never holds it), and the origin's list endpoint.
 */
export const pagePathSuite: BenchSuite = {
  name: 'page-path',
  description: 'front cache hits vs uncached renders of the home page; origin GET /api/v1/plog/',
  async run(): Promise<BenchResult[]> {
    const origin = await spawnServer('bench/servers/origin.ts');
    const front = await spawnServer('bench/servers/front.ts', [origin.url]);
    try {
      const originList = await load(`${origin.url}/api/v1/plog/`, { connections: 32 });
      let request = 0;
      const renders = await load(`${front.url}/`, { connections: 32, nextPath: () => `/?uncached=${request++}` });
      const hits = await load(`${front.url}/`, { connections: 32 });
      for (const [name, result] of Object.entries({ originList, renders, hits })) {
        if (result.errors > 0 || result.non2xx > 0) throw new Error(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
      }
      return [
        { name: 'uncached renders of / (front → renderer → origin)', value: renders.requestsPerSecond, unit: 'req/s', note: `p99 ${renders.p99Ms} ms` },
        {
          name: 'cache hits of / (front)',
          value: hits.requestsPerSecond,
          unit: 'req/s',
          baseline: 'uncached renders of / (front → renderer → origin)',
          target: { minRatio: 20 },
          note: `p50 ${hits.p50Ms} ms`,
        },
        { name: 'p99 latency of cache hits, 32 connections', value: hits.p99Ms, unit: 'ms', target: { max: 5 } },
        { name: 'origin GET /api/v1/plog/', value: originList.requestsPerSecond, unit: 'req/s', target: { min: 2_000 }, note: `p99 ${originList.p99Ms} ms` },
      ];
    } finally {
      await front.stop();
      await origin.stop();
    }
  },
};
