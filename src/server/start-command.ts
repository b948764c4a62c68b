import cluster from 'node:cluster';
import type { Command } from './command.js';
import { ensureDataDir } from './data-dir.js';
import { probeListen } from './listen-probe.js';
import type { StopOptions } from './drain.js';
import { parseWorkers, prepareWorkers, startFrontProcess, startFront } from './front-command.js';
import { runFrontWorkers } from './front-workers.js';
import { buildFirstIndex, startOrigin } from './origin-command.js';
import { withSharedSecrets } from './secrets.js';
import { waitForShutdown } from './shutdown.js';

const usage = 'sitestack start [--workers N]';

export const startCommand: Command = {
  name: 'start',
  summary: 'build what is needed (client bundle, first search index) and run the origin and the front; prints their URLs',
  usage,
  async run({ args, config: given, logger, out }) {
    const workers = parseWorkers(args, usage);
    ensureDataDir(given.dataDir);
    if (cluster.isPrimary) {
      // Both addresses tried before the origin opens its stores: one line, and nothing half started, when one is taken.
      await probeListen(given.host, given.originPort, 'ORIGIN_PORT');
      await probeListen(given.host, given.port, 'PORT');
    }
    // The secrets of DATA_DIR/secrets.json unless set: the same as a separately run origin, front and edge would use,
    // and the same after a restart, so purges the outbox still holds reach the front.
    const config = withSharedSecrets(given, logger);
    const { purgeSecret } = config;
    if (cluster.isWorker) {
      // A front worker of `start --workers N`: the primary runs the origin; the purge secret comes as theirs does. Listening
      // from the start, so the primary's stop reaches a worker that still starts.
      const stopRequested = waitForShutdown(logger);
      const front = await startFrontProcess({ config, logger });
      await front.close(await stopRequested);
      return 0;
    }
    const origin = await startOrigin({ config, logger });
    await buildFirstIndex(config, origin.url, logger);
    // Not before: a Ctrl+C during the first content build and index run still ends the process at once. From here on a
    // stop drains the front (and its workers) and then the origin.
    const stopRequested = waitForShutdown(logger);
    let stopFront: (options: StopOptions) => Promise<void>;
    let frontUrl: string;
    try {
      if (workers > 1) {
        await prepareWorkers(config, logger);
        const fleet = runFrontWorkers({ workers, logger, env: { PURGE_SECRET: purgeSecret }, shutdownTimeoutMs: config.shutdownTimeoutMs, drainDelayMs: config.drainDelayMs });
        await fleet.ready.catch(async (error: unknown) => {
          await fleet.stop();
          throw error;
        });
        frontUrl = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port} (${workers} worker processes)`;
        stopFront = (options) => fleet.stop(options);
      } else {
        const front = await startFront({ config, logger });
        frontUrl = front.url;
        stopFront = (options) => front.close(options);
      }
    } catch (error) {
      await origin.close();
      throw error;
    }
    out.write(`sitestack is running\n  front   ${frontUrl}/\n  origin  ${origin.url}/api/v1/plog/\nPress Ctrl+C to stop.\n`);
    const shutdown = await stopRequested;
    // Both unready at once, so the drain delay is waited once, not once per server.
    origin.readiness.draining();
    // The front first: its renders in flight still read from the origin.
    await stopFront(shutdown);
    await origin.close(shutdown);
    return 0;
  },
};
