import { load, spawnServer, type BenchResult, type BenchSuite, type ServerProcess } from '../lib.js';

const ROUNDS = 2;

/** Home-page cache hits through the front run as `workers` processes; a run with errors is not a figure. */
async function hitsPerSecond(origin: ServerProcess, workers: number): Promise<number> {
  const front = await spawnServer('servers/front-workers.ts', [origin.url, String(workers)]);
  try {
    const result = await load(`${front.url}/`, { connections: 32 });
    if (result.errors > 0 || result.non2xx > 0) throw new Error(`${workers} workers: ${result.errors} errors, ${result.non2xx} non-2xx`);
    return result.requestsPerSecond;
  } finally {
    await front.stop();
  }
}

/**
 * The front's page-cache hits with 1 and 2 worker processes (node:cluster) in the same run, alternating over `ROUNDS`
 * rounds and keeping each one's best, as the other suites do.
 */
export const scaleSuite: BenchSuite = {
  name: 'scale',
  description: 'front page-cache hits of the home page with 1 and 2 worker processes (node:cluster), same run',
  async run(): Promise<BenchResult[]> {
    const origin = await spawnServer('servers/origin.ts');
    const best = [0, 0];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, workers] of [1, 2].entries()) best[i] = Math.max(best[i] ?? 0, await hitsPerSecond(origin, workers));
      }
    } finally {
      await origin.stop();
    }
    return [
      { name: 'front hits, 1 worker', value: best[0] ?? 0, unit: 'req/s' },
      {
        name: 'front hits, 2 workers',
        value: best[1] ?? 0,
        unit: 'req/s',
        baseline: 'front hits, 1 worker',
        note: 'the load generator shares the machine: 2 workers gain only with cores to spare',
      },
    ];
  },
};
