// The content origin alone, over a fresh temporary DATA_DIR with the demo content; prints `listening <url>`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { startOrigin } from '../../src/server/origin-command.js';

const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-bench-origin-'));
const origin = await startOrigin({ config: loadConfig({ DATA_DIR: dataDir, }), logger: silentLogger(), port: 0 });
console.log(`listening ${origin.url}`);
process.once('SIGTERM', () => {
  void origin.close().then(() => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
