import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { ensureSearchIndex } from '../../src/search/index.js';
import { startFront, type RunningFront } from '../../src/server/front-command.js';
import { startOrigin, type RunningOrigin } from '../../src/server/origin-command.js';
import { ADMIN_TOKEN, freePort, PURGE_SECRET } from './stack.js';

/** The demo site as a reader meets it: origin with its demo posts, the first search index, and the front. */
export interface ReaderStack {
  config: Config;
  origin: RunningOrigin;
  front: RunningFront;
  frontUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the origin (seeded with the demo content), builds the search index from it as `sitestack start` does, and
 * starts the front, over a fresh DATA_DIR; `env` adds to the environment the configuration is read from (a rate
 * limit, the site's identity).
 */
export async function startReaderStack(env: Record<string, string> = {}): Promise<ReaderStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-reader-'));
  const base = loadConfig({
    DATA_DIR: dataDir,
    ORIGIN_ADMIN_TOKEN: ADMIN_TOKEN,
    PURGE_SECRET,
    PORT: String(await freePort()),
    LOG_LEVEL: 'silent',
    SEARCH_RATE_LIMIT: '1000/minute',
    ...env,
  });
  const logger = silentLogger();
  const origin = await startOrigin({ config: base, logger, port: 0, backoff: { baseMs: 50, maxMs: 300 } });
  const config: Config = { ...base, apiBase: origin.url };
  try {
    await ensureSearchIndex({ config, logger });
    const front = await startFront({ config, logger });
    return {
      config,
      origin,
      front,
      frontUrl: front.url,
      async close() {
        await front.close();
        await origin.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await origin.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
