import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERRORS } from '../error-codes.js';
import { errorBody, isAppError, type AppError } from '../errors.js';
import type { Logger } from '../log.js';
import { secretMatches } from '../secret-compare.js';
import { HEALTH_PATH, METRICS_PATH, READY_PATH } from '../http/index.js';
import type { Readiness } from './readiness.js';

/** The Prometheus text format's content type (version 0.0.4), as prom-client writes it. */
const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Options of {@link createOperationsHandler}. */
export interface OperationsOptions {
  readiness: Readiness;
  /** The metrics text: this process's, or every front worker's (askPrimaryForMetrics). */
  metricsText: () => Promise<string>;
  /** Bearer token of `/metrics` (`METRICS_TOKEN`); unset: every request is refused with 403. */
  metricsToken: string | undefined;
  logger: Logger;
}

/** Whether a path is one of the operations endpoints (`/healthz`, `/readyz`, `/metrics`). */
export function isOperationsPath(path: string): boolean {
  return path === HEALTH_PATH || path === READY_PATH || path === METRICS_PATH;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  // no-store: neither the page cache (these paths are answered before it), the edge nor a proxy keeps a probe's answer.
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

function sendError(res: ServerResponse, error: AppError): void {
  if (error.status === 401) res.setHeader('www-authenticate', 'Bearer');
  sendJson(res, error.status, errorBody(error));
}

function authorize(header: string | undefined, token: string | undefined): void {
  if (token === undefined) throw ERRORS.METRICS_TOKEN_UNSET();
  const presented = header === undefined ? undefined : /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (presented === undefined) throw ERRORS.UNAUTHORIZED('metrics', 'METRICS_TOKEN');
  if (!secretMatches(presented, token)) throw ERRORS.FORBIDDEN('metrics');
}

/**
 * A node:http handler for `/healthz` (200 `{ "status": "ok" }` while the process runs), `/readyz` (see Readiness) and
 * `/metrics` (Prometheus text, bearer token). Every answer says `Cache-Control: no-store`; only GET and HEAD are taken.
 */
export function createOperationsHandler(options: OperationsOptions): (req: IncomingMessage, res: ServerResponse, path: string) => void {
  const { readiness, metricsText, logger } = options;
  const token = options.metricsToken === '' ? undefined : options.metricsToken;
  const answer = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      throw ERRORS.METHOD_NOT_ALLOWED(path, 'GET or HEAD');
    }
    if (path === HEALTH_PATH) return sendJson(res, 200, { status: 'ok' });
    if (path === READY_PATH) {
      const { status, body } = await readiness.answer();
      return sendJson(res, status, body);
    }
    authorize(req.headers.authorization, token);
    let text: string;
    try {
      text = await metricsText();
    } catch (error) {
      throw ERRORS.METRICS_UNAVAILABLE.with({ cause: error }, error instanceof Error ? error.message : String(error));
    }
    send(res, 200, PROMETHEUS_CONTENT_TYPE, text);
  };
  return (req, res, path) => {
    answer(req, res, path).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (isAppError(error) && error.status < 500) return sendError(res, error);
      logger.error({ err: error, path }, 'operations endpoint failed');
      sendError(res, isAppError(error) ? error : ERRORS.INTERNAL());
    });
  };
}
