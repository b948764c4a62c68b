// Run with --expose-gc: fills a page cache with 100,000 entries through real requests, each response naming three
// surrogate keys (its own post, one of 100 categories of 1,000 entries, one of 10 listings of 10,000), then times, in
// turns, purges of one category key and purges of another category's 1,000 entries by their pathnames (the baseline:
// as many removals, found through the pathname index), refilling the entries through HTTP after each; and, for scale,
// a scan of every entry's keys for one key (what a cache without the key index would do before removing anything).
// Prints one JSON line.
import { Agent, createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { createPageCache } from '@sitestack/page-cache';
import { timeCalls } from '../lib.js';

const ENTRIES = 100_000;
const CATEGORIES = 100;
const LISTINGS = 10;
/** Each round purges two categories not purged before: entries that have sat in the cache since the fill, as most do. */
const ROUNDS = 45;
const WARMUP_ROUNDS = 5;
const REFILL_CONNECTIONS = 16;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const pathFor = (i: number) => `/plog/post-${i}`;
const keysOf = (i: number) => [`post:${i}`, `category:${i % CATEGORIES}`, `listing:${i % LISTINGS}`];
const category = (round: number) => `category:${round % CATEGORIES}`;

const cache = createPageCache({ maxEntries: ENTRIES });
const body = Buffer.alloc(64, 'x');
const server = createServer((req, res) =>
  cache.handle(req, res, () => {
    const i = Number(/post-(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
    res.writeHead(200, { 'content-type': 'text/plain', 'surrogate-key': keysOf(i).join(' ') });
    res.end(body);
  }),
);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;

let counter = 0;
await autocannon({
  url: `http://127.0.0.1:${port}`,
  connections: 16,
  pipelining: 8,
  amount: ENTRIES,
  requests: [{ method: 'GET', setupRequest: (request: autocannon.Request) => ({ ...request, path: pathFor(counter++) }) }],
});
if (cache.size !== ENTRIES) throw new Error(`expected ${ENTRIES} entries, got ${cache.size}`);

const agent = new Agent({ keepAlive: true, maxSockets: REFILL_CONNECTIONS });
function fetchPath(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', resolve);
    }).on('error', reject);
  });
}

/** The pathnames of the entries that name `key`. */
function pathsOf(key: string): string[] {
  const paths: string[] = [];
  for (let i = 0; i < ENTRIES; i++) if (category(i) === key) paths.push(pathFor(i));
  return paths;
}

/** Asks again, through HTTP, for the entries a purge of `key` removed, so the next purge finds a full cache. */
async function refill(key: string): Promise<void> {
  const paths = pathsOf(key);
  for (let i = 0; i < paths.length; i += REFILL_CONNECTIONS) await Promise.all(paths.slice(i, i + REFILL_CONNECTIONS).map(fetchPath));
  if (cache.size !== ENTRIES) throw new Error(`refill left ${cache.size} entries`);
}

/** Times one purge and checks it removed the category's 1,000 entries. */
function timePurge(request: { keys: string[] } | { pathnames: string[] }): number {
  let purged: string[] = [];
  const timing = timeCalls(1, () => (purged = cache.purge(request)));
  if (purged.length !== ENTRIES / CATEGORIES) throw new Error(`purge removed ${purged.length} entries`);
  return timing.p50;
}

// One collection before the rounds, none inside them: a collection forced just before a purge leaves V8 sweeping
// while it runs, which is no state a serving process is in; the refills' own collections land where they land.
gc();
const byKey: number[] = [];
const byPathname: number[] = [];
for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
  const key = category(2 * round);
  const keyMs = timePurge({ keys: [key] });
  await refill(key);
  const named = category(2 * round + 1);
  const pathnameMs = timePurge({ pathnames: pathsOf(named) });
  await refill(named);
  if (round >= WARMUP_ROUNDS) {
    byKey.push(keyMs);
    byPathname.push(pathnameMs);
  }
}
agent.destroy();
server.closeAllConnections();
server.close();

const entryKeys = Array.from({ length: ENTRIES }, (_, i) => keysOf(i));
const scan = timeCalls(5, (round) => {
  const key = category(round);
  let matched = 0;
  for (const keys of entryKeys) if (keys.includes(key)) matched++;
  if (matched !== ENTRIES / CATEGORIES) throw new Error(`scan matched ${matched}`);
});

const percentiles = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted.at(-1) ?? Number.NaN };
};
console.log(
  JSON.stringify({
    entries: ENTRIES,
    removedPerPurge: ENTRIES / CATEGORIES,
    rounds: ROUNDS,
    byKey: percentiles(byKey),
    byPathname: percentiles(byPathname),
    scanMs: scan.mean,
  }),
);
