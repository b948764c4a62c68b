// `sitestack proxy` (startProxy, as the command runs it) before the upstream given as argv[2], holding at most argv[3]
// entries (1000), passing by the prefixes of argv[4] (PROXY_BYPASS's default); prints `listening <url>`.
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { startProxy } from '../../src/server/proxy-command.js';

const upstream = process.argv[2];
if (upstream === undefined) throw new Error('usage: proxy.ts <upstream url> [max entries]');
const bypass = process.argv[4];
const config = loadConfig({
  UPSTREAM_URL: upstream,
  CACHE_MAX_ENTRIES: process.argv[3] ?? '1000',
  PURGE_SECRET: 'bench-proxy-secret-0123',
  LOG_REQUESTS: 'off',
  ...(bypass === undefined ? {} : { PROXY_BYPASS: bypass }),
});
const proxy = await startProxy({ config, logger: silentLogger(), port: 0 });
console.log(`listening ${proxy.url}`);
process.once('SIGTERM', () => {
  void proxy.close({ force: AbortSignal.abort() }).then(() => process.exit(0));
});
