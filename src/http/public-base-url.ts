import type { IncomingHttpHeaders } from 'node:http';

/** What `publicBaseUrl` reads from a request: node's IncomingMessage (fastify's `request.raw`) fits. */
export interface PublicRequest {
  headers: IncomingHttpHeaders;
  socket: { encrypted?: boolean; localAddress?: string | undefined; localPort?: number | undefined; remoteAddress?: string | undefined };
}

/** What besides the allowed hosts decides a public base URL. */
export interface PublicBaseOptions {
  /** `PUBLIC_URL`: when set, the public base URL of every request, whatever it says. */
  publicUrl?: string | undefined;
  /** Whether the connection's peer is a trusted proxy (`TRUSTED_PROXIES`), whose `X-Forwarded-Proto` is believed. @default none is */
  trustedProxy?: (address: string) => boolean;
}

interface HostPort {
  /** Lower-case, punycode, IPv6 in brackets. */
  hostname: string;
  port: number | undefined;
}

const DEFAULT_PORTS = { http: 80, https: 443 } as const;

function normaliseHostname(value: string): string | undefined {
  // Anything that could make the value more than a host name (user info, path, query, escapes) is refused, not repaired.
  // eslint-disable-next-line no-control-regex
  if (value === '' || /[\u0000-\u0020\u007f/\\?#@%]/.test(value)) return undefined;
  try {
    const url = new URL(`http://${value}/`);
    return url.host === url.hostname && url.pathname === '/' ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

/** Splits `host[:port]` (IPv6 in brackets; a bare IPv6 address only when `bareIpv6` allows it) and normalises it. */
function parseHostPort(value: string, bareIpv6 = false): HostPort | undefined {
  const trimmed = value.trim();
  let host = trimmed;
  let portText: string | undefined;
  const bracketed = /^(\[[^\]]*\])(?::(\d*))?$/.exec(trimmed);
  if (bracketed !== null) {
    host = bracketed[1] ?? '';
    portText = bracketed[2];
  } else if ((trimmed.match(/:/g) ?? []).length > 1) {
    if (!bareIpv6) return undefined;
    host = `[${trimmed}]`;
  } else {
    const colon = trimmed.indexOf(':');
    if (colon !== -1) {
      host = trimmed.slice(0, colon);
      portText = trimmed.slice(colon + 1);
    }
  }
  let port: number | undefined;
  if (portText !== undefined && portText !== '') {
    if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) return undefined;
    port = Number(portText);
  }
  const hostname = normaliseHostname(host);
  return hostname === undefined ? undefined : { hostname, port };
}

function firstHeaderValue(value: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(value) ? value.join(',') : value;
  return joined?.split(',')[0]?.trim();
}

function isAllowed(candidate: HostPort, allowedHosts: readonly string[], scheme: keyof typeof DEFAULT_PORTS): boolean {
  const port = candidate.port ?? DEFAULT_PORTS[scheme];
  return allowedHosts.some((entry) => {
    const allowed = parseHostPort(entry, true);
    return allowed !== undefined && allowed.hostname === candidate.hostname && (allowed.port === undefined || allowed.port === port);
  });
}

function format(scheme: keyof typeof DEFAULT_PORTS, { hostname, port }: HostPort): string {
  return port === undefined || port === DEFAULT_PORTS[scheme] ? `${scheme}://${hostname}` : `${scheme}://${hostname}:${port}`;
}

/**
 * `https` or `http` from a trusted proxy's first `X-Forwarded-Proto` value; anything else is no answer. The header is
 * read before the peer is checked, as most requests carry none and the check (a subnet match) is the dearer step.
 */
function forwardedScheme(request: PublicRequest, trustedProxy: PublicBaseOptions['trustedProxy']): keyof typeof DEFAULT_PORTS | undefined {
  const header = request.headers['x-forwarded-proto'];
  if (header === undefined || trustedProxy === undefined) return undefined;
  const value = firstHeaderValue(header)?.toLowerCase();
  if (value !== 'https' && value !== 'http') return undefined;
  const peer = request.socket.remoteAddress;
  return peer !== undefined && trustedProxy(peer) ? value : undefined;
}

function schemeOf(request: PublicRequest, trustedProxy: PublicBaseOptions['trustedProxy']): keyof typeof DEFAULT_PORTS {
  return request.socket.encrypted === true ? 'https' : (forwardedScheme(request, trustedProxy) ?? 'http');
}

/** The host part of the rule of {@link publicBaseUrl}, once the scheme is known. */
function baseFor(request: PublicRequest, scheme: keyof typeof DEFAULT_PORTS, allowedHosts: readonly string[]): string {
  const forwardedValue = firstHeaderValue(request.headers['x-forwarded-host']);
  const forwarded = forwardedValue === undefined ? undefined : parseHostPort(forwardedValue);
  if (forwarded !== undefined && isAllowed(forwarded, allowedHosts, scheme)) return format(scheme, forwarded);

  const own = request.headers.host === undefined ? undefined : parseHostPort(request.headers.host);
  if (own !== undefined && isAllowed(own, allowedHosts, scheme)) return format(scheme, own);
  const local = parseHostPort(request.socket.localAddress ?? 'localhost', true) ?? { hostname: 'localhost', port: undefined };
  return format(scheme, { hostname: local.hostname, port: request.socket.localPort });
}

/**
 * The public base URL of a request, such as `https://blog.example`, without a trailing slash: what canonical links,
 * Open Graph URLs, the feed, the sitemap and robots.txt are made of.
 *
 * - `PUBLIC_URL` set: that, whatever the request says (the setting for a site on the internet).
 * - Scheme: `https` when the connection itself is TLS; else the first `X-Forwarded-Proto` value when the peer is a
 *   trusted proxy (the TLS terminator in front of the stack); else `http`.
 * - Host: the first `X-Forwarded-Host` value when it is in `allowedHosts`; else the request's `Host` when it is in
 *   `allowedHosts`; else the address the request arrived on (the listener's own, which no client chooses).
 *
 * This departs from page-cache.md §4 rule 4, which takes any `Host`: a page rendered for `Host: evil.example` would
 * carry links to it, and a cache that shares that page (a key that does not hold the host, a spelling that maps onto a
 * clean URL) hands them to every reader. Here no absolute URL names a host the operator did not list.
 *
 * `allowedHosts` entries are host names or addresses, compared case-insensitively (and in punycode); an entry without
 * a port allows every port, `example.com:8443` only that port. A hostile or malformed value is never echoed: anything
 * that is not a plain `host[:port]` is treated as absent.
 */
export function publicBaseUrl(request: PublicRequest, allowedHosts: readonly string[], options: PublicBaseOptions = {}): string {
  if (options.publicUrl !== undefined) return options.publicUrl;
  return baseFor(request, schemeOf(request, options.trustedProxy), allowedHosts);
}

/** What {@link publicBaseMemo} remembers of a connection: the inputs of its last request besides the settings, and the answer. */
interface LastBase {
  scheme: keyof typeof DEFAULT_PORTS;
  forwardedHost: string | string[] | undefined;
  host: string | undefined;
  localAddress: string | undefined;
  localPort: number | undefined;
  base: string;
}

/**
 * {@link publicBaseUrl} for fixed `allowedHosts` and options, remembering per connection the answer to its last
 * request with the inputs it was made of: the scheme (the connection's, or a trusted proxy's), `X-Forwarded-Host`,
 * `Host`, and the listener's address and port. A keep-alive connection sends the same headers request after request,
 * and parsing and checking host names costs microseconds that every cache hit of the front would pay. One answer per
 * open connection is held, and dropped with it.
 */
export function publicBaseMemo(allowedHosts: readonly string[], options: PublicBaseOptions = {}): (request: PublicRequest) => string {
  const { publicUrl, trustedProxy } = options;
  if (publicUrl !== undefined) return () => publicUrl;
  const lastOf = new WeakMap<PublicRequest['socket'], LastBase>();
  return (request) => {
    const scheme = schemeOf(request, trustedProxy);
    const { headers, socket } = request;
    const forwardedHost = headers['x-forwarded-host'];
    const { host } = headers;
    const { localAddress, localPort } = socket;
    const last = lastOf.get(socket);
    if (
      last !== undefined &&
      last.scheme === scheme &&
      last.forwardedHost === forwardedHost &&
      last.host === host &&
      last.localAddress === localAddress &&
      last.localPort === localPort
    ) {
      return last.base;
    }
    const base = baseFor(request, scheme, allowedHosts);
    lastOf.set(socket, { scheme, forwardedHost, host, localAddress, localPort, base });
    return base;
  };
}
