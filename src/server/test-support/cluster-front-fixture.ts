/**
 * A small front for the tests of the cluster primary itself (relay, worker restart), quicker to start than the real
 * one (`test/scale.test.ts` runs `sitestack front --workers 2`): each worker puts its own page cache
 * (`createPageCache`, with the purge route and the purge fan-out) in front of a renderer that answers
 * `<path> <content of the content file>`, and marks every answer with `x-worker` (its cluster id) and `x-worker-pid`.
 * Run: `node --import tsx <this file> <content file> <secret>`; the primary prints `listening <port>` once every worker
 * listens.
 */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '../../log.js';
import { createPageCache } from '@sitestack/page-cache';
import { drainServer } from '../drain.js';
import { runFrontWorkers } from '../front-workers.js';
import { WorkerPurgeFanout } from '../purge-fanout.js';
import { waitForShutdown } from '../shutdown.js';

const [contentFile = '', secret = ''] = process.argv.slice(2);

if (cluster.isPrimary) {
  let port = 0;
  cluster.on('listening', (_worker, address: AddressInfo) => (port = address.port));
  const front = runFrontWorkers({ workers: 2, logger: silentLogger(), restartDelayMs: 50 });
  await front.ready;
  process.stdout.write(`listening ${port}\n`);
  process.once('SIGTERM', () => void front.stop().then(() => process.exit(0)));
} else {
  const workerId = String(cluster.worker?.id ?? 0);
  // Relayed purges arrive only once the server listens, after pageCache exists.
  const fanout = new WorkerPurgeFanout({ purgeLocal: (request) => pageCache.purge(request) });
  const pageCache = createPageCache({
    purgeSecret: secret,
    distributePurge: async (request) => (await fanout.purgeEverywhere(request)).purged,
  });
  const server = createServer((req, res) => {
    res.setHeader('x-worker', workerId);
    res.setHeader('x-worker-pid', String(process.pid));
    pageCache.handle(req, res, () => {
      const path = new URL(req.url ?? '/', 'http://front').pathname;
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'public,max-age=86400' });
      res.end(`${path} ${readFileSync(contentFile, 'utf8')}`);
    });
  });
  server.listen(0, '127.0.0.1');
  const logger = silentLogger();
  void waitForShutdown(logger)
    .then(({ force }) => drainServer(server, { logger, force }))
    .then(() => process.exit(0));
}
