import type { Logger } from './log.js';

export const LOG_REQUESTS_MODES = ['off', 'errors', 'sampled', 'all'] as const;
/** `LOG_REQUESTS`: which requests get a log line. */
export type LogRequestsMode = (typeof LOG_REQUESTS_MODES)[number];

/** Longest request URL a log line carries: a client chooses its URLs, and a flood of long ones must not fill the disk. */
export const LOG_URL_MAX_CHARS = 200;

/** A request URL as log lines carry it: at most `maxChars` characters, then how many were left off. */
export function logUrl(url: string | undefined, maxChars = LOG_URL_MAX_CHARS): string | undefined {
  if (url === undefined || url.length <= maxChars) return url;
  return `${url.slice(0, maxChars)}…[${url.length - maxChars} more characters]`;
}

/** Options of {@link RateLimitLog}. */
export interface RateLimitLogOptions {
  logger: Logger;
  /** The message of every line, e.g. `search rate limit exceeded`. */
  message: string;
  /** The rate limit's window: a client address gets at most one line per window. */
  windowMs: number;
  /**
   * Client addresses counted one by one in a window; the requests of further addresses are summed in one more line,
   * so a flood from many addresses cannot grow the counts without bound either.
   * @default 1000
   */
  maxClients?: number;
}

export const RATE_LIMIT_LOG_DEFAULTS = { maxClients: 1_000 } as const;

interface ClientCount {
  rejected: number;
  /** The first rejected URL of the window, cut by logUrl. */
  url: string | undefined;
}

/**
 * Counts the requests a rate limit refuses instead of logging each one. A window opens at the first refusal; when it
 * closes (or on `flush`), each client address refused in it gets one warning with `rejected`, the count, and the
 * first refused URL.
 */
export class RateLimitLog {
  private readonly options: Required<RateLimitLogOptions>;
  private readonly clients = new Map<string, ClientCount>();
  private othersRejected = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(options: RateLimitLogOptions) {
    this.options = { maxClients: RATE_LIMIT_LOG_DEFAULTS.maxClients, ...options };
  }

  /** Counts one refused request of `client`. */
  count(client: string, url: string | undefined): void {
    const counted = this.clients.get(client);
    if (counted !== undefined) counted.rejected++;
    else if (this.clients.size < this.options.maxClients) this.clients.set(client, { rejected: 1, url: logUrl(url) });
    else this.othersRejected++;
    if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), this.options.windowMs);
      // Counts still open when the process ends are written by `flush` on close, not by keeping the process alive.
      this.timer.unref();
    }
  }

  /** Writes the lines of the window so far and starts the next window with the next refusal. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const { logger, message, windowMs, maxClients } = this.options;
    for (const [client, { rejected, url }] of this.clients) logger.warn({ client, rejected, windowMs, url }, message);
    if (this.othersRejected > 0) logger.warn({ client: `beyond the first ${maxClients} addresses`, rejected: this.othersRejected, windowMs }, message);
    this.clients.clear();
    this.othersRejected = 0;
  }
}
