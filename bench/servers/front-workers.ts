// The front (`startFrontProcess`, as `sitestack front --workers N` runs it) in argv[3] worker processes against the
// origin given as argv[2]; prints `listening <url>`. With 1 the primary still forks one worker, so both figures pay
// the same cluster plumbing and differ only in the number of workers.
import cluster from 'node:cluster';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { prepareWorkers, startFrontProcess } from '../../src/server/front-command.js';
import { runFrontWorkers } from '../../src/server/front-workers.js';

const [apiBase, workers = '1'] = process.argv.slice(2);
if (apiBase === undefined) throw new Error('usage: front-workers.ts <origin url> <workers>');
const logger = silentLogger();

if (cluster.isPrimary) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-bench-workers-'));
  await prepareWorkers(loadConfig({ DATA_DIR: dataDir, API_BASE: apiBase }), logger);
  let port = 0;
  cluster.on('listening', (_worker, address: AddressInfo) => (port = address.port));
  const fleet = runFrontWorkers({ workers: Number(workers), logger, env: { DATA_DIR: dataDir } });
  await fleet.ready;
  console.log(`listening http://127.0.0.1:${port}`);
  process.once('SIGTERM', () => {
    void fleet.stop().then(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
} else {
  const front = await startFrontProcess({ config: loadConfig({ DATA_DIR: process.env['DATA_DIR'], API_BASE: apiBase }), logger, port: 0 });
  process.once('SIGTERM', () => void front.close().then(() => process.exit(0)));
}
