// Run with --expose-gc: fills a page cache with distinct ~30 KB pages through real HTTP requests and prints, as one JSON
// line, the memory held per entry (heap plus external memory, after full collections, its br and gzip encodings
// included) and the identity page size.
import { createServer, get, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPageCache } from '@sitestack/page-cache';
import { PAGE_BYTES, PAGE_HEADERS } from './page.js';

const ENTRIES = Number(process.argv[2] ?? 2000);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const template = PAGE_BYTES.toString('utf8');
const cache = createPageCache({ maxEntries: ENTRIES });
const server = createServer((req, res) =>
  cache.handle(req, res, () => {
    res.writeHead(200, PAGE_HEADERS);
    // Every page distinct, built per request like a render.
    res.end(template.replace('data-url="/"', `data-url="${req.url ?? ''}"`));
  }),
);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

function fetchPath(path: string, acceptEncoding?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (res) => {
      let length = 0;
      res.on('data', (chunk: Buffer) => (length += chunk.length));
      res.on('end', () => resolve(length));
    }).on('error', reject);
  });
}

async function run(paths: string[], acceptEncoding?: string): Promise<number> {
  let length = 0;
  for (let i = 0; i < paths.length; i += 8) length = (await Promise.all(paths.slice(i, i + 8).map((path) => fetchPath(path, acceptEncoding))))[0] ?? length;
  return length;
}

function held(): number {
  for (let i = 0; i < 4; i++) gc!();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

// Warm the server, the client and the render path with requests that are not stored.
await run(Array.from({ length: 500 }, (_, i) => `/_render/static/${i}`));
const before = held();
// Each page rendered for a brotli client (its br encoding kept from the render), then asked for by a gzip client (its
// gzip encoding made and kept on that hit): every entry holds all three bodies.
const paths = Array.from({ length: ENTRIES }, (_, i) => `/p${i}`);
await run(paths, 'br');
await run(paths, 'gzip');
const bodyBytes = await run(paths.slice(0, 1));
const after = held();
if (cache.size !== ENTRIES) throw new Error(`expected ${ENTRIES} entries, got ${cache.size}`);
console.log(JSON.stringify({ entries: ENTRIES, bodyBytes, perEntryBytes: (after - before) / ENTRIES, statsBytes: cache.stats().bytes }));
agent.destroy();
server.close();
