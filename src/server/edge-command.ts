import { userInfo } from 'node:os';
import { join } from 'node:path';
import { ERRORS } from '../error-codes.js';
import {
  checkNginxConfig,
  edgePaths,
  formatHostPort,
  requireNginx,
  spawnNginx,
  waitUntilListening,
  workerUser,
  writeEdgeConfig,
  type EdgeConfigOptions,
} from '../edge/index.js';
import type { Command, CommandContext } from './command.js';
import { ensureDataDir } from './data-dir.js';
import { probeListen } from './listen-probe.js';
import { withSharedSecrets } from './secrets.js';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** The host the origin's refreshes name (CDN_BASE_URL's), else the public one: the only host whose copies are kept. */
function publicHost(url: string | undefined): { publicHost?: string } {
  return url === undefined ? {} : { publicHost: new URL(url).host };
}

function edgeOptions({ config }: CommandContext, accessLog: boolean): EdgeConfigOptions {
  return {
    edgeDir: join(config.dataDir, 'edge'),
    listen: { host: config.host, port: config.edgePort },
    upstreams: config.edgeUpstreams.map((origin) => {
      const url = new URL(origin);
      return { host: url.hostname, port: url.port === '' ? 80 : Number(url.port) };
    }),
    user: workerUser(process.getuid?.(), userInfo().username),
    accessLog,
    ...(config.edgeRefreshSecret === undefined ? {} : { refreshSecret: config.edgeRefreshSecret }),
    ...publicHost(config.cdnBaseUrl ?? config.publicUrl),
  };
}

/** `sitestack edge`: writes the nginx config under DATA_DIR/edge, checks it with `nginx -t` and runs nginx in the foreground. */
export const edgeCommand: Command = {
  name: 'edge',
  summary: 'run the nginx edge cache (a local CDN) on EDGE_PORT in front of the front',
  usage: [
    'sitestack edge [--check] [--access-log]',
    '',
    '  --check       write DATA_DIR/edge/nginx.conf, check it with `nginx -t` and exit',
    '  --access-log  also log every request with its cache status to DATA_DIR/edge/access.log',
    '',
    'Environment: HOST, EDGE_PORT (listen address), EDGE_UPSTREAM (the fronts, default http://HOST:PORT),',
    'DATA_DIR (nginx files go to DATA_DIR/edge), NGINX_BIN (default nginx, also looked for in /usr/sbin),',
    'EDGE_REFRESH_SECRET (the secret-header value that refreshes a URL; written into nginx.conf, mode 0600),',
    'CDN_BASE_URL, else PUBLIC_URL (their host is the only one whose copies are kept: the one refreshes name).',
    'nginx runs in the foreground. SIGINT or SIGTERM stops it gracefully (SIGQUIT: requests in flight are answered),',
    'at once after SHUTDOWN_TIMEOUT_MS or on a second signal (SIGTERM); sitestack exits with its status.',
  ].join('\n'),
  async run(context) {
    const { args, logger, out } = context;
    const unknown = args.filter((arg) => arg !== '--check' && arg !== '--access-log');
    if (unknown.length > 0) throw ERRORS.USAGE(`unknown option '${unknown[0]}'`, 'sitestack edge [--check] [--access-log]');
    ensureDataDir(context.config.dataDir);
    // nginx's own failure on a port in use or a HOST that does not resolve is several lines, and retries: one from here.
    if (!args.includes('--check')) await probeListen(context.config.host, context.config.edgePort, 'EDGE_PORT');
    // EDGE_REFRESH_SECRET, when unset, is the one the origin's edge purges send: DATA_DIR/secrets.json.
    const config = withSharedSecrets(context.config, logger);

    const options = edgeOptions({ ...context, config }, args.includes('--access-log'));
    const configFile = writeEdgeConfig(options);
    const nginx = requireNginx(config.nginxBin, process.env.PATH);
    await checkNginxConfig(nginx, options.edgeDir, configFile);
    if (args.includes('--check')) {
      out.write(`nginx config OK: ${configFile}\n`);
      return 0;
    }

    const running = spawnNginx(nginx, options.edgeDir, configFile);
    // nginx's own graceful stop is SIGQUIT (no new connections, requests in flight answered, idle ones closed); its
    // SIGTERM stops at once, which bounds the drain.
    let drainTimer: NodeJS.Timeout | undefined;
    const forward = (signal: NodeJS.Signals) => {
      if (drainTimer !== undefined) {
        logger.warn({ signal }, 'second stop request: stopping nginx at once');
        running.child.kill('SIGTERM');
        return;
      }
      logger.info({ signal }, 'shutting down: nginx finishes the requests in flight');
      running.child.kill('SIGQUIT');
      drainTimer = setTimeout(() => {
        logger.warn({ timeoutMs: config.shutdownTimeoutMs }, 'drain time over: stopping nginx at once');
        running.child.kill('SIGTERM');
      }, config.shutdownTimeoutMs);
    };
    for (const signal of STOP_SIGNALS) process.on(signal, forward);
    try {
      const address = `http://${formatHostPort(options.listen)}`;
      await waitUntilListening(running, edgePaths(options.edgeDir).pid).then(
        () => {
          logger.info({ nginx, configFile, upstreams: config.edgeUpstreams }, 'edge started');
          out.write(`edge listening on ${address} → ${config.edgeUpstreams.join(', ')} (nginx config ${configFile})\n`);
        },
        (error: unknown) => logger.error({ err: error }, 'edge did not start'),
      );
      const status = await running.exited;
      logger.info({ status }, 'edge stopped');
      return status;
    } finally {
      clearTimeout(drainTimer);
      for (const signal of STOP_SIGNALS) process.off(signal, forward);
    }
  },
};
