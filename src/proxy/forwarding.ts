/**
 * Pure rules of a reverse proxy's headers: which fields stop at this hop (RFC 9110 §7.6.1), what the upstream is told
 * of the client (`X-Forwarded-*`, `Via`), and what the client gets back. No I/O.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { clientAddress, type TrustCheck } from '../http/index.js';

/**
 * Fields that describe one connection, never forwarded (RFC 9110 §7.6.1, plus the `Proxy-Connection` and `Keep-Alive`
 * of older clients). `Host` is here too: the upstream gets its own, and the client's goes in `X-Forwarded-Host`.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** What this proxy calls itself in `Via` (RFC 9110 §7.6.3: a pseudonym, not its address). */
export const VIA_NAME = 'sitestack';

/** The field names a `Connection` header lists: those fields are for this hop only, like `Connection` itself. */
export function connectionTokens(value: string | string[] | undefined): Set<string> {
  const tokens = new Set<string>();
  if (value === undefined) return tokens;
  for (const part of (Array.isArray(value) ? value.join(',') : value).split(',')) {
    const token = part.trim().toLowerCase();
    if (token !== '') tokens.add(token);
  }
  return tokens;
}

/** Pairs of a raw header list (`[name, value, name, value…]`) that go past this hop, names as sent. */
export function endToEndPairs(rawHeaders: readonly string[], drop: ReadonlySet<string> = new Set()): [string, string][] {
  let connection: string[] | undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'connection') (connection ??= []).push(rawHeaders[i + 1]!);
  }
  const named = connectionTokens(connection);
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const lower = name.toLowerCase();
    if (!HOP_BY_HOP.has(lower) && !named.has(lower) && !drop.has(lower)) pairs.push([name, rawHeaders[i + 1]!]);
  }
  return pairs;
}

/** The request's facts the forwarded fields are made of. */
export interface ForwardingFacts {
  /** The socket peer's address. */
  peer: string | undefined;
  /** Whether the client reached this proxy over TLS. */
  encrypted: boolean;
  headers: IncomingHttpHeaders;
}

/** The first value of a header that may repeat or list values, trimmed; `undefined` when absent or empty. */
function first(value: string | string[] | undefined): string | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();
  return text === undefined || text === '' ? undefined : text;
}

/** `http` or `https` only: anything else a client claims is not a scheme this proxy could have been reached by. */
function scheme(value: string | undefined): string | undefined {
  const lower = value?.toLowerCase();
  return lower === 'http' || lower === 'https' ? lower : undefined;
}

/**
 * The forwarded fields the upstream gets, as a reverse proxy sets them: `X-Forwarded-For` is the trusted chain plus
 * the peer (a peer that is not a trusted proxy starts the chain anew, so no client can name another address);
 * `X-Forwarded-Proto` and `-Host` are the trusted proxy's when the peer is one, else this hop's own; `Via` gets this
 * hop appended whoever sent it (it only records the path, it grants nothing).
 */
export function forwardedFields(facts: ForwardingFacts, trusted: TrustCheck): Record<string, string> {
  const { headers } = facts;
  const peer = clientAddress(facts.peer, undefined, trusted);
  const fromTrusted = trusted(peer);
  const chain = fromTrusted ? clientChain(headers['x-forwarded-for']) : [];
  const proto = (fromTrusted ? scheme(first(headers['x-forwarded-proto'])) : undefined) ?? (facts.encrypted ? 'https' : 'http');
  const host = (fromTrusted ? first(headers['x-forwarded-host']) : undefined) ?? headers.host;
  const fields: Record<string, string> = {
    'x-forwarded-for': [...chain, peer].filter((hop) => hop !== '').join(', '),
    'x-forwarded-proto': proto,
    via: withVia(headers.via),
  };
  if (host !== undefined && host !== '') fields['x-forwarded-host'] = host;
  return fields;
}

/** The addresses of an `X-Forwarded-For` chain, in order, empty entries left out. */
function clientChain(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value.join(',') : value)
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
}

/** A `Via` value with this hop appended: `1.1 sitestack` (node:http speaks HTTP/1.1 to both sides). */
export function withVia(existing: string | string[] | undefined): string {
  const own = `1.1 ${VIA_NAME}`;
  const before = Array.isArray(existing) ? existing.join(', ') : existing;
  return before === undefined || before.trim() === '' ? own : `${before}, ${own}`;
}
