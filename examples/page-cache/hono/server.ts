// The page cache before a Hono app on Node, through the adapter's request listener:
// `PORT=3000 PURGE_SECRET=s node --import tsx server.ts`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { createPageCache } from '@sitestack/page-cache';

const cache = createPageCache({ purgeSecret: process.env.PURGE_SECRET });
const app = new Hono();
let renders = 0;

app.get('*', (c) => {
  renders += 1;
  c.header('surrogate-key', 'page');
  return c.html(`<!doctype html><title>Hono</title><p>render ${renders} of ${c.req.path}</p>`);
});

const listener = getRequestListener(app.fetch);
const server = createServer((req, res) => cache.handle(req, res, () => void listener(req, res)));
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
