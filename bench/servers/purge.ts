// Run with --expose-gc: fills a page cache with 100,000 entries (half pages, half their data routes) through real
// requests, then times purges of 100 pathnames and, for scale, the spec's literal scan; prints one JSON line.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { createPageCache, purgeMatches } from '@sitestack/page-cache';
import { timeCalls } from '../lib.js';

const ENTRIES = 100_000;
const PATHNAMES = 100;
const ROUNDS = 50;
const WARMUP_ROUNDS = 20;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const cache = createPageCache({ maxEntries: ENTRIES });
const body = Buffer.alloc(64, 'x');
const server = createServer((req, res) => cache.handle(req, res, () => res.end(body)));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const pathFor = (i: number) => (i % 2 === 0 ? `/plog/post-${i >> 1}` : `/_render/data/b1/en-US/plog/post-${i >> 1}.json`);
let counter = 0;
await autocannon({
  url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  connections: 16,
  pipelining: 8,
  amount: ENTRIES,
  requests: [{ method: 'GET', setupRequest: (request: autocannon.Request) => ({ ...request, path: pathFor(counter++) }) }],
});
server.closeAllConnections();
server.close();
if (cache.size !== ENTRIES) throw new Error(`expected ${ENTRIES} entries, got ${cache.size}`);

const pathnamesOf = (round: number) => Array.from({ length: PATHNAMES }, (_, i) => `/plog/post-${round * PATHNAMES + i}`);
let removed = 0;
gc();
for (let round = 0; round < WARMUP_ROUNDS; round++) cache.purge(pathnamesOf(round));
const timing = timeCalls(ROUNDS, (round) => {
  removed += cache.purge(pathnamesOf(WARMUP_ROUNDS + round)).length;
});

const keys = Array.from({ length: ENTRIES }, (_, i) => pathFor(i));
const rules = { dataRoutePrefix: '/_render/data/', purgeQueryVariants: false };
const scan = timeCalls(3, (round) => {
  let matched = 0;
  for (const pathname of pathnamesOf(round)) for (const key of keys) if (purgeMatches(key, pathname, rules)) matched++;
  if (matched !== 2 * PATHNAMES) throw new Error(`literal scan matched ${matched}`);
});
console.log(JSON.stringify({ p50Ms: timing.p50, p99Ms: timing.p99, meanMs: timing.mean, removedPerPurge: removed / ROUNDS, scanMs: scan.mean, rounds: ROUNDS }));
