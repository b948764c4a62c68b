import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

/** One upstream application: where it is and the kept-alive connections to it. */
export interface Upstream {
  /** `http(s)://host:port`, as configured. */
  readonly origin: string;
  readonly protocol: 'http:' | 'https:';
  readonly hostname: string;
  readonly port: number;
  /** The `Host` the upstream gets: its own authority, as a client addressing it directly would send. */
  readonly host: string;
  readonly agent: HttpAgent;
  /** Skipped by the round robin until then (ms since the epoch): it refused a connection. */
  downUntil: number;
}

export interface PoolOptions {
  maxSockets: number;
  keepAliveMs: number;
  downForMs: number;
}

/**
 * The upstreams taken in turn (round robin), skipping one that refused a connection for `downForMs`; when all are
 * down the turn goes on regardless, so a recovered upstream is found again by the next request.
 */
export class UpstreamPool {
  readonly upstreams: readonly Upstream[];
  #next = 0;

  constructor(
    origins: readonly string[],
    private readonly options: PoolOptions,
  ) {
    this.upstreams = origins.map((origin) => {
      const url = new URL(origin);
      const https = url.protocol === 'https:';
      const agentOptions = { keepAlive: true, keepAliveMsecs: 1_000, maxSockets: options.maxSockets, maxFreeSockets: options.maxSockets, timeout: options.keepAliveMs, scheduling: 'lifo' as const };
      return {
        origin: url.origin,
        protocol: https ? 'https:' : 'http:',
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port === '' ? (https ? 443 : 80) : Number(url.port),
        host: url.host,
        agent: https ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions),
        downUntil: 0,
      };
    });
  }

  /** The next upstream in turn that is not down, or the next in turn when every one is. */
  pick(now: number, except?: Upstream): Upstream {
    const count = this.upstreams.length;
    for (let i = 0; i < count; i++) {
      const upstream = this.upstreams[(this.#next + i) % count]!;
      if (upstream.downUntil <= now && upstream !== except) {
        this.#next = (this.#next + i + 1) % count;
        return upstream;
      }
    }
    const upstream = this.upstreams[this.#next % count]!;
    this.#next = (this.#next + 1) % count;
    return upstream;
  }

  markDown(upstream: Upstream, now: number): void {
    upstream.downUntil = now + this.options.downForMs;
  }

  /** Closes every kept-alive connection. */
  close(): void {
    for (const upstream of this.upstreams) upstream.agent.destroy();
  }
}
