// The real front (`startFrontProcess`, as `sitestack front --workers N` runs it) serving `/api/v1/search` over an
// existing search database: `search-api.ts <search.sqlite> <alias> <workers>`; prints `listening <url>`. The search
// rate limit is raised so the load generator's one address is not turned away. With 1 the primary still forks one
// worker, so the figures for 1 and N workers pay the same cluster plumbing and differ only in the number of workers.
import cluster from 'node:cluster';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { prepareWorkers, startFrontProcess } from '../../src/server/front-command.js';
import { runFrontWorkers } from '../../src/server/front-workers.js';

const [file, alias, workers = '1'] = process.argv.slice(2);
if (file === undefined || alias === undefined) throw new Error('usage: search-api.ts <search.sqlite> <alias> <workers>');
const logger = silentLogger();
const env = (dataDir: string) => ({
  DATA_DIR: dataDir,
  // Nothing renders pages in this bench: the origin is never called.
  API_BASE: 'http://127.0.0.1:9',
  SEARCH_URL: `sqlite:${file}`,
  SEARCH_PREFIX: alias,
  SEARCH_RATE_LIMIT: '1000000000/minute',
});

if (cluster.isPrimary) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-bench-search-front-'));
  await prepareWorkers(loadConfig(env(dataDir)), logger);
  let port = 0;
  cluster.on('listening', (_worker, address: AddressInfo) => (port = address.port));
  const fleet = runFrontWorkers({ workers: Number(workers), logger, env: { BENCH_DATA_DIR: dataDir } });
  await fleet.ready;
  console.log(`listening http://127.0.0.1:${port}`);
  process.once('SIGTERM', () => {
    void fleet.stop().then(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
} else {
  const front = await startFrontProcess({ config: loadConfig(env(process.env['BENCH_DATA_DIR'] ?? '')), logger, port: 0 });
  process.once('SIGTERM', () => void front.close().then(() => process.exit(0)));
}
