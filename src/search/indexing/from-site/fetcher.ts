import { setTimeout as sleep } from 'node:timers/promises';
import { discardBody } from '../../../http/index.js';

/** Spaces the starts of requests at least `intervalMs` apart, however many are in flight. */
export class Pacer {
  #next = 0;
  constructor(public intervalMs: number) {}

  async turn(): Promise<void> {
    const now = performance.now();
    const at = Math.max(now, this.#next);
    this.#next = at + this.intervalMs;
    // A timer waits a millisecond at least: a shorter gap (a high rate) is let through rather than stretched to one.
    if (at - now >= 1) await sleep(at - now);
  }

  /** Halves the rate (at least 100 ms apart), up to `maxMs` apart: the site said it is busy. */
  slowDown(maxMs: number): void {
    this.intervalMs = Math.min(maxMs, Math.max(this.intervalMs * 2, 100));
  }
}

const HTTP_DATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** A `Retry-After` value (seconds, or an HTTP date) as ms from `now`; undefined when it is neither. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,9}$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!HTTP_DATE.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Validators of an earlier answer, sent back as a conditional request. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export type FetchAnswer =
  | { kind: 'ok'; url: URL; headers: Headers; body: Buffer; truncated: boolean }
  | { kind: 'not-modified'; url: URL }
  | { kind: 'failed'; url: URL; reason: string; detail: string; status?: number };

export interface GetOptions {
  maxBytes: number;
  accept: string;
  validators?: Validators;
  /** Keep the first `maxBytes` of a longer answer (robots.txt) rather than failing it as `too-large`. */
  truncate?: boolean;
}

export interface SiteFetcherOptions {
  fetch: typeof fetch;
  userAgent: string;
  timeoutMs: number;
  maxRedirects: number;
  pacer: Pacer;
  /** The longest `Retry-After` waited for (once per request, on a 429 or 503); a longer one fails the request. */
  maxRetryAfterMs: number;
  /** Whether a URL may be fetched: redirects leaving it are not followed. */
  onSite(url: URL): boolean;
}

/**
 * The build's one way to the site: every request paced, sent with the build's User-Agent, bounded in time (headers and
 * body) and bytes, redirects followed by hand so that none leaves the site. A 429 or 503 slows every later request
 * down and, with a `Retry-After` the build accepts, is asked again once after it. Never throws for what a site answers.
 */
export class SiteFetcher {
  constructor(readonly options: SiteFetcherOptions) {}

  async get(url: URL, options: GetOptions): Promise<FetchAnswer> {
    const { maxRedirects, pacer, onSite } = this.options;
    let target = url;
    let retried = false;
    for (let hop = 0; ; hop++) {
      await pacer.turn();
      const signal = AbortSignal.timeout(this.options.timeoutMs);
      let response: Response;
      try {
        response = await this.options.fetch(target, { redirect: 'manual', signal, headers: this.#headers(options) });
      } catch (error) {
        return failure(target, error);
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && response.status !== 304 && location !== null) {
        await discardBody(response);
        let next: URL;
        try {
          next = new URL(location, target);
        } catch {
          return { kind: 'failed', url: target, reason: 'bad-redirect', detail: `Location '${location.slice(0, 200)}' is not a URL` };
        }
        next.hash = '';
        if (!onSite(next)) return { kind: 'failed', url: target, reason: 'redirect-off-site', detail: `to ${next.href.slice(0, 300)}` };
        if (hop >= maxRedirects) return { kind: 'failed', url: target, reason: 'too-many-redirects', detail: `more than ${maxRedirects}` };
        target = next;
        continue;
      }
      if (response.status === 304 && options.validators !== undefined) {
        await discardBody(response);
        return { kind: 'not-modified', url: target };
      }
      if (response.status === 429 || response.status === 503) {
        pacer.slowDown(this.options.maxRetryAfterMs);
        const waitMs = retryAfterMs(response.headers.get('retry-after'), Date.now());
        if (!retried && waitMs !== undefined && waitMs <= this.options.maxRetryAfterMs) {
          await discardBody(response);
          retried = true;
          hop--;
          await sleep(waitMs);
          continue;
        }
      }
      if (response.status < 200 || response.status > 299) {
        await discardBody(response);
        return { kind: 'failed', url: target, reason: `http-${response.status}`, detail: `${response.status}`, status: response.status };
      }
      return this.#read(target, response, options);
    }
  }

  #headers(options: GetOptions): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': this.options.userAgent, accept: options.accept };
    if (options.validators?.etag !== undefined) headers['if-none-match'] = options.validators.etag;
    if (options.validators?.lastModified !== undefined) headers['if-modified-since'] = options.validators.lastModified;
    return headers;
  }

  async #read(url: URL, response: Response, options: GetOptions): Promise<FetchAnswer> {
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > options.maxBytes && options.truncate !== true) {
      await discardBody(response);
      return { kind: 'failed', url, reason: 'too-large', detail: `declares ${declared} bytes, more than ${options.maxBytes}` };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    try {
      for (let next = await reader?.read(); next !== undefined && !next.done; next = await reader?.read()) {
        chunks.push(Buffer.from(next.value));
        size += next.value.byteLength;
        if (size > options.maxBytes) {
          await reader?.cancel().catch(() => undefined);
          if (options.truncate !== true) return { kind: 'failed', url, reason: 'too-large', detail: `longer than ${options.maxBytes} bytes` };
          return { kind: 'ok', url, headers: response.headers, body: Buffer.concat(chunks).subarray(0, options.maxBytes), truncated: true };
        }
      }
    } catch (error) {
      return failure(url, error);
    }
    return { kind: 'ok', url, headers: response.headers, body: Buffer.concat(chunks, size), truncated: false };
  }
}

function failure(url: URL, error: unknown): FetchAnswer {
  const name = (error as Error | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'failed', url, reason: 'timeout', detail: (error as Error).message };
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return { kind: 'failed', url, reason: 'unreachable', detail: cause?.code ?? cause?.message ?? (error as Error).message };
}
