// A front of argv[2] worker processes (node:cluster, `runFrontWorkers`), each with its own page cache (purge fan-out
// wired) in front of the static renderer. With 1 the primary still forks one worker, so both figures pay the same
// cluster plumbing and differ only in worker count.
import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '../../src/log.js';
import { createPageCache } from '../../src/page-cache/index.js';
import { runFrontWorkers } from '../../src/server/front-workers.js';
import { WorkerPurgeFanout } from '../../src/server/purge-fanout.js';
import { listen } from './listen.js';
import { renderer } from './renderer.js';

if (cluster.isPrimary) {
  let port = 0;
  cluster.on('listening', (_worker, address: AddressInfo) => (port = address.port));
  const front = runFrontWorkers({ workers: Number(process.argv[2] ?? 1), logger: silentLogger() });
  await front.ready;
  console.log(`listening http://127.0.0.1:${port}`);
  process.once('SIGTERM', () => void front.stop().then(() => process.exit(0)));
} else {
  const render = renderer('static');
  const fanout = new WorkerPurgeFanout({ purgeLocal: (pathnames) => cache.purge(pathnames) });
  const cache = createPageCache({ purgeSecret: 'bench', distributePurge: async (pathnames) => (await fanout.purgeEverywhere(pathnames)).purged });
  listen((req, res) => cache.handle(req, res, () => render(req, res)));
}
