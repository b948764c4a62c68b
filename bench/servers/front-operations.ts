// The front against the origin given as the first argument, with the request observer (metrics and request log) on
// or off: `front-operations.ts <origin url> off|errors|sampled|all|metrics-only`. Log lines go to /dev/null through a
// synchronous pino destination, as they cost on stderr. `/__cache__/stats` answers to `Bearer bench`. Prints `listening <url>`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { startFront } from '../../src/server/front-command.js';

const [apiBase, mode = 'off'] = process.argv.slice(2);
if (apiBase === undefined) throw new Error('usage: front-operations.ts <origin url> off|errors|sampled|all|metrics-only');
const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-bench-front-ops-'));
const logRequests = mode === 'metrics-only' || mode === 'off' ? 'off' : mode;
const config = loadConfig({ DATA_DIR: dataDir, API_BASE: apiBase, LOG_REQUESTS: logRequests, PURGE_SECRET: 'bench' });
const logger = pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: true }));
const front = await startFront({ config, logger, port: 0, observeRequests: mode !== 'off' });
console.log(`listening ${front.url}`);
process.once('SIGTERM', () => {
  void front.close().then(() => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
