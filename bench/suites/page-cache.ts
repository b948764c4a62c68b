import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { createPageCache } from '../../src/page-cache/index.js';
import { purgeMatches } from '../../src/page-cache/purge-match.js';
import { load, spawnServer, timeCalls, type BenchResult, type BenchSuite, type LoadOptions } from '../lib.js';

const PAGE_PATH = '/plog/hello';
const PURGE_ENTRIES = 100_000;
const PURGE_PATHNAMES = 100;
const PURGE_ROUNDS = 50;

interface Measured {
  rps: number;
  /** Server CPU time per request, µs: robust to a busy machine where req/s is not. */
  cpuMicros: number;
  /** Page cache hits counted by the server during the run (page-cache.ts only). */
  hits?: number;
}

/** One server script under load; a run with errors or non-2xx answers is not a figure. */
async function measure(script: string, args: string[], options: LoadOptions = {}): Promise<Measured> {
  const server = await spawnServer(`bench/servers/${script}`, args);
  try {
    const result = await load(`${server.url}${PAGE_PATH}`, { ...options, ...(server.child.pid === undefined ? {} : { cpuOfPid: server.child.pid }) });
    if (result.errors > 0 || result.non2xx > 0) throw new Error(`${script} ${args.join(' ')}: ${result.errors} errors, ${result.non2xx} non-2xx`);
    const measured: Measured = { rps: result.requestsPerSecond, cpuMicros: result.cpuMicrosPerRequest ?? Number.NaN };
    if (script === 'page-cache.ts') {
      const stats = await fetch(`${server.url}/__cache__/stats`, { headers: { authorization: 'Bearer bench' } });
      measured.hits = ((await stats.json()) as { hits: number }).hits;
    }
    return measured;
  } finally {
    await server.stop();
  }
}

/** A different query string on every request, across all connections: with the default `url` key, every one misses. */
function distinctPaths(): () => string {
  let counter = 0;
  return () => `${PAGE_PATH}?v=${counter++}`;
}

async function missRun(kind: string): Promise<{ cached: Measured; alone: Measured }> {
  const alone = await measure('renderer-alone.ts', [kind], { nextPath: distinctPaths() });
  const cached = await measure('page-cache.ts', [kind], { nextPath: distinctPaths() });
  return { cached, alone };
}

/** Fills a cache with 100,000 entries (half pages, half their data routes) through real requests, then times purges. */
async function purgeRun(): Promise<{ worstMs: number; meanMs: number; removedPerPurge: number; scanMs: number }> {
  const cache = createPageCache({ maxEntries: PURGE_ENTRIES });
  const body = Buffer.alloc(64, 'x');
  const server = createServer((req, res) => cache.handle(req, res, () => res.end(body)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let counter = 0;
  const pathFor = (i: number) => (i % 2 === 0 ? `/plog/post-${i >> 1}` : `/_render/data/b1/en-US/plog/post-${i >> 1}.json`);
  await autocannon({
    url,
    connections: 16,
    pipelining: 8,
    amount: PURGE_ENTRIES,
    requests: [{ method: 'GET', setupRequest: (request: autocannon.Request) => ({ ...request, path: pathFor(counter++) }) }],
  });
  server.closeAllConnections();
  server.close();
  if (cache.size !== PURGE_ENTRIES) throw new Error(`purge bench: expected ${PURGE_ENTRIES} entries, got ${cache.size}`);

  let removed = 0;
  const timing = timeCalls(PURGE_ROUNDS, (round) => {
    const pathnames = Array.from({ length: PURGE_PATHNAMES }, (_, i) => `/plog/post-${round * PURGE_PATHNAMES + i}`);
    removed += cache.purge(pathnames).length;
  });
  const worstMs = timing.p99;
  // The spec's literal algorithm, for scale: every key tested against every pathname.
  const keys = Array.from({ length: PURGE_ENTRIES }, (_, i) => pathFor(i));
  const rules = { dataRoutePrefix: '/_render/data/', purgeQueryVariants: false };
  const scan = timeCalls(3, (round) => {
    const pathnames = Array.from({ length: PURGE_PATHNAMES }, (_, i) => `/plog/post-${round * PURGE_PATHNAMES + i}`);
    let matched = 0;
    for (const pathname of pathnames) for (const key of keys) if (purgeMatches(key, pathname, rules)) matched++;
    if (matched !== 2 * PURGE_PATHNAMES) throw new Error(`literal scan matched ${matched}`);
  });
  return { worstMs, meanMs: timing.mean, removedPerPurge: removed / PURGE_ROUNDS, scanMs: scan.mean };
}

async function memoryRun(): Promise<{ perEntryBytes: number; bodyBytes: number; entries: number }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/servers/memory.ts', '2000'], {
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { perEntryBytes: number; bodyBytes: number; entries: number };
}

export const pageCacheSuite: BenchSuite = {
  name: 'page-cache',
  description: 'page cache hits, misses, purge and memory on a 30 KB React-rendered HTML page',
  async run(): Promise<BenchResult[]> {
    const bare = await measure('bare.ts', []);
    const hit = await measure('page-cache.ts', ['react']);
    const express = await measure('express-lru.ts', ['react']);
    const reactMiss = await missRun('react');
    const staticMiss = await missRun('static');
    const purge = await purgeRun();
    const memory = await memoryRun();
    const rps = 'req/s';
    const cpu = 'µs CPU/req';
    return [
      { name: 'bare node:http, prebuilt bytes', value: bare.rps, unit: rps, note: 'the limit for Node: writeHead + end of the same 30 KB bytes and headers' },
      { name: 'Express + lru-cache middleware, hits', value: express.rps, unit: rps, note: 'patches res.write/res.end; hits via res.set + res.send' },
      { name: 'page cache hits', value: hit.rps, unit: rps, baseline: 'bare node:http, prebuilt bytes', target: { minRatio: 0.9 } },
      { name: 'page cache hits (vs Express)', value: hit.rps, unit: rps, baseline: 'Express + lru-cache middleware, hits', target: { minRatio: 4 } },
      { name: 'server CPU per request, bare', value: bare.cpuMicros, unit: cpu, note: 'server process CPU time / requests (from /proc)' },
      { name: 'server CPU per hit, page cache', value: hit.cpuMicros, unit: cpu, baseline: 'server CPU per request, bare' },
      { name: 'server CPU per hit, Express + lru-cache', value: express.cpuMicros, unit: cpu, baseline: 'server CPU per hit, page cache' },
      { name: 'React renderer alone', value: reactMiss.alone.rps, unit: rps, note: 'renderToString of the 30 KB page per request' },
      {
        name: 'page cache misses, React renderer',
        value: reactMiss.cached.rps,
        unit: rps,
        baseline: 'React renderer alone',
        target: { minRatio: 0.95 },
        note: `every request a distinct ?v=N with the default url key, so every one misses, is stored and evicts one past 1000 entries; hits during the run: ${reactMiss.cached.hits}`,
      },
      { name: 'server CPU per request, React renderer alone', value: reactMiss.alone.cpuMicros, unit: cpu },
      { name: 'server CPU per miss, React renderer', value: reactMiss.cached.cpuMicros, unit: cpu, baseline: 'server CPU per request, React renderer alone' },
      { name: 'prebuilt-bytes renderer alone', value: staticMiss.alone.rps, unit: rps, note: 'a renderer that does no work' },
      {
        name: 'page cache misses, prebuilt-bytes renderer',
        value: staticMiss.cached.rps,
        unit: rps,
        baseline: 'prebuilt-bytes renderer alone',
        note: `the capture, store and evict cost laid bare (no target); hits during the run: ${staticMiss.cached.hits}`,
      },
      { name: 'server CPU per request, prebuilt-bytes renderer alone', value: staticMiss.alone.cpuMicros, unit: cpu },
      {
        name: 'server CPU per miss, prebuilt-bytes renderer',
        value: staticMiss.cached.cpuMicros,
        unit: cpu,
        baseline: 'server CPU per request, prebuilt-bytes renderer alone',
      },
      {
        name: 'literal spec scan, 100 pathnames over 100,000 keys',
        value: purge.scanMs,
        unit: 'ms',
        note: 'the spec algorithm (every key against every pathname), for scale',
      },
      {
        name: `purge 100 pathnames from 100,000 entries (p99 of ${PURGE_ROUNDS})`,
        value: purge.worstMs,
        unit: 'ms',
        baseline: 'literal spec scan, 100 pathnames over 100,000 keys',
        target: { max: 5 },
        note: `each purge removes ${purge.removedPerPurge} keys (page + data route); mean ${purge.meanMs.toFixed(3)} ms`,
      },
      { name: 'cached body size', value: memory.bodyBytes, unit: 'B', note: 'the 30 KB page' },
      {
        name: 'memory per cached entry',
        value: memory.perEntryBytes,
        unit: 'B',
        baseline: 'cached body size',
        target: { max: memory.bodyBytes * 1.1 },
        note: `heap + external after GC, over ${memory.entries} distinct entries filled through HTTP (node --expose-gc child)`,
      },
    ];
  },
};
