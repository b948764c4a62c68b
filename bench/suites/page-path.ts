import { bestOf, load, placement, spawnServer, type BenchResult, type BenchSuite, type LoadOptions, type LoadResult } from '../lib.js';

const ROUNDS = 2;

/**
 * The page path with origin and front in their own processes: cache hits of the home page against uncached renders of
 * the same page (a new query string on every request, so the page cache never holds it), and the origin's list
 * endpoint. The measurements alternate over `ROUNDS` rounds and each keeps its best (highest req/s, lowest p99 and CPU
 * per request), so every measure goes through the same spells of background load and the least disturbed one counts.
 */
export const pagePathSuite: BenchSuite = {
  name: 'page-path',
  description: 'front cache hits vs uncached renders of the home page; origin GET /api/v1/plog/',
  async run(): Promise<BenchResult[]> {
    // The site (origin and front) on one CPU and the load generator on the other: an uncached render costs the work of
    // both processes, a hit the front's alone, and neither competes with wrk for CPU time.
    const origin = await spawnServer('servers/origin.ts', [], {}, { pinned: true });
    const front = await spawnServer('servers/front.ts', [origin.url], {}, { pinned: true });
    const best: Record<'renders' | 'hits' | 'originList', LoadResult | undefined> = { renders: undefined, hits: undefined, originList: undefined };
    const keep = (name: keyof typeof best, result: LoadResult) => {
      best[name] = bestOf(best[name], result, name);
    };
    const siteCpu: LoadOptions = {
      pinned: true,
      ...(front.child.pid === undefined ? {} : { cpuOfPid: front.child.pid }),
      ...(origin.child.pid === undefined ? {} : { alsoCpuOfPids: [origin.child.pid] }),
    };
    try {
      for (let round = 0; round < ROUNDS; round++) {
        keep('renders', await load(`${front.url}/`, { connections: 32, uniqueQuery: 'uncached', ...siteCpu }));
        keep('hits', await load(`${front.url}/`, { connections: 32, ...siteCpu }));
        keep('originList', await load(`${origin.url}/api/v1/plog/`, { connections: 32, pinned: true, ...(origin.child.pid === undefined ? {} : { cpuOfPid: origin.child.pid }) }));
      }
    } finally {
      await front.stop();
      await origin.stop();
    }
    const { renders, hits, originList } = best as Record<keyof typeof best, LoadResult>;
    const micros = (result: LoadResult) => Math.round(result.cpuMicrosPerRequest ?? Number.NaN);
    const siteMicros = (result: LoadResult) => (result.cpuMicrosPerRequest ?? Number.NaN) + (result.otherCpuMicrosPerRequest ?? Number.NaN);
    return [
      { name: 'uncached renders of / (front → renderer → origin)', value: renders.requestsPerSecond, unit: 'req/s', note: `p99 ${renders.p99Ms} ms; ${placement()}` },
      {
        name: 'cache hits of / (front)',
        value: hits.requestsPerSecond,
        unit: 'req/s',
        baseline: 'uncached renders of / (front → renderer → origin)',
        target: { minRatio: 20 },
        note: `p50 ${hits.p50Ms} ms`,
      },
      {
        name: 'uncached renders per site CPU-second',
        value: 1e6 / siteMicros(renders),
        unit: 'req/CPU-s',
        note: `CPU per render: front ${micros(renders)} µs + origin ${Math.round(renders.otherCpuMicrosPerRequest ?? Number.NaN)} µs, from /proc`,
      },
      {
        name: 'cache hits per site CPU-second',
        value: 1e6 / siteMicros(hits),
        unit: 'req/CPU-s',
        baseline: 'uncached renders per site CPU-second',
        note: `CPU per hit: front ${micros(hits)} µs + origin ${Math.round(hits.otherCpuMicrosPerRequest ?? Number.NaN)} µs (front CPU alone: ${(micros(renders) / micros(hits)).toFixed(1)}×); a hit costs what a bare node:http server writing the same bytes costs (page-cache suite)`,
      },
      { name: 'p99 latency of cache hits, 32 connections', value: hits.p99Ms, unit: 'ms', target: { max: 5 } },
      { name: 'origin GET /api/v1/plog/', value: originList.requestsPerSecond, unit: 'req/s', target: { min: 2_000 }, note: `p99 ${originList.p99Ms} ms; origin CPU ${micros(originList)} µs/req` },
    ];
  },
};
