import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { edgePaths, findNginx, NGINX_INSTALL_HINT, spawnNginx, waitUntilListening, workerUser, writeEdgeConfig } from '../../src/edge/index.js';
import { freePort, get } from '../../src/edge/test-support/edge-harness.js';
import { load, spawnServer, type BenchResult, type BenchSuite, type LoadResult } from '../lib.js';

const PAGE = '/plog/a-30kb-page';
const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU seconds used so far by process `pid`, or by every process of its group when `wholeGroup` (Linux /proc). */
function cpuSeconds(pid: number, wholeGroup: boolean): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // The fields after the command name, from `state`: ppid is [1], pgrp [2], utime [11], stime [12].
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (wholeGroup ? Number(fields[2]) === pid : Number(entry) === pid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}

/** Drives `url` and also returns the requests served per CPU second of the server's process group. */
async function measure(url: string, pid: number, wholeGroup: boolean): Promise<LoadResult & { perCpuSecond: number }> {
  // The 1 s warm-up of `load` is inside the CPU window too, so the requests are counted over 6 s at the measured rate.
  const before = cpuSeconds(pid, wholeGroup);
  const result = await load(url, { warmupSeconds: 1, durationSeconds: 5 });
  const cpu = cpuSeconds(pid, wholeGroup) - before;
  return { ...result, perCpuSecond: (result.requestsPerSecond * 6) / Math.max(cpu, 1 / CLOCK_TICKS_PER_SECOND) };
}

function note(result: LoadResult): string {
  const failures = result.errors + result.non2xx > 0 ? `, ${result.errors} errors, ${result.non2xx} non-2xx` : '';
  return `p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms${failures}`;
}

/**
 * Edge hits (nginx serving its cache) beside the same page served by the upstream itself, in the same run. On a small
 * machine the load generator saturates first, so requests per server CPU second is the fairer comparison.
 */
export const edgeSuite: BenchSuite = {
  name: 'edge',
  description: 'nginx edge cache hits vs the same 30 KB page served directly by the upstream',
  async run(): Promise<BenchResult[]> {
    const nginx = findNginx(process.env.NGINX_BIN ?? 'nginx', process.env.PATH);
    if (nginx === undefined) throw new Error(`the edge bench needs nginx: ${NGINX_INSTALL_HINT}`);
    const upstream = await spawnServer('bench/servers/edge-upstream.ts');
    const dir = mkdtempSync(join(tmpdir(), 'sitestack-bench-edge-'));
    const edgeDir = join(dir, 'edge');
    const port = await freePort();
    const configFile = writeEdgeConfig({
      edgeDir,
      listen: { host: '127.0.0.1', port },
      upstreams: [{ host: '127.0.0.1', port: Number(new URL(upstream.url).port) }],
      user: workerUser(process.getuid?.(), userInfo().username),
    });
    const edge = spawnNginx(nginx, edgeDir, configFile, { ownProcessGroup: true });
    try {
      await waitUntilListening(edge, edgePaths(edgeDir).pid);
      const edgeUrl = `http://127.0.0.1:${port}${PAGE}`;
      await get(edgeUrl);
      const check = await get(edgeUrl);
      if (check.headers['x-cache'] !== 'HIT') throw new Error(`expected an edge HIT before measuring, got ${String(check.headers['x-cache'])}`);

      const direct = await measure(`${upstream.url}${PAGE}`, upstream.child.pid!, false);
      // nginx runs in a process group of its own: the master and its workers.
      const hits = await measure(edgeUrl, edge.child.pid!, true);
      const bypass = await load(edgeUrl, { headers: { 'secret-header': 'true' } });
      const DIRECT = 'upstream direct: req/s';
      const DIRECT_CPU = 'upstream direct: req per server CPU s';
      return [
        { name: DIRECT, value: direct.requestsPerSecond, unit: 'req/s', note: `node:http, page in memory; ${note(direct)}` },
        { name: 'edge hit: req/s', value: hits.requestsPerSecond, unit: 'req/s', baseline: DIRECT, note: note(hits) },
        { name: DIRECT_CPU, value: direct.perCpuSecond, unit: 'req/cpu-s' },
        {
          name: 'edge hit: req per server CPU s',
          value: hits.perCpuSecond,
          unit: 'req/cpu-s',
          baseline: DIRECT_CPU,
          note: 'nginx master + workers',
        },
        {
          name: 'edge bypass (secret-header): req/s',
          value: bypass.requestsPerSecond,
          unit: 'req/s',
          baseline: DIRECT,
          note: `refresh path: upstream call + cache file write; ${note(bypass)}`,
        },
      ];
    } finally {
      await edge.stop();
      await upstream.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
