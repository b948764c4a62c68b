import { randomBytes } from 'node:crypto';
import { ensureSearchIndex } from '../search/index.js';
import type { Command } from './command.js';
import { startFront } from './front-command.js';
import { startOrigin } from './origin-command.js';
import { waitForShutdown } from './shutdown.js';

export const startCommand: Command = {
  name: 'start',
  summary: 'Build what is needed (client bundle, first search index) and run the origin and the front; prints their URLs',
  usage: 'sitestack start',
  async run({ config, logger, out }) {
    // Without a configured secret, origin and front share one made up for this run, so local purges work.
    const purgeSecret = config.purgeSecret ?? randomBytes(24).toString('base64url');
    if (config.purgeSecret === undefined) logger.info('PURGE_SECRET is unset: origin and front share a random secret for this run');
    const origin = await startOrigin({ config, logger, purgeSecret });
    try {
      await ensureSearchIndex({ config, logger });
    } catch (error) {
      logger.error({ err: error }, 'the first search index could not be built; run sitestack content-build and sitestack index');
    }
    let front;
    try {
      front = await startFront({ config, logger, purgeSecret });
    } catch (error) {
      await origin.close();
      throw error;
    }
    out.write(`sitestack is running\n  front   ${front.url}/\n  origin  ${origin.url}/api/v1/plog/\nPress Ctrl+C to stop.\n`);
    await waitForShutdown(logger);
    await front.close();
    await origin.close();
    return 0;
  },
};
