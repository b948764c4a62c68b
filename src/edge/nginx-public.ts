import { ERRORS, SECRET_RULE, withheld } from '../error-codes.js';
import { DEFAULTS as PAGE_CACHE_DEFAULTS, PER_CLIENT_HEADERS } from '@sitestack/page-cache';
import { HEALTH_PATH, METRICS_PATH, READY_PATH, REQUEST_BOUNDS } from '../http/index.js';

/**
 * The parts of the edge's nginx.conf that face the public (issue 32): the operator's routes refused, refreshes only with
 * `EDGE_REFRESH_SECRET`, answers describing one client never stored, and bounded request lines and headers. Pure, like
 * `renderNginxConfig`, which places these lines.
 */

/**
 * Paths (and everything below them) the edge answers 404 itself, whatever the request carries: the fronts' operator
 * routes, and their probes, which describe one front and name its internals. Operators and load balancers reach them
 * on each front directly.
 */
export const OPERATOR_PATHS = [PAGE_CACHE_DEFAULTS.purgePath, '/__cache__', METRICS_PATH, HEALTH_PATH, READY_PATH] as const;

/** What nginx can take inside a quoted string and a regular expression (`EDGE_REFRESH_SECRET`'s own rule). */
const SECRET = /^[A-Za-z0-9._~+/=-]{16,256}$/;

/** The largest `Host` the edge takes: a DNS name (253) with a port and IPv6 brackets, rounded up. */
export const MAX_HOST_BYTES = 300;

/**
 * The upstream buffer, which must hold the cache key (a request line of at most `REQUEST_BOUNDS.maxUrlBytes`, the host,
 * the coding), nginx's cache header (about 600 bytes) and then the front's answer headers. Too small for the key, nginx
 * skips the cache and logs the whole request at `error` for every such request.
 */
export const PROXY_BUFFER_BYTES = 16 * 1024;

function variable(header: string): string {
  return header.toLowerCase().replace(/-/g, '_');
}

function regexEscape(text: string): string {
  return text.replace(/[^A-Za-z0-9]/g, (c) => `[${c}]`);
}

/** The `http` block's lines: the maps the server block and `renderNginxConfig` read, and the bounds. */
export function publicHttpLines(bypassHeader: string, refreshSecret: string | undefined): string[] {
  if (refreshSecret !== undefined && !SECRET.test(refreshSecret)) {
    throw ERRORS.EDGE_CONFIG_INVALID('the edge refresh secret', `to be ${SECRET_RULE}`, withheld(refreshSecret));
  }
  const header = `$http_${variable(bypassHeader)}`;
  const operatorPaths = OPERATOR_PATHS.map((path) => regexEscape(path.slice(1))).join('|');
  const perClient = PER_CLIENT_HEADERS.map((name) => `$upstream_http_${variable(name)}`).join('');
  return [
    `  # Bounds: a request line over ${REQUEST_BOUNDS.maxUrlBytes / 1024} KiB is answered 414, a header line over that or headers over`,
    '  # four times that 431 (see the server block). nginx logs both at `info`, below this error_log\'s `warn`: a flood of',
    '  # them writes nothing.',
    `  large_client_header_buffers 4 ${REQUEST_BOUNDS.maxUrlBytes / 1024}k;`,
    `  proxy_buffer_size ${PROXY_BUFFER_BYTES / 1024}k;`,
    '  # Its default is twice the buffer above, more than the (default) proxy_buffers hold, which nginx refuses.',
    `  proxy_busy_buffers_size ${PROXY_BUFFER_BYTES / 1024}k;`,
    '  map $http_host $sitestack_edge_host_too_long {',
    '    default 0;',
    `    "~^.{${MAX_HOST_BYTES + 1},}" 1;`,
    '  }',
    '',
    '  # The fronts\' operator routes and probes, in every spelling nginx routes there: $uri is decoded, its dot',
    '  # segments resolved and its slashes merged; case is ignored.',
    '  map $uri $sitestack_edge_operator_route {',
    '    default 0;',
    `    "~*^/(${operatorPaths})(/|$)" 1;`,
    '  }',
    '',
    `  # A refresh is a request whose ${bypassHeader} is EDGE_REFRESH_SECRET exactly; any other value is an ordinary`,
    '  # request. The first map is a hash lookup (case-insensitive, and its time does not depend on how much of the',
    '  # value matches); only a value equal to the secret but for case reaches the exact comparison of the second.',
    `  map ${header} $sitestack_edge_refresh_candidate {`,
    '    default 0;',
    ...(refreshSecret === undefined ? [] : [`    "${refreshSecret.startsWith('~') ? '\\' : ''}${refreshSecret}" 1;`]),
    '  }',
    `  map "$sitestack_edge_refresh_candidate:${header}" $sitestack_edge_refresh {`,
    '    default 0;',
    ...(refreshSecret === undefined ? [] : [`    "~^1:${regexEscape(refreshSecret)}$" 1;`]),
    '  }',
    '',
    '  # An answer describing one client (rate-limit state, when to retry) is passed to that client and never stored.',
    `  map "${perClient}" $sitestack_edge_per_client {`,
    '    default 1;',
    '    "" 0;',
    '  }',
  ];
}

/** A `host[:port]` as a `Host` header or `URL.host` writes it: a name or an IPv4 address, or an IPv6 one in brackets. */
const PUBLIC_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** 1 for a request whose `Host` is not the edge's public host: such a request neither reads nor fills the cache. */
export const OTHER_HOST_VARIABLE = '$sitestack_edge_other_host';

/**
 * The host part of the cache keys, the map behind `OTHER_HOST_VARIABLE` and the variables that skip the cache for it.
 * With a public host (the host of `CDN_BASE_URL`, which the origin's refreshes carry, else of `PUBLIC_URL`) only that
 * host's copies are kept, under the host itself whatever its case: a copy kept under any other `Host` (`localhost` for
 * `127.0.0.1`, `www.`, a forged one) is one no refresh names, so a deleted post would stay public there for the copy's
 * hour. Other hosts are passed to a front, whose own cache is purged by path and so is fresh. Without one, every host
 * keeps copies of its own: nginx is told nothing of what the refreshes name.
 */
export function publicHostLines(publicHost: string | undefined): { keyHost: string; lines: string[]; skip: string; serverLines: string[] } {
  if (publicHost === undefined) return { keyHost: '$http_host', lines: [], skip: '', serverLines: [] };
  if (publicHost.length > MAX_HOST_BYTES || !PUBLIC_HOST.test(publicHost)) {
    throw ERRORS.EDGE_CONFIG_INVALID("the edge's public host", 'to be host[:port]', publicHost);
  }
  const host = publicHost.toLowerCase();
  return {
    keyHost: host,
    lines: [
      '  # Copies are kept for the public host only, the one the refreshes name (its case ignored: a map compares',
      '  # without it); any other Host goes to a front, uncached, since no refresh would ever reach its copies.',
      `  map $http_host ${OTHER_HOST_VARIABLE} {`,
      '    default 1;',
      `    "${host}" 0;`,
      '  }',
      `  map "$sitestack_edge_refresh:${OTHER_HOST_VARIABLE}" $sitestack_edge_misdirected_refresh {`,
      '    default 0;',
      '    "1:1" 1;',
      '  }',
    ],
    skip: ` ${OTHER_HOST_VARIABLE}`,
    serverLines: [
      '    # A refresh for another host would replace nothing: 421 makes an origin whose CDN_BASE_URL names another host',
      '    # than this edge keeps fail its edge purges loudly, rather than leave every copy here stale in silence.',
      '    if ($sitestack_edge_misdirected_refresh) {',
      '      return 421;',
      '    }',
    ],
  };
}

/** The server block's lines, before any location: the operator routes and oversized requests refused. */
export function publicServerLines(bypassHeader: string): string[] {
  return [
    '    # Server level, so no location (nor a redirect of a non-canonical spelling) is ever reached first.',
    '    if ($sitestack_edge_operator_route) {',
    '      return 404;',
    '    }',
    '    # nginx answers a header line over the bound with its own 400 (internally 494): 431 says what it is.',
    '    error_page 494 =431 @sitestack_edge_too_large;',
    '    if ($sitestack_edge_host_too_long) {',
    '      return 431;',
    '    }',
    `    # The secret is for the edge; the front has no use for it.`,
    `    proxy_set_header ${bypassHeader} "";`,
  ];
}

/** The named location `publicServerLines` sends oversized requests to. */
export function publicLocationLines(): string[] {
  return ['    location @sitestack_edge_too_large {', '      return 431;', '    }'];
}
