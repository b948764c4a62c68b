import { posix } from 'node:path';
import { AppError } from '../errors.js';

/** An address nginx listens on or proxies to. `host` is a name, an IPv4 address or an IPv6 address (with or without brackets). */
export interface HostPort {
  host: string;
  port: number;
}

/** The edge cache settings fixed by the specification (page-cache.md §4, "Edge proxy cache"). Not configurable. */
export const EDGE_CACHE_SETTINGS = {
  /** Cache zone name, shared by `proxy_cache_path` and `proxy_cache`. */
  zone: 'sitestack_edge',
  keysZoneSize: '10m',
  levels: '1:2',
  maxSize: '1g',
  inactive: '24h',
  /** Only status 200 is cached by default, for one hour. */
  validStatus: 200,
  valid: '1h',
  /** Any non-empty value other than `0` in this request header makes nginx skip the cache and refresh it. */
  bypassHeader: 'secret-header',
  cacheStatusHeader: 'X-Cache',
  forwardedHostHeader: 'x-forwarded-host',
} as const;

/** What `renderNginxConfig` needs; everything else is fixed by the spec or chosen for a proxy cache. */
export interface EdgeConfigOptions {
  /** Absolute directory holding every nginx file: the prefix, pid, lock, temp directories and the cache. */
  edgeDir: string;
  /** Where nginx listens (`HOST`, `EDGE_PORT`). */
  listen: HostPort;
  /** The fronts nginx forwards to; several are balanced round-robin. */
  upstreams: readonly HostPort[];
  /**
   * The user nginx's worker processes run as. Only meaningful when nginx starts as root (nginx then drops its workers
   * to `nobody`, which cannot write a cache directory under a root-owned DATA_DIR); omit it otherwise.
   * @default undefined (no `user` directive)
   */
  user?: string;
  /**
   * Write an access log with the cache status of every request to `<edgeDir>/access.log`.
   * @default false
   */
  accessLog?: boolean;
  /**
   * nginx worker processes.
   * @default 'auto' (one per core)
   */
  workerProcesses?: number | 'auto';
  /**
   * Idle keep-alive connections each worker keeps open to the upstreams.
   * @default 32
   */
  upstreamKeepalive?: number;
}

export const DEFAULTS = {
  accessLog: false,
  workerProcesses: 'auto',
  upstreamKeepalive: 32,
} as const satisfies Partial<EdgeConfigOptions>;

/** The files of an edge directory, all absolute. */
export interface EdgePaths {
  config: string;
  pid: string;
  lock: string;
  cache: string;
  temp: string;
  accessLog: string;
}

export function edgePaths(edgeDir: string): EdgePaths {
  return {
    config: posix.join(edgeDir, 'nginx.conf'),
    pid: posix.join(edgeDir, 'nginx.pid'),
    lock: posix.join(edgeDir, 'nginx.lock'),
    cache: posix.join(edgeDir, 'cache'),
    temp: posix.join(edgeDir, 'temp'),
    accessLog: posix.join(edgeDir, 'access.log'),
  };
}

/** The temp directories nginx needs for its modules; each would otherwise default to a root-only system path. */
export const TEMP_KINDS = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'] as const;

function invalid(message: string): AppError {
  return new AppError('EDGE_CONFIG_INVALID', message, 500);
}

/**
 * A path as an nginx string. `$` would start a variable in directives that take them and control characters cannot be
 * written at all, so both are refused rather than escaped.
 */
function quotePath(path: string): string {
  if (!posix.isAbsolute(path)) throw invalid(`expected an absolute path for the edge files, got '${path}'`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f$]/.test(path)) {
    throw invalid(`the edge directory '${path}' contains '$' or a control character, which nginx cannot take in a path`);
  }
  return `"${path.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
const IPV6 = /^[0-9a-f:.]+(?:%[a-z0-9]+)?$/i;

/** `host:port` as nginx writes it (IPv6 in brackets), refusing anything that is not a plain host name or address. */
export function formatHostPort({ host, port }: HostPort): string {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw invalid(`expected a port from 1 to 65535, got '${port}'`);
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.includes(':')) {
    if (!IPV6.test(bare)) throw invalid(`expected a host name or an IP address, got '${host}'`);
    return `[${bare}]:${port}`;
  }
  if (!HOSTNAME.test(bare)) throw invalid(`expected a host name or an IP address, got '${host}'`);
  return `${bare}:${port}`;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw invalid(`expected ${name} to be a positive integer, got '${value}'`);
  return value;
}

/**
 * Renders the nginx.conf of `sitestack edge`: a caching reverse proxy with the spec's settings in front of the fronts.
 * Pure: no file is read or written. Choices where the spec is silent are explained beside the directives.
 */
export function renderNginxConfig(options: EdgeConfigOptions): string {
  const settings = EDGE_CACHE_SETTINGS;
  const paths = edgePaths(options.edgeDir);
  const workerProcesses = options.workerProcesses ?? DEFAULTS.workerProcesses;
  const keepalive = positiveInteger('upstreamKeepalive', options.upstreamKeepalive ?? DEFAULTS.upstreamKeepalive);
  if (options.upstreams.length === 0) throw invalid('expected at least one upstream for the edge');
  if (options.user !== undefined && !/^[a-z_][a-z0-9_.-]*\$?$/i.test(options.user)) {
    throw invalid(`expected a user name, got '${options.user}'`);
  }
  const bypass = `$http_${settings.bypassHeader.replace(/-/g, '_')}`;

  const lines = [
    '# Generated by `sitestack edge`; rewritten on every start. Edit src/edge/nginx-config.ts instead.',
    ...(options.user === undefined ? [] : [`user ${options.user};`]),
    'daemon off;',
    'master_process on;',
    `worker_processes ${workerProcesses === 'auto' ? 'auto' : positiveInteger('workerProcesses', workerProcesses)};`,
    'error_log stderr warn;',
    `pid ${quotePath(paths.pid)};`,
    `lock_file ${quotePath(paths.lock)};`,
    '',
    'events {',
    '  worker_connections 1024;',
    '}',
    '',
    'http {',
    '  server_tokens off;',
    '  # Cache hits are files: sendfile hands them to the socket without copying them through nginx.',
    '  sendfile on;',
    '  tcp_nopush on;',
    '  keepalive_requests 10000;',
    options.accessLog ?? DEFAULTS.accessLog
      ? [
          `  log_format sitestack_edge '$remote_addr [$time_local] "$request" $status $body_bytes_sent '`,
          `                            '$upstream_cache_status $request_time';`,
          `  access_log ${quotePath(paths.accessLog)} sitestack_edge buffer=64k flush=1s;`,
        ].join('\n')
      : '  access_log off;',
    ...TEMP_KINDS.map((kind) => `  ${kind}_temp_path ${quotePath(posix.join(paths.temp, kind))};`),
    '',
    `  proxy_cache_path ${quotePath(paths.cache)} levels=${settings.levels} keys_zone=${settings.zone}:${settings.keysZoneSize}`,
    `                   max_size=${settings.maxSize} inactive=${settings.inactive} use_temp_path=off;`,
    '',
    '  # The front renders absolute URLs from x-forwarded-host, so the requested host is part of the key: otherwise one',
    '  # host name (or a forged Host header) would fill the cache for every other.',
    '  proxy_cache_key $scheme://$http_host$request_uri;',
    '',
    '  # Never store what the upstream marks as per-visitor or uncacheable, even where its max-age is ignored below.',
    '  map $upstream_http_cache_control $sitestack_edge_no_store {',
    '    default 0;',
    '    "~*(^|[,\\s])(private|no-store|no-cache)($|[,\\s=])" 1;',
    '  }',
    '  # Status 200 only, also where the upstream Cache-Control would allow another status.',
    '  # $upstream_status lists every attempt ("502, 200" after a retry): the last one is the answer.',
    '  map $upstream_status $sitestack_edge_not_200 {',
    '    default 1;',
    `    "~(^|[ ,])${settings.validStatus}$" 0;`,
    '  }',
    '',
    `  upstream sitestack_front {`,
    ...options.upstreams.map((upstream) => `    server ${formatHostPort(upstream)};`),
    `    keepalive ${keepalive};`,
    '  }',
    '',
    '  server {',
    `    listen ${formatHostPort(options.listen)} default_server;`,
    '    server_name _;',
    '',
    `    add_header ${settings.cacheStatusHeader} $upstream_cache_status always;`,
    '',
    '    proxy_http_version 1.1;',
    '    proxy_set_header Connection "";',
    '    # nginx would send the upstream group\'s name as Host; the front gets a real address of its own instead (the',
    '    # first upstream\'s, the fronts being one app), and the host as the client asked for it, port included, in',
    '    # x-forwarded-host for its public URLs.',
    `    proxy_set_header Host ${formatHostPort(options.upstreams[0]!)};`,
    `    proxy_set_header ${settings.forwardedHostHeader} $http_host;`,
    '    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '    proxy_connect_timeout 5s;',
    '',
    `    proxy_cache ${settings.zone};`,
    '    # A request with credentials (such as the front\'s bearer-protected /__cache__/stats) is neither answered from',
    '    # the cache nor stored: its answer is for that caller only.',
    `    proxy_cache_bypass ${bypass} $http_authorization;`,
    '    proxy_no_cache $http_authorization $sitestack_edge_no_store $sitestack_edge_not_200;',
    '    # Concurrent misses of one key make one upstream request; the others wait for it.',
    '    proxy_cache_lock on;',
    '    proxy_cache_revalidate on;',
    '    # Like a CDN: an expired entry is served (X-Cache: STALE) while the upstream is failing. A bypass request never',
    '    # reads the cache, so it still answers 502 when the upstream is down.',
    '    proxy_cache_use_stale error timeout updating http_500 http_502 http_503 http_504;',
    '',
    '    location / {',
    '      # Pages: 200 kept for exactly the spec\'s hour, whatever max-age the renderer sends to browsers.',
    '      proxy_ignore_headers Cache-Control Expires X-Accel-Expires;',
    `      proxy_cache_valid ${settings.validStatus} ${settings.valid};`,
    '      proxy_pass http://sitestack_front;',
    '    }',
    '',
    '    location /api/ {',
    '      # No proxy_cache_valid: an API answer is kept only for as long as its own Cache-Control (or Expires) allows,',
    '      # so an answer without a public Cache-Control is never kept.',
    '      proxy_pass http://sitestack_front;',
    '    }',
    '  }',
    '}',
    '',
  ];
  return lines.join('\n');
}
