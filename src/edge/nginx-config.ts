import { posix } from 'node:path';
import { ERRORS } from '../error-codes.js';
import { LOCALE_SEGMENT } from '../locale.js';
import { IMAGE_PREFIX } from '../origin/images/names.js';
import { CACHE_HEADER, DEFAULTS as PAGE_CACHE_DEFAULTS } from '@sitestack/page-cache';
import { publicHostLines, publicHttpLines, publicLocationLines, publicServerLines } from './nginx-public.js';
import { positiveInteger } from '../positive-integer.js';
import { formatHostPort, type HostPort } from './host-port.js';

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
  /**
   * Not in the spec: statuses a refresh stores in place of a page that is gone (for `goneValidSeconds`), so that
   * purging a deleted page stops serving it, and purging a renamed post's old address (its 301 to the new one, see
   * docs/desk.md) stops serving the old page. Ordinary requests never store them.
   */
  refreshedGoneStatuses: [301, 404, 410],
  /**
   * Not in the spec: the renderer's data routes (spec §4, "Renderer data route"; `DATA_PREFIX` of the renderer), which
   * the edge keeps only `dataRouteValidSeconds`, not the pages' hour.
   */
  dataRoutePrefix: PAGE_CACHE_DEFAULTS.dataRoutePrefix,
  /**
   * Not in the spec: uploaded images (`/_render/image/<hash>-<width>.<format>`), whose names change whenever their
   * bytes do, kept for `imageValid` (in practice until `inactive` drops an unread one), one copy per URL.
   */
  imagePrefix: IMAGE_PREFIX,
  imageValid: '365d',
  /**
   * Not in the spec: the path of the search page shell, `/<locale>/search` (the renderer's locale shape), kept as one
   * copy whatever its query.
   */
  searchShellPath: `/${LOCALE_SEGMENT}/search`,
  /**
   * This request header carrying the refresh secret (`refreshSecret`, `EDGE_REFRESH_SECRET`) makes nginx skip the cache
   * and refresh it; any other value is ignored. The spec lets any value do it, which hands every stranger a lever on
   * the cache and the fronts' load.
   */
  bypassHeader: 'secret-header',
  /**
   * Not in the spec: the content codings the edge keeps apart, best first. The fronts store and send pages in these;
   * each request is reduced to the first one it accepts, else identity (see `renderNginxConfig`).
   */
  codings: ['br', 'gzip'],
  cacheStatusHeader: 'X-Cache',
  /** Not in the spec: the header of the fronts' surrogate keys, kept from readers. */
  surrogateKeyHeader: 'Surrogate-Key',
  forwardedHostHeader: 'x-forwarded-host',
  /** Not in the spec: the fronts' page-cache status header, as the edge reads it. */
  frontCacheHeader: CACHE_HEADER,
  /**
   * Not in the spec: its value on an answer from a soft-purged copy, which the front is rendering again. The edge never
   * stores such an answer, and the purge client does not count it as a refresh.
   */
  frontStaleStatus: 'stale',
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
   * The value `secret-header` must carry for a request to refresh the cache (`EDGE_REFRESH_SECRET`): 16 to 256 letters,
   * digits and `._~+/=-`. It is written into nginx.conf. Unset, every request is an ordinary one and nothing can
   * refresh the edge.
   * @default undefined
   */
  refreshSecret?: string;
  /**
   * The `host[:port]` readers and the refreshes reach the edge at (the host of `CDN_BASE_URL`, else of `PUBLIC_URL`).
   * Set, only requests with this `Host` read and fill the cache; any other is passed to a front uncached, since no
   * refresh would reach its copies. Unset, every `Host` keeps copies of its own.
   * @default undefined
   */
  publicHost?: string;
  /**
   * Write an access log with the cache status of every request to `<edgeDir>/access.log`.
   * @default false
   */
  accessLog?: boolean;
  /**
   * Seconds a 404 or 410 fetched by a refresh (a request with the refresh secret in `secret-header`) is kept in place
   * of the page it replaces. Short, so a page that comes back at the same URL reappears within this time even without a
   * refresh.
   * @default 60
   */
  goneValidSeconds?: number;
  /**
   * Seconds a 200 of a data route (`/_render/data/<build_id>/…`) is kept. Nothing refreshes data routes at the edge,
   * so this is how long old content can outlive a change there; nginx counts whole seconds, so a copy lives up to one
   * second more.
   * @default 1
   */
  dataRouteValidSeconds?: number;
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
  goneValidSeconds: 60,
  dataRouteValidSeconds: 1,
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

/**
 * A path as an nginx string. `$` would start a variable in directives that take them and control characters cannot be
 * written at all, so both are refused rather than escaped.
 */
function quotePath(path: string): string {
  if (!posix.isAbsolute(path)) throw ERRORS.EDGE_CONFIG_INVALID('an absolute path', 'for the edge files', path);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f$]/.test(path)) {
    throw ERRORS.EDGE_CONFIG_INVALID('the edge directory', 'to be a path', { value: path, flaw: "contains '$' or a control character, which nginx cannot take in a path" });
  }
  return `"${path.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * A regular expression matching an `Accept-Encoding` value that names `coding` without a weight or with one above 0
 * (`q=1`, `q=0.5`, `q=0.001`; not `q=0` or `q=0.000`), as one comma-separated item.
 */
export function acceptsCoding(coding: string): string {
  return `(^|,)\\s*${coding}\\s*(;\\s*q\\s*=\\s*(1(\\.0*)?|0?\\.0*[1-9][0-9]*)\\s*)?(,|$)`;
}

/**
 * Renders the nginx.conf of `sitestack edge`: a caching reverse proxy with the spec's settings in front of the fronts.
 * Pure: no file is read or written. Choices where the spec is silent are explained beside the directives.
 */
export function renderNginxConfig(options: EdgeConfigOptions): string {
  const settings = EDGE_CACHE_SETTINGS;
  const paths = edgePaths(options.edgeDir);
  const workerProcesses = options.workerProcesses ?? DEFAULTS.workerProcesses;
  const keepalive = positiveInteger('upstreamKeepalive', options.upstreamKeepalive ?? DEFAULTS.upstreamKeepalive, ERRORS.EDGE_CONFIG_INVALID);
  const goneValid = positiveInteger('goneValidSeconds', options.goneValidSeconds ?? DEFAULTS.goneValidSeconds, ERRORS.EDGE_CONFIG_INVALID);
  const dataValid = positiveInteger('dataRouteValidSeconds', options.dataRouteValidSeconds ?? DEFAULTS.dataRouteValidSeconds, ERRORS.EDGE_CONFIG_INVALID);
  if (options.upstreams.length === 0) throw ERRORS.EDGE_CONFIG_INVALID('at least one upstream', 'for the edge');
  if (options.user !== undefined && !/^[a-z_][a-z0-9_.-]*\$?$/i.test(options.user)) {
    throw ERRORS.EDGE_CONFIG_INVALID('a user', 'name', options.user);
  }
  const frontStatus = `$upstream_http_${settings.frontCacheHeader.replace(/-/g, '_')}`;
  const hosts = publicHostLines(options.publicHost);

  const lines = [
    '# Generated by `sitestack edge`; rewritten on every start. Edit src/edge/nginx-config.ts instead.',
    ...(options.user === undefined ? [] : [`user ${options.user};`]),
    'daemon off;',
    'master_process on;',
    `worker_processes ${workerProcesses === 'auto' ? 'auto' : positiveInteger('workerProcesses', workerProcesses, ERRORS.EDGE_CONFIG_INVALID)};`,
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
    `  proxy_cache_key "$scheme://${hosts.keyHost}$sitestack_edge_target $sitestack_edge_encoding";`,
    ...hosts.lines,
    '',
    '  # What the key names of a request: its target as sent ($request_uri, which nginx passes on to the front as it is),',
    '  # except that the search page shell is one copy whatever its query: the browser reads the query, the front serves',
    '  # the same shell for every one and keys it without. Every other spelling of any path, dot segments and escapes',
    '  # included, has a key of its own, and the front answers it with a 301 to the canonical URL, which is never stored',
    '  # (200 only); so only canonical URLs are stored, and refreshing those reaches every copy.',
    '  map $request_uri $sitestack_edge_target {',
    '    default $request_uri;',
    `    "~^(${settings.searchShellPath})(\\?.*)?$" $1;`,
    '  }',
    '',
    '  # The coding a request gets: the first of br and gzip its Accept-Encoding names with a weight above 0, else',
    '  # identity. The edge asks the front for exactly that coding and keeps one copy per coding (it is part of the key',
    '  # above), so a client is never sent an encoding it did not accept, and the many spellings browsers send share',
    '  # three copies rather than one per spelling (which is what keying on Vary would give). `*` is not read: a client',
    '  # that accepts codings only through it gets identity, which it always accepts. Between br and gzip the edge',
    '  # prefers br whatever their weights; the front, reached directly, honours them.',
    '  map $http_accept_encoding $sitestack_edge_encoding {',
    '    default identity;',
    ...settings.codings.map((coding) => `    "~*${acceptsCoding(coding === 'gzip' ? '(x-)?gzip' : coding)}" ${coding};`),
    '  }',
    '  # What the front is asked for: that coding, except on data routes, kept as one gzip copy (see their location), and',
    '  # on images, which are compressed already.',
    '  map $uri $sitestack_edge_upstream_encoding {',
    '    default $sitestack_edge_encoding;',
    `    "~^${settings.dataRoutePrefix}" gzip;`,
    `    "~^${settings.imagePrefix}" identity;`,
    '  }',
    '',
    '  # Status 200 is stored; and, for a refresh only, a 301 (a renamed post), 404 or 410. This departs from the spec\'s "200 only" on',
    '  # purpose: purging is done by refreshing, and nginx replaces an entry only by storing the new answer, so a refresh',
    '  # that could not store the 404 of a deleted page would leave the old page cached, and public, for its hour.',
    '  # Ordinary requests still store 200 only. A refresh is a request carrying the refresh secret (below).',
    ...publicHttpLines(settings.bypassHeader, options.refreshSecret),
    '  # $upstream_status lists every attempt ("502, 404" after a retry): the last one is the answer.',
    '  map "$sitestack_edge_refresh:$upstream_status" $sitestack_edge_refreshed_gone {',
    '    default 0;',
    `    "~^1:(.*[ ,])?(${settings.refreshedGoneStatuses.join('|')})$" 1;`,
    '  }',
    '  map "$sitestack_edge_refreshed_gone:$upstream_status" $sitestack_edge_not_storable {',
    '    default 1;',
    `    "~[:, ]${settings.validStatus}$" 0;`,
    '    "~^1:" 0;',
    '  }',
    '  # Never store what the upstream marks as per-visitor or uncacheable, even where its max-age is ignored below;',
    '  # except that a refreshed 301/404/410 is stored despite no-store or no-cache, which the front puts on those: it',
    '  # is kept for seconds, and only so that the deleted page stops being served. A private answer is never stored.',
    '  map "$sitestack_edge_refreshed_gone:$upstream_http_cache_control" $sitestack_edge_no_store {',
    '    default 0;',
    '    "~*^0:(.*[,\\s])?(private|no-store|no-cache)($|[,\\s=])" 1;',
    '    "~*^1:(.*[,\\s])?private($|[,\\s=])" 1;',
    '  }',
    '  # A front that purges softly answers a purged page from its stale copy while one background render replaces it.',
    '  # Stored here, that old copy would be served for the page\'s hour (and a refresh that got it would have replaced',
    '  # nothing), so it is never stored: the next request asks the front again, and the purge client retries.',
    `  map ${frontStatus} $sitestack_edge_front_stale {`,
    '    default 0;',
    `    "${settings.frontStaleStatus}" 1;`,
    '  }',
    '',
    `  upstream sitestack_front {`,
    ...options.upstreams.map((upstream) => `    server ${formatHostPort(upstream)};`),
    `    keepalive ${keepalive};`,
    '    # Shorter than the front\'s own idle timeout (node:http closes a kept-alive socket after 5 s): nginx then never',
    '    # sends a request on a connection the front is closing, which it would answer 502.',
    '    keepalive_timeout 4s;',
    '  }',
    '',
    '  server {',
    `    listen ${formatHostPort(options.listen)} default_server;`,
    '    server_name _;',
    ...publicServerLines(settings.bypassHeader),
    ...hosts.serverLines,
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
    '    proxy_set_header Accept-Encoding $sitestack_edge_upstream_encoding;',
    '    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '    # The scheme of this connection, never a client\'s own X-Forwarded-Proto: the front trusts the edge\'s, and the',
    '    # scheme is not in the key, so a client\'s would choose the links of a page kept for everyone.',
    '    proxy_set_header X-Forwarded-Proto $scheme;',
    '    proxy_connect_timeout 5s;',
    '',
    `    proxy_cache ${settings.zone};`,
    '    # A request with credentials is neither answered from the cache nor stored: its answer is for that caller only.',
    `    proxy_cache_bypass $sitestack_edge_refresh $http_authorization${hosts.skip};`,
    '    proxy_no_cache $http_authorization $sitestack_edge_no_store $sitestack_edge_not_storable $sitestack_edge_front_stale',
    `                   $sitestack_edge_per_client${hosts.skip};`,
    '    # Concurrent misses of one key make one upstream request; the others wait for it.',
    '    proxy_cache_lock on;',
    '    proxy_cache_revalidate on;',
    '    # Like a CDN: an expired entry is served (X-Cache: STALE) while the upstream is failing. A bypass request never',
    '    # reads the cache, so it still answers 502 when the upstream is down.',
    '    proxy_cache_use_stale error timeout updating http_500 http_502 http_503 http_504;',
    `    # The fronts name what a page shows in ${settings.surrogateKeyHeader} for purges of their own caches; no reader needs it.`,
    `    proxy_hide_header ${settings.surrogateKeyHeader};`,
    '',
    '    location / {',
    '      # Pages: 200 kept for exactly the spec\'s hour, whatever max-age the renderer sends to browsers. Their',
    '      # Vary: Accept-Encoding is already in the key (the coding asked of the front); honoured, it would make a copy',
    '      # per Accept-Encoding spelling.',
    '      proxy_ignore_headers Cache-Control Expires X-Accel-Expires Vary;',
    `      proxy_cache_valid ${settings.validStatus} ${settings.valid};`,
    '      # Only a refresh may store these (see $sitestack_edge_not_storable): the answer replacing a deleted page.',
    `      proxy_cache_valid ${settings.refreshedGoneStatuses.join(' ')} ${goneValid}s;`,
    '      # An expired page is answered from its stale copy (X-Cache: STALE) while one request in the background',
    '      # fetches its new copy, as a front that purges softly does: no reader waits for a render. A refresh is a',
    '      # bypass, which never reads the cache, so it always gets (and stores) the front\'s new answer. Pages only: an',
    '      # /api/ answer promises no copy older than its max-age, and data routes are never served while updating.',
    '      proxy_cache_background_update on;',
    '      proxy_pass http://sitestack_front;',
    '    }',
    '',
    `    location ${settings.dataRoutePrefix} {`,
    '      # Data routes are kept for seconds and never refreshed: the bound on old content here is their validity.',
    '      # A refresh replaces only a URL someone names, and a data route\'s URL holds a build id that only the fronts',
    '      # know; a front restarted with a new build leaves the old build\'s data routes here, and a reader\'s open tab',
    '      # keeps asking for them. Their 404 (another build\'s id) is never stored: no proxy_cache_valid names it, so',
    '      # not even a refresh keeps it, and the tab falls back to a full page load as soon as the copy expires.',
    '      # One copy per URL, not one per coding: the copies would expire at different moments, so two readers could see',
    '      # a change up to a validity apart. It is asked for in gzip (which every browser accepts) and decompressed here',
    '      # for a client that does not accept gzip.',
    `      proxy_cache_key $scheme://${hosts.keyHost}$request_uri;`,
    '      gunzip on;',
    '      proxy_ignore_headers Cache-Control Expires X-Accel-Expires Vary;',
    `      proxy_cache_valid ${settings.validStatus} ${dataValid}s;`,
    '      # Stale only while the front fails. Not while updating: that would serve the old copy for as long as one',
    '      # re-render takes, however slow the origin, and the front\'s own cache answers the concurrent misses anyway.',
    '      proxy_cache_use_stale error timeout http_500 http_502 http_503 http_504;',
    '      proxy_pass http://sitestack_front;',
    '    }',
    '',
    `    location ${settings.imagePrefix} {`,
    '      # Uploaded images never change under their name (it holds their content\'s hash), and nothing purges them: a',
    '      # copy is kept until the cache drops it unread (inactive), whatever the coding asked (one copy per URL). A 404',
    '      # is never stored (200 only), so an image uploaded after someone asked for its name is found.',
    `      proxy_cache_key $scheme://${hosts.keyHost}$request_uri;`,
    '      proxy_ignore_headers Cache-Control Expires X-Accel-Expires Vary;',
    `      proxy_cache_valid ${settings.validStatus} ${settings.imageValid};`,
    '      proxy_pass http://sitestack_front;',
    '    }',
    '',
    ...publicLocationLines(),
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
