/**
 * Where the fleet's Redis is, from `REDIS_URL`: one server (`redis://`, `rediss://`); a primary that Redis Sentinel
 * watches (`redis+sentinel://`, `rediss+sentinel://`), whose address the client asks the sentinels for and asks again
 * after a failover; or a Redis Cluster (`redis+cluster://`, `rediss+cluster://`), whose slot map the client learns from
 * the nodes given and follows as slots move.
 */
export type RedisAddress =
  | { kind: 'server'; url: string }
  | {
      kind: 'sentinel';
      /** The sentinels asked, in order, for the primary's address. */
      sentinels: { host: string; port: number }[];
      /** The primary's name in the sentinels' configuration (`sentinel monitor <name> …`). */
      primaryName: string;
      /** Credentials of the primary (the sentinels are asked without). */
      username?: string;
      password?: string;
      db: number;
      /** TLS to the primary (`rediss+sentinel://`). */
      tls: boolean;
    }
  | {
      kind: 'cluster';
      /** Nodes the client first asks for the slot map; any live one will do. */
      nodes: { host: string; port: number }[];
      username?: string;
      password?: string;
      /** TLS to every node (`rediss+cluster://`). */
      tls: boolean;
    };

const SENTINEL_PORT = 26_379;
const SERVER_PORT = 6_379;
const SENTINEL_FORM = /^(rediss?)\+sentinel:\/\/(?:([^@/]*)@)?([^/?#]+)\/([^/?#]+)(?:\/(\d{1,2}))?\/?$/i;
const CLUSTER_FORM = /^(rediss?)\+cluster:\/\/(?:([^@/]*)@)?([^/?#]+)\/?$/i;
const HOST_PORT = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i;

function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/** `host:port,host,[::1]:port`, each port `fallback` when left out. */
function hostsOf(list: string, fallback: number, what: string): { hosts: { host: string; port: number }[] } | { problem: string } {
  const hosts: { host: string; port: number }[] = [];
  for (const entry of list.split(',')) {
    const match = HOST_PORT.exec(entry.trim());
    const port = match?.[2] === undefined ? fallback : Number(match[2]);
    if (match === null || !(port >= 1 && port <= 65_535)) return { problem: `each ${what} as host or host:port (port 1–65535), comma-separated` };
    hosts.push({ host: (match[1] ?? '').replace(/^\[|\]$/g, ''), port });
  }
  return { hosts };
}

/** `user:password` before the hosts, percent-decoded; empty parts left out. */
function credentialsOf(credentials: string | undefined): { username?: string; password?: string } | { problem: string } {
  const [user = '', secret] = credentials === undefined ? [] : credentials.split(/:(.*)/s, 2);
  const username = decoded(user);
  const password = secret === undefined ? undefined : decoded(secret);
  if (username === undefined || (secret !== undefined && password === undefined)) return { problem: 'credentials in percent-encoding' };
  return { ...(username === '' ? {} : { username }), ...(password === undefined || password === '' ? {} : { password }) };
}

/** The address `REDIS_URL` names, or what is wrong with it, as the end of "expected REDIS_URL to be …". */
export function parseRedisAddress(text: string): RedisAddress | { problem: string } {
  const sentinel = SENTINEL_FORM.exec(text);
  if (sentinel !== null) {
    const [, scheme = '', credentials, hosts = '', name = '', db] = sentinel;
    const sentinels = hostsOf(hosts, SENTINEL_PORT, 'sentinel');
    if ('problem' in sentinels) return sentinels;
    const primaryName = decoded(name);
    if (primaryName === undefined || primaryName === '') return { problem: 'the primary’s name after the sentinels, as redis+sentinel://host:26379/mymaster' };
    const login = credentialsOf(credentials);
    if ('problem' in login) return login;
    return { kind: 'sentinel', sentinels: sentinels.hosts, primaryName, ...login, db: db === undefined ? 0 : Number(db), tls: scheme.toLowerCase() === 'rediss' };
  }
  const cluster = CLUSTER_FORM.exec(text);
  if (cluster !== null) {
    const [, scheme = '', credentials, hosts = ''] = cluster;
    const nodes = hostsOf(hosts, SERVER_PORT, 'cluster node');
    if ('problem' in nodes) return nodes;
    const login = credentialsOf(credentials);
    if ('problem' in login) return login;
    return { kind: 'cluster', nodes: nodes.hosts, ...login, tls: scheme.toLowerCase() === 'rediss' };
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    parsed = undefined;
  }
  if ((parsed?.protocol !== 'redis:' && parsed?.protocol !== 'rediss:') || parsed.hostname === '') {
    return { problem: 'a redis:// or rediss:// URL with a host, redis+sentinel://host:26379[,host…]/<primary name> or redis+cluster://host:6379[,host…]' };
  }
  return { kind: 'server', url: text };
}

/** `REDIS_URL` with its password replaced by `***`: fit for logs and error messages, whatever its form. */
export function redactedRedisUrl(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0];
  if (scheme === undefined) return '(unparsable URL)';
  const rest = url.slice(scheme.length);
  // The last @: a password typed with an @ of its own is still hidden whole (a path with one is hidden too much).
  const at = rest.lastIndexOf('@');
  if (at < 0) return url;
  const credentials = rest.slice(0, at);
  const colon = credentials.indexOf(':');
  return colon < 0 ? url : `${scheme}${credentials.slice(0, colon)}:***${rest.slice(at)}`;
}
