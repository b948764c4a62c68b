import type { IncomingHttpHeaders } from 'node:http';

/** What `publicBaseUrl` reads from a request: node's IncomingMessage (fastify's `request.raw`) fits. */
export interface PublicRequest {
  headers: IncomingHttpHeaders;
  socket: { encrypted?: boolean; localAddress?: string | undefined; localPort?: number | undefined };
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
 * The public base URL of a request (page-cache.md §4, edge rule 4), such as `http://localhost:8080`, without a
 * trailing slash. Scheme `https` only when the connection itself is TLS (`X-Forwarded-Proto` is not trusted). Host:
 * the first `X-Forwarded-Host` value when it is in `allowedHosts`, else the request's own `Host`, else the address the
 * request arrived on.
 *
 * `allowedHosts` entries are host names or addresses, compared case-insensitively (and in punycode); an entry without
 * a port allows every port, `example.com:8443` only that port. A hostile or malformed value is never echoed: anything
 * that is not a plain `host[:port]` is treated as absent.
 */
export function publicBaseUrl(request: PublicRequest, allowedHosts: readonly string[]): string {
  const scheme = request.socket.encrypted === true ? 'https' : 'http';
  const forwardedValue = firstHeaderValue(request.headers['x-forwarded-host']);
  const forwarded = forwardedValue === undefined ? undefined : parseHostPort(forwardedValue);
  if (forwarded !== undefined && isAllowed(forwarded, allowedHosts, scheme)) return format(scheme, forwarded);

  const own = request.headers.host === undefined ? undefined : parseHostPort(request.headers.host);
  if (own !== undefined) return format(scheme, own);
  const local = parseHostPort(request.socket.localAddress ?? 'localhost', true) ?? { hostname: 'localhost', port: undefined };
  return format(scheme, { hostname: local.hostname, port: request.socket.localPort });
}
