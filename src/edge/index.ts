export {
  renderNginxConfig,
  edgePaths,
  EDGE_CACHE_SETTINGS,
  DEFAULTS as EDGE_CONFIG_DEFAULTS,
  type EdgeConfigOptions,
  type EdgePaths,
} from './nginx-config.js';
export { formatHostPort, type HostPort } from './host-port.js';
export {
  findNginx,
  requireNginx,
  workerUser,
  writeEdgeConfig,
  checkNginxConfig,
  spawnNginx,
  waitUntilListening,
  NGINX_INSTALL_HINT,
  SPAWN_DEFAULTS,
  type NginxProcess,
  type SpawnNginxOptions,
} from './nginx-process.js';
export { purgeCdn, resolvePurgeUrl, CdnPurgeError, DEFAULTS as PURGE_CDN_DEFAULTS, type PurgeCdnOptions, type CdnPurgeFailure } from './purge-client.js';
