import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { edgePaths, spawnNginx, waitUntilListening, workerUser, writeEdgeConfig } from '../../src/edge/index.js';
import { freePort, get, TEST_REFRESH_SECRET as EDGE_REFRESH_SECRET } from '../../src/edge/test-support/edge-harness.js';
import { bestOf, load, spawnServer, type BenchResult, type BenchSuite, type LoadResult } from '../lib.js';
import { requireNginx } from '../nginx.js';

const PAGE = '/';
const ROUNDS = 2;
/** USER_HZ, 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;
const WARMUP_SECONDS = 1;
const DURATION_SECONDS = 5;

/** CPU seconds used so far by every process of process group `pgid` (Linux /proc): nginx's master and workers. */
function groupCpuSeconds(pgid: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // The fields after the command name, from `state`: pgrp is [2], utime [11], stime [12].
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}

/**
 * `load` with the CPU per request of a whole process group (the lib's `cpuOfPid` reads one process). The warm-up run is
 * inside the CPU window, so its requests are counted at the measured rate.
 */
async function loadGroup(url: string, pgid: number): Promise<LoadResult> {
  const before = groupCpuSeconds(pgid);
  const result = await load(url, { connections: 32, warmupSeconds: WARMUP_SECONDS, durationSeconds: DURATION_SECONDS });
  const cpu = groupCpuSeconds(pgid) - before;
  return { ...result, cpuMicrosPerRequest: (cpu * 1e6) / (result.requestsPerSecond * (WARMUP_SECONDS + DURATION_SECONDS)) };
}

/**
 * Edge hits (nginx serving its cache) beside front hits (the page cache) of the same page, with origin and front in
 * their own processes and nginx in its own process group. Rounds alternate and each measure keeps its best.
 */
export const edgeSuite: BenchSuite = {
  name: 'edge',
  description: 'nginx edge cache hits vs front page-cache hits of the home page',
  async run(): Promise<BenchResult[]> {
    const nginx = requireNginx('edge');
    const origin = await spawnServer('servers/origin.ts');
    const front = await spawnServer('servers/front.ts', [origin.url]);
    const dir = mkdtempSync(join(tmpdir(), 'sitestack-bench-edge-'));
    const edgeDir = join(dir, 'edge');
    const port = await freePort();
    const configFile = writeEdgeConfig({
      edgeDir,
      listen: { host: '127.0.0.1', port },
      upstreams: [{ host: '127.0.0.1', port: Number(new URL(front.url).port) }],
      user: workerUser(process.getuid?.(), userInfo().username),
      refreshSecret: EDGE_REFRESH_SECRET,
    });
    const edge = spawnNginx(nginx, edgeDir, configFile, { ownProcessGroup: true });
    const results: Record<'frontHits' | 'edgeHits' | 'bypass', LoadResult | undefined> = { frontHits: undefined, edgeHits: undefined, bypass: undefined };
    let pageBytes = 0;
    try {
      await waitUntilListening(edge, edgePaths(edgeDir).pid);
      const edgeUrl = `http://127.0.0.1:${port}${PAGE}`;
      await get(edgeUrl);
      const check = await get(edgeUrl);
      if (check.headers['x-cache'] !== 'HIT') throw new Error(`expected an edge HIT before measuring, got ${String(check.headers['x-cache'])}`);
      pageBytes = Buffer.byteLength(check.body);
      for (let round = 0; round < ROUNDS; round++) {
        const frontCpu = front.child.pid === undefined ? {} : { cpuOfPid: front.child.pid };
        results.frontHits = bestOf(results.frontHits, await load(`${front.url}${PAGE}`, { connections: 32, ...frontCpu }), 'front hits');
        results.edgeHits = bestOf(results.edgeHits, await loadGroup(edgeUrl, edge.child.pid!), 'edge hits');
      }
      results.bypass = bestOf(undefined, await load(edgeUrl, { connections: 32, headers: { 'secret-header': EDGE_REFRESH_SECRET } }), 'edge bypass');
    } finally {
      await edge.stop();
      await front.stop();
      await origin.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    const { frontHits, edgeHits, bypass } = results as Record<keyof typeof results, LoadResult>;
    const FRONT = `front hits of ${PAGE} (page cache)`;
    const FRONT_CPU = 'front hits per front CPU-second';
    const perCpuSecond = (result: LoadResult) => 1e6 / (result.cpuMicrosPerRequest ?? Number.NaN);
    return [
      { name: FRONT, value: frontHits.requestsPerSecond, unit: 'req/s', note: `${pageBytes} B page; p50 ${frontHits.p50Ms} ms, p99 ${frontHits.p99Ms} ms` },
      { name: `edge hits of ${PAGE} (nginx cache)`, value: edgeHits.requestsPerSecond, unit: 'req/s', baseline: FRONT, note: `p50 ${edgeHits.p50Ms} ms, p99 ${edgeHits.p99Ms} ms` },
      // Requests per CPU-second of the server alone: the load generator shares this machine's cores and caps req/s.
      { name: FRONT_CPU, value: perCpuSecond(frontHits), unit: 'req/CPU-s' },
      {
        name: 'edge hits per nginx CPU-second',
        value: perCpuSecond(edgeHits),
        unit: 'req/CPU-s',
        baseline: FRONT_CPU,
        target: { minRatio: 1 },
        note: 'master + workers',
      },
      {
        name: 'edge refreshes (secret-header → front)',
        value: bypass.requestsPerSecond,
        unit: 'req/s',
        baseline: FRONT,
        note: `the purge path: front hit + cache file write; p99 ${bypass.p99Ms} ms`,
      },
    ];
  },
};
