import { request as httpRequest, validateHeaderName, validateHeaderValue, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { CACHE_HEADER, originForm } from '@sitestack/page-cache';
import { ERRORS } from '../error-codes.js';
import type { AppError } from '../errors.js';
import { trustedProxyCheck, type TrustCheck } from '../http/index.js';
import { logUrl } from '../log-bounds.js';
import { sendProxyError } from './error-answer.js';
import { endToEndPairs, forwardedFields, withVia } from './forwarding.js';
import { UPSTREAM_DEFAULTS, type ResolvedUpstreamOptions, type UpstreamOptions } from './options.js';
import { UpstreamPool, type Upstream } from './upstream-pool.js';

/** A node:http handler that forwards each request to an upstream, with the readiness probe and shutdown of the pool. */
export interface UpstreamHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Resolves when one of the upstreams answers a `HEAD /` (any status), naming it; rejects when none does. */
  check(signal: AbortSignal): Promise<string>;
  /** Closes the kept-alive connections. */
  close(): void;
}

/** Request fields this proxy sets itself, or that only make sense between the client and this hop. */
const REPLACED_REQUEST_FIELDS = new Set(['host', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'via', 'expect']);
const REPLACED_RESPONSE_FIELDS = new Set(['via']);
/** Connection failures that mean the upstream is not there at all: the next upstream may take the request. */
const NOT_THERE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

type Phase = 'connect' | 'first byte' | 'body';

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The outgoing request's headers as a raw list: the client's end-to-end fields, then this hop's. */
function outgoingHeaders(req: IncomingMessage, res: ServerResponse, upstream: Upstream, trusted: TrustCheck): string[] {
  const raw: string[] = ['Host', upstream.host];
  // A render the page cache records gets identity: it stores that body and makes its own encodings of it.
  const recorded = res.getHeader(CACHE_HEADER) === 'miss';
  for (const [name, value] of endToEndPairs(req.rawHeaders, REPLACED_REQUEST_FIELDS)) {
    if (!(recorded && name.toLowerCase() === 'accept-encoding')) raw.push(name, value);
  }
  if (recorded) raw.push('Accept-Encoding', 'identity');
  const fields = forwardedFields({ peer: req.socket.remoteAddress, encrypted: (req.socket as Partial<TLSSocket>).encrypted === true, headers: req.headers }, trusted);
  for (const [name, value] of Object.entries(fields)) raw.push(name, value);
  return raw;
}

/** Copies the upstream's head onto `res`; false when a field is one node:http cannot send (nothing is copied then). */
function copyHead(upstreamRes: IncomingMessage, res: ServerResponse): boolean {
  const pairs = endToEndPairs(upstreamRes.rawHeaders, REPLACED_RESPONSE_FIELDS);
  try {
    for (const [name, value] of pairs) {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    }
  } catch {
    return false;
  }
  for (const [name, value] of pairs) res.appendHeader(name, value);
  res.setHeader('via', withVia(upstreamRes.headers.via));
  return true;
}

/**
 * Creates the handler of `sitestack proxy`'s misses and bypassed requests: each request goes to the next upstream in
 * turn over a kept-alive connection, its body streamed up, the answer streamed back head first and chunk by chunk as
 * the upstream sends them. Timeouts answer 504; a refused, reset or malformed answer 502 (with the next upstream tried
 * first when one refused a body-less request); an answer that breaks off once begun cuts the client's connection, so
 * neither the client nor the page cache takes a truncated body for a whole one.
 */
export function createUpstreamHandler(options: UpstreamOptions): UpstreamHandler {
  const config: ResolvedUpstreamOptions = { ...UPSTREAM_DEFAULTS, ...options };
  const { logger } = config;
  const pool = new UpstreamPool(config.upstreams, config);
  const trusted = trustedProxyCheck(config.trustedProxies);

  function open(upstream: Upstream, method: string, path: string, headers: string[]): ClientRequest {
    const request = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
    return request({ agent: upstream.agent, hostname: upstream.hostname, port: upstream.port, method, path, headers, setHost: false, maxHeaderSize: config.maxResponseHeaderBytes });
  }

  function forward(req: IncomingMessage, res: ServerResponse, path: string, tried: number, previous?: Upstream): void {
    const upstream = pool.pick(Date.now(), previous);
    const withBody = hasBody(req);
    const outgoing = open(upstream, req.method ?? 'GET', path, outgoingHeaders(req, res, upstream, trusted));
    let phase: Phase = 'connect';
    let headWritten = false;
    let over = false;
    const timedOut = (): void => fail(ERRORS.PROXY_UPSTREAM_TIMEOUT(), `no ${phase} within its timeout`);
    let timer = setTimeout(timedOut, config.connectTimeoutMs);

    const fail = (error: AppError, why: string, cause?: unknown): void => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      outgoing.destroy();
      logger.warn({ err: cause, upstream: upstream.origin, url: logUrl(path), phase }, `proxy: ${why}`);
      if (headWritten || res.headersSent) res.destroy();
      else if (!res.destroyed) sendProxyError(req, res, error);
    };
    const waitFor = (next: Phase, ms: number): void => {
      phase = next;
      clearTimeout(timer);
      timer = setTimeout(timedOut, ms);
    };

    outgoing.on('socket', (socket) => {
      if (!socket.connecting) waitFor('first byte', config.firstByteTimeoutMs);
      else socket.once('connect', () => over || waitFor('first byte', config.firstByteTimeoutMs));
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (over) return;
      const code = error.code ?? '';
      const again = phase !== 'body' && !withBody && tried + 1 < Math.max(2, pool.upstreams.length);
      if (NOT_THERE.has(code)) pool.markDown(upstream, Date.now());
      if (again && (NOT_THERE.has(code) || (code === 'ECONNRESET' && outgoing.reusedSocket))) {
        // Refused, or a kept-alive connection the upstream had just closed: nothing reached it, so try again.
        over = true;
        clearTimeout(timer);
        forward(req, res, path, tried + 1, NOT_THERE.has(code) ? upstream : undefined);
        return;
      }
      fail(ERRORS.PROXY_UPSTREAM_FAILED(), `the upstream failed (${code || error.message})`, error);
    });
    outgoing.on('upgrade', (_answer, socket: Socket) => {
      // This proxy forwards no upgraded connection (WebSocket): the client asked for none, as Upgrade is hop-by-hop.
      socket.destroy();
      fail(ERRORS.PROXY_UPSTREAM_FAILED(), 'the upstream switched protocols');
    });
    outgoing.on('response', (upstreamRes) => {
      if (over) {
        upstreamRes.destroy();
        return;
      }
      waitFor('body', config.idleTimeoutMs);
      const status = upstreamRes.statusCode ?? 0;
      if (status < 200 || status > 599) {
        fail(ERRORS.PROXY_UPSTREAM_FAILED(), `the upstream answered status ${status}`);
        return;
      }
      if (!copyHead(upstreamRes, res)) {
        fail(ERRORS.PROXY_UPSTREAM_FAILED(), 'the upstream answered a header that cannot be forwarded');
        return;
      }
      headWritten = true;
      res.writeHead(status);
      // A detached response (a background render) has no socket to wait for: it keeps what it is given.
      const paced = res.socket !== null;
      upstreamRes.on('data', (chunk: Buffer) => {
        timer.refresh();
        if (!res.write(chunk) && paced) upstreamRes.pause();
      });
      res.on('drain', () => upstreamRes.resume());
      upstreamRes.on('end', () => {
        if (over) return;
        if (!upstreamRes.complete) {
          fail(ERRORS.PROXY_UPSTREAM_FAILED(), 'the upstream broke off its answer');
          return;
        }
        over = true;
        clearTimeout(timer);
        res.end();
      });
      upstreamRes.on('error', (error) => fail(ERRORS.PROXY_UPSTREAM_FAILED(), 'the upstream broke off its answer', error));
      upstreamRes.on('aborted', () => fail(ERRORS.PROXY_UPSTREAM_FAILED(), 'the upstream broke off its answer'));
    });
    res.once('close', () => {
      if (over) return;
      // The client went away (or the response was destroyed): the upstream's work is of no more use.
      over = true;
      clearTimeout(timer);
      outgoing.destroy();
    });
    if (withBody) {
      req.on('data', () => timer.refresh());
      req.once('error', (error) => fail(ERRORS.PROXY_UPSTREAM_FAILED(), 'the request body broke off', error));
      req.pipe(outgoing);
    } else outgoing.end();
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const path = req.method === 'OPTIONS' && url === '*' ? '*' : originForm(url);
    if (path === undefined) {
      sendProxyError(req, res, ERRORS.BAD_REQUEST('the request target is neither a path nor an http(s) URL'));
      return;
    }
    forward(req, res, path, 0);
  }

  async function check(signal: AbortSignal): Promise<string> {
    const failures: string[] = [];
    for (const upstream of pool.upstreams) {
      try {
        await new Promise<void>((resolve, reject) => {
          const probe = open(upstream, 'HEAD', '/', ['Host', upstream.host, 'Via', withVia(undefined)]);
          const abort = () => {
            probe.destroy();
            reject(signal.reason);
          };
          signal.addEventListener('abort', abort, { once: true });
          probe.once('response', (answer) => {
            answer.resume();
            signal.removeEventListener('abort', abort);
            resolve();
          });
          probe.once('error', (error) => {
            signal.removeEventListener('abort', abort);
            reject(error);
          });
          probe.end();
        });
        return `${upstream.origin} answers`;
      } catch (error) {
        failures.push(`${upstream.origin}: ${(error as Error).message}`);
      }
    }
    throw ERRORS.PROXY_NO_UPSTREAM(failures.join('; '));
  }

  return Object.assign(handle, { check, close: () => pool.close() });
}
