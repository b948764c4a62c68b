// A stand-in for the front's page-cache hit: one 30 KB HTML page held in memory, with the renderer's Cache-Control.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const paragraph = '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.</p>\n';
const page = Buffer.from(`<!doctype html><html><body>${paragraph.repeat(Math.ceil(30_000 / paragraph.length))}</body></html>`);

const server = createServer((_req, res) => {
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': page.length,
    'cache-control': 'public,max-age=86400',
    'x-middleware-cache': 'hit',
  });
  res.end(page);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
