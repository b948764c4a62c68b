import { request } from 'node:http';
import { bestOf, load, placement, spawnServer, type BenchResult, type BenchSuite, type LoadResult, type ServerProcess } from '../lib.js';

const ROUNDS = 3;

/** The fronts measured, each in its own process: the request observer off, then on with each LOG_REQUESTS mode. */
const VARIANTS = [
  { mode: 'off', name: 'cache hits of /, metrics and request logs off' },
  { mode: 'metrics-only', name: 'cache hits of /, metrics on, LOG_REQUESTS=off' },
  { mode: 'sampled', name: 'cache hits of /, metrics on, LOG_REQUESTS=sampled (default)' },
  { mode: 'all', name: 'cache hits of /, metrics on, LOG_REQUESTS=all' },
] as const;

/** A demo post of the origin: prose, which compresses far less than the home page's listing. */
const POST = '/plog/first-look-sqlite';

/** One GET as a client with this Accept-Encoding sends it; the body is read and dropped. */
function fetchOnce(url: string, acceptEncoding: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': acceptEncoding }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A load on one server, over the same rounds as the fronts: a URL, the headers of its requests, and the process to time. */
interface Contender {
  key: string;
  name: string;
  url: string;
  server: ServerProcess;
  headers?: Record<string, string>;
}

/**
 * What the operations features cost on the hot path: page cache hits of the home page on fronts that differ only in
 * the request observer (request duration histogram, cache status, request log line); and, on the front with the
 * production default (metrics on, sampled request logs), hits in identity and br against bare node:http writing the
 * same bytes and headers, and brotli hits of a post first asked for by a gzip-only client (issue 32: an entry kept
 * only the coding asked first on pages that compress like prose). Every server runs side by side and they are
 * measured in alternation over `ROUNDS` rounds, each keeping its best, so that background load hits all alike.
 */
export const operationsSuite: BenchSuite = {
  name: 'operations',
  description: 'cache hits with metrics and request logs on versus off, and against bare node:http, identity, br and gzip-first br',
  async run(): Promise<BenchResult[]> {
    const origin = await spawnServer('servers/origin.ts', [], {}, { pinned: true });
    const servers: ServerProcess[] = [];
    const best = new Map<string, LoadResult>();
    let compressions: number | undefined;
    try {
      const contenders: Contender[] = [];
      for (const variant of VARIANTS) {
        const front = await spawnServer('servers/front-operations.ts', [origin.url, variant.mode], {}, { pinned: true });
        servers.push(front);
        contenders.push({ key: variant.mode, name: variant.name, url: `${front.url}/`, server: front });
      }
      const sampled = contenders.find((contender) => contender.key === 'sampled')!.server;
      // The post's first request accepts gzip only, as crawlers send; every later one asks for br.
      await fetchOnce(`${sampled.url}${POST}`, 'gzip');
      await fetchOnce(`${sampled.url}/`, 'br');
      const bare = async (key: string, name: string, url: string, acceptEncoding?: string) => {
        const server = await spawnServer('servers/bare-capture.ts', acceptEncoding === undefined ? [url] : [url, acceptEncoding], {}, { pinned: true });
        servers.push(server);
        contenders.push({ key, name, url: `${server.url}/`, server, ...(acceptEncoding === undefined ? {} : { headers: { 'accept-encoding': acceptEncoding } }) });
      };
      await bare('bare', 'bare node:http, the front\'s bytes of /', `${sampled.url}/`);
      await bare('bare-br', 'bare node:http, the front\'s brotli bytes of /', `${sampled.url}/`, 'br');
      await bare('bare-post-br', 'bare node:http, the front\'s brotli bytes of a post', `${sampled.url}${POST}`, 'br');
      contenders.push({ key: 'sampled-br', name: 'cache hits of /, Accept-Encoding: br, metrics on, LOG_REQUESTS=sampled', url: `${sampled.url}/`, server: sampled, headers: { 'accept-encoding': 'br' } });
      contenders.push({
        key: 'post-br',
        name: 'brotli hits of a post first asked for with gzip, metrics on, LOG_REQUESTS=sampled',
        url: `${sampled.url}${POST}`,
        server: sampled,
        headers: { 'accept-encoding': 'br' },
      });
      for (let round = 0; round < ROUNDS; round++) {
        for (const contender of contenders) {
          const pid = contender.server.child.pid;
          const result = await load(contender.url, { connections: 32, pinned: true, ...(contender.headers === undefined ? {} : { headers: contender.headers }), ...(pid === undefined ? {} : { cpuOfPid: pid }) });
          best.set(contender.key, bestOf(best.get(contender.key), result, contender.name));
        }
      }
      const stats = await fetch(`${sampled.url}/__cache__/stats`, { headers: { authorization: 'Bearer bench' } });
      compressions = ((await stats.json()) as { compressions: number }).compressions;
    } finally {
      for (const server of servers) await server.stop();
      await origin.stop();
    }
    const figures = (key: string) => {
      const result = best.get(key)!;
      return { value: result.requestsPerSecond, unit: 'req/s', note: `p99 ${result.p99Ms} ms, ${Math.round(result.cpuMicrosPerRequest ?? Number.NaN)} µs CPU per request` };
    };
    const off = VARIANTS[0];
    const observed = VARIANTS.map((variant): BenchResult => {
      if (variant === off) return { name: variant.name, ...figures(variant.mode), note: `${figures(variant.mode).note}; ${placement()}` };
      // The production default is held to the target; every line logged costs a write, so `all` only reports.
      return { name: variant.name, ...figures(variant.mode), baseline: off.name, ...(variant.mode === 'all' ? {} : { target: { minRatio: 0.9 } }) };
    });
    const sampledName = VARIANTS[2].name;
    return [
      ...observed,
      { name: 'bare node:http, the front\'s bytes of /', ...figures('bare'), note: `${figures('bare').note}; the body and headers of the front's hit of /, written by writeHead + end` },
      { name: `${sampledName}, vs bare node:http`, ...figures('sampled'), baseline: 'bare node:http, the front\'s bytes of /', target: { minRatio: 0.9 } },
      { name: 'bare node:http, the front\'s brotli bytes of /', ...figures('bare-br') },
      { name: 'cache hits of /, Accept-Encoding: br, metrics on, LOG_REQUESTS=sampled', ...figures('sampled-br'), baseline: 'bare node:http, the front\'s brotli bytes of /', target: { minRatio: 0.9 } },
      { name: 'bare node:http, the front\'s brotli bytes of a post', ...figures('bare-post-br'), note: `${figures('bare-post-br').note}; ${POST}` },
      {
        name: 'brotli hits of a post first asked for with gzip, metrics on, LOG_REQUESTS=sampled',
        ...figures('post-br'),
        baseline: 'bare node:http, the front\'s brotli bytes of a post',
        target: { minRatio: 0.9 },
        note: `${figures('post-br').note}; bodies this front compressed in the whole run: ${compressions} (the post in gzip then br, / in br: 3 when every coding is kept)`,
      },
    ];
  },
};
