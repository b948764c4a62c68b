import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERRORS } from '../error-codes.js';
import { errorBody, isAppError, type AppError } from '../errors.js';
import { logUrl } from '../log-bounds.js';
import { silentLogger, type Logger } from '../log.js';
import { clientAddress, DEFAULT_TRUSTED_PROXIES, discardBody, formUtf8Problem, readBoundedText, trustedProxyCheck } from '../http/index.js';
import { HONEYPOT_FIELD } from './comment-form.js';
import type { RendererHandler } from './handler.js';
import type { CommentValues } from './types.js';

export interface CommentRouteOptions {
  /** The content origin, whose `POST /api/v1/plog/<oid>/comments` stores the comment (`API_BASE`). */
  apiBase: string;
  /** Renders the thanks page and the refused form. */
  renderer: RendererHandler;
  /** Proxies whose `X-Forwarded-For` names the reader (`TRUSTED_PROXIES`). @default ['loopback'] */
  trustedProxies?: readonly string[];
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Per origin request, for its headers and its whole body. @default 10000 */
  timeoutMs?: number;
  /**
   * Largest form body read, in bytes; a longer one is refused with 413. The default holds a name and a comment at the
   * origin's character limits (80 and 5,000) even with every character percent-encoded at 12 bytes (4-byte UTF-8).
   * @default 65536
   */
  maxBodyBytes?: number;
  /**
   * Largest answer read from the origin, in bytes (it is a short JSON message); a longer one, or a longer
   * Content-Length, is answered as the origin failing (502), never shown. @default 65536
   */
  maxOriginAnswerBytes?: number;
  /** @default a silent logger */
  logger?: Logger;
}

export const COMMENT_ROUTE_DEFAULTS = { trustedProxies: DEFAULT_TRUSTED_PROXIES, timeoutMs: 10_000, maxBodyBytes: 64 * 1024, maxOriginAnswerBytes: 64 * 1024 } as const;

const POST_PATH = /^\/plog\/([a-z0-9]+(?:-[a-z0-9]+)*)\/comments(\/sent)?$/;

/** The post a comment path names, and whether it is the thanks page; undefined when the path is no comment path. */
export function matchCommentPath(pathname: string): { oid: string; sent: boolean } | undefined {
  const match = POST_PATH.exec(pathname);
  return match?.[1] === undefined || match[1].length > 100 ? undefined : { oid: match[1], sent: match[2] !== undefined };
}

type Reply = { status: number; json: Record<string, unknown>; messages: string[]; retryAfter?: string | null };

/** A reply of the catalogue's error, with its status unless the route answers another. */
function refusal(error: AppError, status = error.status): Reply {
  return { status, json: { ...errorBody(error) }, messages: [error.message] };
}

const originFailed = refusal(ERRORS.ORIGIN_FAILED('comment'));

/** The form's bytes, up to `limit`: URLSearchParams is given them only once formUtf8Problem finds them whole. */
function readForm(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(ERRORS.INVALID_INPUT('the comment form', `is larger than ${limit} bytes`));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The front's comment route, so a reader reaches the comment API through the front (and the edge) as every page:
 * - `POST /plog/<oid>/comments` with the form (`name`, `comment`, and the empty honeypot) forwards the comment to the
 *   origin with the reader's address in `X-Forwarded-For`, taken by the `TRUSTED_PROXIES` rule, so the origin's rate
 *   limit counts each reader even behind the edge. A browser without JavaScript is redirected (303) to the thanks page,
 *   or answered the form again with the origin's messages; a script asking for JSON gets `{ message }` or `{ error }`.
 * - `GET /plog/<oid>/comments/sent` is the thanks page.
 * Every answer is `no-store`: neither the page cache nor the edge keeps any of them, and the post's own page, which
 * they do keep, never carries a reader's form state.
 */
export function createCommentRoute(options: CommentRouteOptions): (req: IncomingMessage, res: ServerResponse, oid: string, sent: boolean) => void {
  const trusted = trustedProxyCheck(options.trustedProxies ?? COMMENT_ROUTE_DEFAULTS.trustedProxies);
  const fetchFn = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? COMMENT_ROUTE_DEFAULTS.timeoutMs;
  const maxBodyBytes = options.maxBodyBytes ?? COMMENT_ROUTE_DEFAULTS.maxBodyBytes;
  const maxOriginAnswerBytes = options.maxOriginAnswerBytes ?? COMMENT_ROUTE_DEFAULTS.maxOriginAnswerBytes;
  const logger = options.logger ?? silentLogger();
  const apiBase = options.apiBase.replace(/\/+$/, '');
  const { renderer } = options;

  const forward = async (req: IncomingMessage, oid: string, values: CommentValues): Promise<Reply> => {
    const reader = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trusted);
    const url = `${apiBase}/api/v1/plog/${oid}/comments`;
    let response: Response;
    try {
      response = await fetchFn(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(reader === '' ? {} : { 'x-forwarded-for': reader }) },
        body: JSON.stringify(values),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      logger.error({ err: error, url: logUrl(req.url) }, 'comment: the origin did not answer');
      return refusal(ERRORS.ORIGIN_FAILED('comment', 'the site is not answering'));
    }
    if (response.ok) {
      await discardBody(response);
      return { status: 201, json: { message: 'awaiting moderation' }, messages: [] };
    }
    if (response.status === 400 || response.status === 404 || response.status === 429) {
      let text: string;
      try {
        text = await readBoundedText(response, maxOriginAnswerBytes, url);
      } catch (error) {
        // Too long, not UTF-8 or cut off by the timeout: the origin misbehaved, and none of it reaches the reader.
        logger.error({ err: error, url: logUrl(req.url), status: response.status }, 'comment: the origin answered badly');
        return originFailed;
      }
      const body = parseJsonObject(text);
      // The origin's own error body is relayed as it is; one that says nothing is told as a refusal of this status.
      const fallback = ERRORS.INVALID_INPUT('the comment', `was refused (${response.status})`);
      const message = typeof body.error === 'string' ? body.error : fallback.message;
      const code = typeof body.code === 'string' ? body.code : fallback.code;
      return { status: response.status, json: { error: message, code }, messages: [message], retryAfter: response.headers.get('retry-after') };
    }
    await discardBody(response);
    logger.error({ url: logUrl(req.url), status: response.status }, 'comment: the origin refused');
    return originFailed;
  };

  const answer = (req: IncomingMessage, res: ServerResponse, oid: string, values: CommentValues, reply: Reply) => {
    const wantsJson = /application\/json/.test(req.headers.accept ?? '');
    if (reply.retryAfter !== undefined && reply.retryAfter !== null) res.setHeader('retry-after', reply.retryAfter);
    if (wantsJson) {
      const text = JSON.stringify(reply.json);
      res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    } else if (reply.status === 201) {
      res.writeHead(303, { location: `/plog/${oid}/comments/sent`, 'cache-control': 'no-store', 'content-length': '0' });
      res.end();
    } else {
      const messages = reply.messages.length > 0 ? reply.messages : [String(reply.json.error)];
      renderer.sendUncachedPage(req, res, reply.status, { kind: 'comment-refused', title: `Comment not sent · ${renderer.site.name}`, oid, messages, values });
    }
  };

  return (req, res, oid, sent) => {
    if (sent) {
      if (req.method === 'GET' || req.method === 'HEAD') renderer.sendUncachedPage(req, res, 200, { kind: 'comment-sent', title: `Comment received · ${renderer.site.name}`, oid });
      else methodNotAllowed(res, 'GET, HEAD');
      return;
    }
    if (req.method !== 'POST') {
      methodNotAllowed(res, 'POST');
      return;
    }
    readForm(req, maxBodyBytes)
      .then(async (bytes) => {
        const problem = formUtf8Problem(bytes);
        if (problem !== undefined) {
          answer(req, res, oid, { name: '', comment: '' }, refusal(ERRORS.INVALID_UTF8(problem)));
          return;
        }
        const form = new URLSearchParams(bytes.toString('utf8'));
        const values = { name: form.get('name') ?? '', comment: form.get('comment') ?? '' };
        // A filled honeypot is a bot: it is told the comment is pending, so it learns nothing, and nothing is stored.
        const reply = (form.get(HONEYPOT_FIELD) ?? '') !== '' ? { status: 201, json: { message: 'awaiting moderation' }, messages: [] } : await forward(req, oid, values);
        answer(req, res, oid, values, reply);
      })
      .catch((error: unknown) => {
        // readForm raises an AppError only for a body over the limit; anything else is a broken request stream.
        const reply = isAppError(error) ? refusal(error, 413) : refusal(ERRORS.INVALID_INPUT('the comment form', 'could not be read'));
        if (!res.headersSent) answer(req, res, oid, { name: '', comment: '' }, reply);
        else res.destroy();
      });
  };
}

/** The origin's error body, or nothing to show when it is not a JSON object (a proxy's page, say). */
function parseJsonObject(text: string): { error?: unknown; code?: unknown } {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

function methodNotAllowed(res: ServerResponse, allow: string): void {
  res.writeHead(405, { allow, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'content-length': '18' });
  res.end('Method Not Allowed');
}
