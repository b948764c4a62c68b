// The front (page cache + renderer) against the origin given as the first argument; prints `listening <url>`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { startFront } from '../../src/server/front-command.js';

const apiBase = process.argv[2];
if (apiBase === undefined) throw new Error('usage: front.ts <origin url>');
const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-bench-front-'));
const front = await startFront({ config: loadConfig({ DATA_DIR: dataDir, API_BASE: apiBase }), logger: silentLogger(), port: 0 });
console.log(`listening ${front.url}`);
process.once('SIGTERM', () => {
  void front.close().then(() => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
