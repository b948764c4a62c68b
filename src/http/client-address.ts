import { BlockList, isIP } from 'node:net';

/**
 * Which address a request comes from, for rate limiting: the peer's own address, unless the peer is a trusted proxy,
 * in which case `X-Forwarded-For` is read from the right, skipping trusted proxies, up to the first address that is
 * not one (what `proxy-addr` and fastify's `trustProxy` do). Pure; `net.BlockList` does the subnet matching.
 */

/** The proxies every server trusts unless `TRUSTED_PROXIES` says otherwise: a proxy on the same machine. */
export const DEFAULT_TRUSTED_PROXIES: readonly string[] = ['loopback'];

/** `loopback` in a trusted-proxy list stands for these. */
export const LOOPBACK = ['127.0.0.0/8', '::1/128'] as const;

/** Whether an entry of a trusted-proxy list is an IP address or a CIDR subnet. */
export function validProxyEntry(entry: string): boolean {
  if (entry === 'loopback') return true;
  const [address, bits, extra] = entry.split('/');
  if (address === undefined || extra !== undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) as its IPv4 form; anything else as given. */
function plain(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped?.[1] ?? address;
}

export type TrustCheck = (address: string) => boolean;

/** A predicate for the entries of a trusted-proxy list (assumed valid: see validProxyEntry). */
export function trustedProxyCheck(entries: readonly string[]): TrustCheck {
  const list = new BlockList();
  for (const entry of entries.flatMap((item) => (item === 'loopback' ? [...LOOPBACK] : [item]))) {
    const [address = '', bits] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (address) => {
    const candidate = plain(address);
    const family = isIP(candidate);
    return family !== 0 && list.check(candidate, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** The client address of a request whose socket peer is `peer` and whose X-Forwarded-For header is `forwardedFor`. */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trusted: TrustCheck): string {
  let client = plain(peer ?? '');
  if (!trusted(client) || forwardedFor === undefined) return client;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = plain(hops[i] as string);
    if (isIP(hop) === 0) break;
    client = hop;
    if (!trusted(hop)) break;
  }
  return client;
}
