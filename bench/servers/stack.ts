// Origin (with its purge and search outboxes) and front in one process, as `sitestack start` runs them, over the
// DATA_DIR and ports of the environment; prints `listening <front url> <origin url>` once the first index is live.
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { ensureSearchIndex } from '../../src/search/index.js';
import { startFront } from '../../src/server/front-command.js';
import { startOrigin } from '../../src/server/origin-command.js';

const config = loadConfig();
const logger = createLogger(config.logLevel);
const origin = await startOrigin({ config, logger, port: config.originPort });
await ensureSearchIndex({ config: { ...config, apiBase: origin.url }, logger });
const front = await startFront({ config: { ...config, apiBase: origin.url }, logger });
console.log(`listening ${front.url} ${origin.url}`);
process.once('SIGTERM', () => {
  void front
    .close()
    .then(() => origin.close())
    .then(() => process.exit(0));
});
