import { ERRORS } from '../error-codes.js';

/** An address nginx listens on or proxies to. `host` is a name, an IPv4 address or an IPv6 address (with or without brackets). */
export interface HostPort {
  host: string;
  port: number;
}

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
const IPV6 = /^[0-9a-f:.]+(?:%[a-z0-9]+)?$/i;

/** `host:port` as nginx writes it (IPv6 in brackets), refusing anything that is not a plain host name or address. */
export function formatHostPort({ host, port }: HostPort): string {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw ERRORS.EDGE_CONFIG_INVALID('a port', 'from 1 to 65535', port);
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.includes(':')) {
    if (!IPV6.test(bare)) throw ERRORS.EDGE_CONFIG_INVALID('a host name', 'or an IP address', host);
    return `[${bare}]:${port}`;
  }
  if (!HOSTNAME.test(bare)) throw ERRORS.EDGE_CONFIG_INVALID('a host name', 'or an IP address', host);
  return `${bare}:${port}`;
}
