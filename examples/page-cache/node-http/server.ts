// The page cache before a plain node:http handler: `PORT=3000 PURGE_SECRET=s node --import tsx server.ts`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPageCache, createStatsHandler } from '@sitestack/page-cache';

const cache = createPageCache({ purgeSecret: process.env.PURGE_SECRET });
const stats = createStatsHandler(cache, { secret: process.env.PURGE_SECRET });
let renders = 0;

const server = createServer((req, res) => {
  if (req.url === '/__cache__/stats') return stats(req, res);
  cache.handle(req, res, () => {
    renders += 1;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'surrogate-key': 'page' });
    res.end(`<!doctype html><title>node:http</title><p>render ${renders} of ${req.url}</p>`);
  });
});
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
