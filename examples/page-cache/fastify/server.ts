// The page cache before a Fastify app, through Fastify's serverFactory, so that a hit never enters Fastify at all:
// `PORT=3000 PURGE_SECRET=s node --import tsx server.ts`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify from 'fastify';
import { createPageCache } from '@sitestack/page-cache';

const cache = createPageCache({ purgeSecret: process.env.PURGE_SECRET });
let renders = 0;

const app = Fastify({
  serverFactory: (fastifyHandler) =>
    createServer((req: IncomingMessage, res: ServerResponse) => cache.handle(req, res, () => fastifyHandler(req, res))),
});
app.get('/*', async (request, reply) => {
  renders += 1;
  reply.header('surrogate-key', 'page').type('text/html; charset=utf-8');
  return `<!doctype html><title>Fastify</title><p>render ${renders} of ${request.url}</p>`;
});

const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' });
console.log(`listening on ${address}`);
