import cluster from 'node:cluster';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { prepareWorkers, startFrontProcess } from '../../src/server/front-command.js';
import { runFrontWorkers } from '../../src/server/front-workers.js';

/**
 * Runs the front as `sitestack front --workers N` does (a primary forking `workers` processes of
 * `startFrontProcess`), configured by `envOf(<fresh data dir>)`, and prints `listening <url>` once every worker
 * listens. With 1 the primary still forks one worker, so figures for 1 and N workers pay the same cluster plumbing.
 */
export async function serveFrontFleet(workers: number, envOf: (dataDir: string) => Record<string, string>): Promise<void> {
  const logger = silentLogger();
  if (!cluster.isPrimary) {
    const front = await startFrontProcess({ config: loadConfig(envOf(process.env['BENCH_DATA_DIR'] ?? '')), logger, port: 0 });
    process.once('SIGTERM', () => void front.close().then(() => process.exit(0)));
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-bench-front-fleet-'));
  await prepareWorkers(loadConfig(envOf(dataDir)), logger);
  let port = 0;
  cluster.on('listening', (_worker, address: AddressInfo) => (port = address.port));
  const fleet = runFrontWorkers({ workers, logger, env: { BENCH_DATA_DIR: dataDir } });
  await fleet.ready;
  console.log(`listening http://127.0.0.1:${port}`);
  process.once('SIGTERM', () => {
    void fleet.stop().then(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}
