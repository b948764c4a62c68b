import { request } from 'node:http';
import { load, placement, spawnServer, type BenchResult, type BenchSuite, type LoadOptions, type ServerProcess } from '../lib.js';

const PAGE_PATH = '/plog/hello';
/** The upstream's CPU per page, ms: a fast server renderer (the half millisecond). */
const SPIN_MS = 0.5;
/** How long the streamed page holds its second half. */
const STREAM_DELAY_MS = 50;
const ROUNDS = 4;
const SECONDS = 4;
const FIRST_BYTE_SAMPLES = 60;
const MISS_NOTE =
  'maxEntries 1, a distinct ?v=N each request: every request forwarded, streamed back as identity, captured and stored (its encodings made later, when a client asks)';

interface Measured {
  rps: number;
  /** CPU per request of every server of the contender together, µs. */
  cpuMicros: number;
  /** CPU per request of the server under load alone (the proxy before its application), µs. */
  ownCpuMicros: number;
}

/** Servers started for one contender, the one under load last. */
type Start = () => Promise<ServerProcess[]>;

async function measureOnce(start: Start, options: LoadOptions): Promise<Measured> {
  const servers = await start();
  try {
    const target = servers.at(-1)!;
    if (options.uniqueQuery === undefined) await fetch(`${target.url}${PAGE_PATH}`).then((response) => response.arrayBuffer());
    const pids = servers.flatMap((server) => (server.child.pid === undefined ? [] : [server.child.pid]));
    const result = await load(`${target.url}${PAGE_PATH}`, { durationSeconds: SECONDS, pinned: true, ...options, cpuOfPid: pids.at(-1)!, alsoCpuOfPids: pids.slice(0, -1) });
    if (result.errors > 0 || result.non2xx > 0) throw new Error(`${result.errors} errors, ${result.non2xx} non-2xx`);
    const own = result.cpuMicrosPerRequest ?? Number.NaN;
    return { rps: result.requestsPerSecond, cpuMicros: own + (result.otherCpuMicrosPerRequest ?? 0), ownCpuMicros: own };
  } finally {
    for (const server of servers.reverse()) await server.stop();
  }
}

/** Interleaved rounds of each contender; each keeps its best (the round least disturbed by the shared host). */
async function compare(contenders: ReadonlyArray<[string, Start, LoadOptions]>): Promise<Measured[]> {
  const best = contenders.map(() => ({ rps: 0, cpuMicros: Number.POSITIVE_INFINITY, ownCpuMicros: Number.POSITIVE_INFINITY }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, [name, start, options]] of contenders.entries()) {
      const measured = await measureOnce(start, options);
      console.error(`  round ${round + 1}: ${name}: ${Math.round(measured.rps)} req/s, ${measured.cpuMicros.toFixed(1)} µs CPU/req`);
      best[i] = { rps: Math.max(best[i]!.rps, measured.rps), cpuMicros: Math.min(best[i]!.cpuMicros, measured.cpuMicros), ownCpuMicros: Math.min(best[i]!.ownCpuMicros, measured.ownCpuMicros) };
    }
  }
  return best;
}

const upstream = (spinMs: number) => spawnServer('servers/proxy-upstream.ts', [String(spinMs), String(STREAM_DELAY_MS)], {}, { pinned: true });
/**
 * The application and the proxy before it; `bypass` (PROXY_BYPASS) `/` forwards every request without the cache.
 * `ownCpu`: the proxy runs beside the load generator rather than on the application's CPU, as a proxy with a CPU of its
 * own in front of an application does.
 */
const proxyBefore = async (spinMs: number, maxEntries: string, bypass?: string, ownCpu = false): Promise<ServerProcess[]> => {
  const app = await upstream(spinMs);
  return [app, await spawnServer('servers/proxy.ts', [app.url, maxEntries, ...(bypass === undefined ? [] : [bypass])], {}, { pinned: ownCpu ? 'load' : true })];
};

/** Milliseconds from sending a request to its first body byte, one request at a time; the median of `samples`. */
async function firstByteMs(base: string, samples: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    times.push(
      await new Promise<number>((resolve, reject) => {
        const started = performance.now();
        const req = request(`${base}/stream?n=${i}`, (res) => {
          res.once('data', () => resolve(performance.now() - started));
          res.resume();
        });
        req.on('error', reject);
        req.end();
      }),
    );
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}

export const proxySuite: BenchSuite = {
  name: 'proxy',
  description: '`sitestack proxy` before a node:http application: hits against bare node:http, misses against the application alone, first byte of a streamed miss',
  async run(): Promise<BenchResult[]> {
    const [bare, hits] = (await compare([
      ['bare node:http', async () => [await spawnServer('servers/bare.ts', [], {}, { pinned: true })], {}],
      ['proxy hits', () => proxyBefore(SPIN_MS, '1000'), {}],
    ])) as [Measured, Measured];
    const [alone, missesOwnCpu, misses, forwarded] = (await compare([
      ['application alone', async () => [await upstream(SPIN_MS)], { uniqueQuery: 'v' }],
      ['proxy misses, proxy on its own CPU', () => proxyBefore(SPIN_MS, '1', undefined, true), { uniqueQuery: 'v' }],
      ['proxy misses', () => proxyBefore(SPIN_MS, '1'), { uniqueQuery: 'v' }],
      ['proxy passing by', () => proxyBefore(SPIN_MS, '1', '/'), { uniqueQuery: 'v' }],
    ])) as [Measured, Measured, Measured, Measured];
    const [app, proxy] = await proxyBefore(SPIN_MS, '1000');
    let direct: number;
    let through: number;
    try {
      direct = await firstByteMs(app!.url, FIRST_BYTE_SAMPLES);
      through = await firstByteMs(proxy!.url, FIRST_BYTE_SAMPLES);
    } finally {
      await proxy!.stop();
      await app!.stop();
    }
    const rps = 'req/s';
    const cpu = 'µs CPU/req';
    return [
      { name: 'bare node:http, prebuilt bytes (proxy suite)', value: bare.rps, unit: rps, note: `the 30 KB bench page; best of ${ROUNDS} interleaved rounds of ${SECONDS} s; ${placement()}` },
      { name: 'proxy hits', value: hits.rps, unit: rps, baseline: 'bare node:http, prebuilt bytes (proxy suite)', target: { minRatio: 0.9 }, note: 'startProxy with metrics and request observation on (LOG_REQUESTS=off)' },
      { name: 'server CPU per request, bare (proxy suite)', value: bare.cpuMicros, unit: cpu },
      { name: 'server CPU per proxy hit', value: hits.cpuMicros, unit: cpu, baseline: 'server CPU per request, bare (proxy suite)' },
      { name: 'application alone, 0.5 ms CPU a page', value: alone.rps, unit: rps, note: 'node:http spending 0.5 ms of CPU per page, then the 30 KB page; a distinct ?v=N each request' },
      { name: 'proxy misses before that application, each on a CPU of its own', value: missesOwnCpu.rps, unit: rps, baseline: 'application alone, 0.5 ms CPU a page', target: { minRatio: 0.9 }, note: `${MISS_NOTE}; the application on the server CPU, the proxy beside wrk, as a proxy with a CPU of its own` },
      { name: 'proxy misses before that application, sharing its CPU', value: misses.rps, unit: rps, baseline: 'application alone, 0.5 ms CPU a page', note: `${MISS_NOTE}; proxy and application on the server CPU: the second hop's cost taken from the application` },
      { name: 'server CPU per request, application alone', value: alone.cpuMicros, unit: cpu },
      { name: 'server CPU per proxy miss, proxy and application', value: misses.cpuMicros, unit: cpu, baseline: 'server CPU per request, application alone' },
      { name: 'proxy CPU per request forwarded without the cache', value: forwarded.ownCpuMicros, unit: cpu, note: 'PROXY_BYPASS=/: the forwarding alone (a second HTTP hop over loopback)' },
      { name: 'proxy CPU per miss', value: misses.ownCpuMicros, unit: cpu, baseline: 'proxy CPU per request forwarded without the cache', note: 'the same forwarding plus the capture and store of the streamed answer (no compression on the request path)' },
      { name: 'first byte of a streamed page, application alone', value: direct, unit: 'ms', note: `median of ${FIRST_BYTE_SAMPLES} sequential requests; the page's second half follows ${STREAM_DELAY_MS} ms later` },
      { name: 'first byte of a streamed miss through the proxy', value: through, unit: 'ms', baseline: 'first byte of a streamed page, application alone', note: 'the first chunk is passed on as it arrives, before the upstream has finished' },
    ];
  },
};
