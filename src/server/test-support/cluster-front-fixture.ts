/**
 * A minimal front for the cluster tests, until the real front is wired to workers: each worker keeps its own page
 * store (a Map, as each real worker keeps its own page cache), renders `<path> <content of the content file>` on a
 * miss, and answers POST /__purge__ through the purge fan-out. Run: `node --import tsx <this file> <content file> <secret>`.
 * The primary prints `listening <port>` once every worker listens.
 */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '../../log.js';
import { runFrontWorkers } from '../front-workers.js';
import { WorkerPurgeFanout } from '../purge-fanout.js';

const [contentFile = '', secret = ''] = process.argv.slice(2);

if (cluster.isPrimary) {
  let port = 0;
  cluster.on('listening', (_worker, address: AddressInfo) => (port = address.port));
  const front = runFrontWorkers({ workers: 2, logger: silentLogger(), restartDelayMs: 50 });
  await front.ready;
  process.stdout.write(`listening ${port}\n`);
  process.once('SIGTERM', () => void front.stop().then(() => process.exit(0)));
} else {
  const pages = new Map<string, string>();
  const fanout = new WorkerPurgeFanout({
    purgeLocal: (pathnames) => pathnames.filter((pathname) => pages.delete(pathname)),
  });
  const workerId = String(cluster.worker?.id ?? 0);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://front').pathname;
    if (req.method === 'POST' && path === '/__purge__') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.headers.authorization !== `Bearer ${secret}`) {
          res.writeHead(403).end('Forbidden');
          return;
        }
        const { pathnames } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { pathnames: string[] };
        void fanout.purgeEverywhere(pathnames).then((result) => {
          res.writeHead(200, { 'content-type': 'application/json', 'x-worker': workerId }).end(JSON.stringify({ purged: result.purged }));
        });
      });
      return;
    }
    const cached = pages.get(path);
    const body = cached ?? `${path} ${readFileSync(contentFile, 'utf8')}`;
    if (cached === undefined) pages.set(path, body);
    res.writeHead(200, { 'x-cache': cached === undefined ? 'miss' : 'hit', 'x-worker': workerId, 'x-worker-pid': String(process.pid) }).end(body);
  });
  server.listen(0, '127.0.0.1');
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}
