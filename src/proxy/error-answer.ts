import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody, type AppError } from '../errors.js';
import { escapeHtml } from '../html-escape.js';

/** Whether the client would rather read JSON than a page: it names JSON in `Accept` and not HTML. */
function wantsJson(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const lower = accept.toLowerCase();
  return (lower.includes('application/json') || lower.includes('+json')) && !lower.includes('text/html');
}

/**
 * Answers a proxy failure the way the front answers its own: the JSON error body of docs/errors.md for a client that
 * asks for JSON, else a small page; never kept (`no-store`), and nothing of the cause (which is logged).
 */
export function sendProxyError(req: IncomingMessage, res: ServerResponse, error: AppError): void {
  const json = wantsJson(req.headers.accept);
  const body = json
    ? JSON.stringify(errorBody(error))
    : `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${error.status} · ${escapeHtml(error.message)}</title></head><body><h1>${error.status}</h1><p>${escapeHtml(error.message)}. Please try again shortly.</p></body></html>\n`;
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  res.writeHead(error.status, {
    'content-type': json ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
