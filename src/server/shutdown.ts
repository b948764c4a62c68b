import type { Logger } from '../log.js';

/** Resolves on the first SIGINT or SIGTERM, so a long-running command can close its servers and exit 0. */
export function waitForShutdown(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      logger.info({ signal }, 'shutting down');
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
