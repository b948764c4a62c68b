import { load, spawnServer, type BenchResult, type BenchSuite } from '../lib.js';

const PAGE_PATH = '/plog/hello';
const ROUNDS = 2;

/** Page-cache hits through a front of `workers` processes; the best of the rounds, as the other suites keep. */
async function hitsPerSecond(workers: number): Promise<number> {
  const server = await spawnServer('bench/servers/front-workers.ts', [String(workers)]);
  try {
    const result = await load(`${server.url}${PAGE_PATH}`, { connections: 32 });
    if (result.errors > 0 || result.non2xx > 0) throw new Error(`${workers} workers: ${result.errors} errors, ${result.non2xx} non-2xx`);
    return result.requestsPerSecond;
  } finally {
    await server.stop();
  }
}

export const scaleSuite: BenchSuite = {
  name: 'scale',
  description: 'front page-cache hits with 1 and 2 worker processes (node:cluster), same run',
  async run(): Promise<BenchResult[]> {
    const best = [0, 0];
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, workers] of [1, 2].entries()) best[i] = Math.max(best[i] ?? 0, await hitsPerSecond(workers));
    }
    return [
      { name: 'front hits, 1 worker', value: best[0] ?? 0, unit: 'req/s' },
      {
        name: 'front hits, 2 workers',
        value: best[1] ?? 0,
        unit: 'req/s',
        baseline: 'front hits, 1 worker',
        note: 'the load generator shares the machine: on 2 cores it takes one, so 2 workers only gain with more cores',
      },
    ];
  },
};
