import { DEFAULT_TRUSTED_PROXIES } from '../http/index.js';
import type { Logger } from '../log.js';

/** Options of {@link createUpstreamHandler}. */
export interface UpstreamOptions {
  /** The applications requests go to, as `http(s)://host:port` origins, taken in turn (round robin). */
  upstreams: readonly string[];
  /** How long opening a connection to an upstream may take; beyond it the request is answered 504. @default 5000 */
  connectTimeoutMs?: number;
  /**
   * How long an upstream may take from the request sent to its response head; beyond it 504. Generous: a server
   * renderer may take seconds for a heavy page. @default 30000
   */
  firstByteTimeoutMs?: number;
  /**
   * Longest silence while a request body goes up or a response body comes down; beyond it a response not begun is
   * answered 504, one begun is cut. @default 30000
   */
  idleTimeoutMs?: number;
  /** Connections held open to each upstream at most (requests beyond wait for one). @default 128 */
  maxSockets?: number;
  /** How long an idle kept-alive connection is held for reuse; below Node's and most servers' 5 s. @default 4000 */
  keepAliveMs?: number;
  /** Largest response head an upstream may send, in bytes; a larger one is answered 502. @default 65536 */
  maxResponseHeaderBytes?: number;
  /** How long an upstream that refused a connection is skipped by the round robin. @default 1000 */
  downForMs?: number;
  /** Peers whose `X-Forwarded-*` fields are believed (addresses, CIDR subnets, `loopback`). @default ['loopback'] */
  trustedProxies?: readonly string[];
  logger: Logger;
}

export type ResolvedUpstreamOptions = Required<UpstreamOptions>;

export const UPSTREAM_DEFAULTS = {
  connectTimeoutMs: 5_000,
  firstByteTimeoutMs: 30_000,
  idleTimeoutMs: 30_000,
  maxSockets: 128,
  keepAliveMs: 4_000,
  maxResponseHeaderBytes: 64 * 1024,
  downForMs: 1_000,
  trustedProxies: DEFAULT_TRUSTED_PROXIES,
} as const satisfies Omit<ResolvedUpstreamOptions, 'upstreams' | 'logger'>;
