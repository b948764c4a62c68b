import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerMatches, bearerToken } from './auth.js';
import { sendJson, sendText } from './http-answers.js';
import type { PurgeRequest } from './options.js';
import { validatePurgeBody, type PathnameLimits } from './pathnames.js';
import type { KeyLimits } from './surrogate-keys.js';
import { jsonUtf8Problem } from './utf8-body.js';

export interface PurgeRouteOptions extends PathnameLimits, KeyLimits {
  maxPurgeBodyBytes: number;
  purgeSecret: string | undefined;
  purge(request: PurgeRequest): string[] | Promise<string[]>;
}

/** Whether a request URL is the purge route's: its path, bare or with a query string. */
export function isPurgeRoute(url: string, purgePath: string): boolean {
  return url.startsWith(purgePath) && (url.length === purgePath.length || url.charCodeAt(purgePath.length) === 63 /* ? */);
}

type BodyResult = { ok: true; bytes: Buffer } | { ok: false; tooLarge: boolean };

/** Reads the request body up to `limit` bytes; stops reading as soon as it would exceed it. */
function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const settle = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit) {
        req.pause();
        settle({ ok: false, tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => settle({ ok: true, bytes: Buffer.concat(chunks, length) }));
    req.once('error', () => settle({ ok: false, tooLarge: false }));
    req.once('close', () => settle({ ok: false, tooLarge: false }));
  });
}

function tooLarge(res: ServerResponse, limit: number): void {
  sendText(res, 413, `request body larger than ${limit} bytes`, { connection: 'close' });
}

/**
 * Answers the purge route (spec §4, DESIGN §3): POST only (405 otherwise); body over the limit → 413; not UTF-8 → 400
 * naming the field; not JSON → 400;
 * invalid `pathnames` or `keys` → 400 with the validation message; then bearer auth (no bearer credentials → 401, wrong token or
 * no secret configured → 403); then the purge → 200 `{ purged }`.
 */
export async function answerPurge(req: IncomingMessage, res: ServerResponse, options: PurgeRouteOptions): Promise<void> {
  if (req.method !== 'POST') {
    sendText(res, 405, 'Method Not Allowed', { allow: 'POST' });
    return;
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > options.maxPurgeBodyBytes) {
    tooLarge(res, options.maxPurgeBodyBytes);
    return;
  }
  let parsed: unknown;
  const preParsed = (req as { body?: unknown }).body;
  if (req.readableEnded && preParsed !== undefined) {
    // A body parser mounted before the cache has read the stream already; take what it parsed.
    parsed = preParsed;
  } else {
    const body = await readBody(req, options.maxPurgeBodyBytes);
    if (!body.ok) {
      if (body.tooLarge) tooLarge(res, options.maxPurgeBodyBytes);
      return;
    }
    // Bad bytes would be purged as U+FFFD, a pathname no page has: refused, naming the field, like the origin's bodies.
    const problem = jsonUtf8Problem(body.bytes);
    if (problem !== undefined) {
      sendText(res, 400, problem);
      return;
    }
    try {
      parsed = JSON.parse(body.bytes.toString('utf8'));
    } catch {
      sendText(res, 400, 'request body is not valid JSON');
      return;
    }
  }
  const validation = validatePurgeBody(parsed, options);
  if (!validation.ok) {
    sendText(res, 400, validation.message);
    return;
  }
  const authorization = req.headers.authorization;
  if (options.purgeSecret !== undefined && bearerToken(authorization) === undefined) {
    sendText(res, 401, 'Unauthorized', { 'www-authenticate': 'Bearer' });
    return;
  }
  if (!bearerMatches(authorization, options.purgeSecret)) {
    sendText(res, 403, 'Forbidden');
    return;
  }
  sendJson(res, 200, { purged: await options.purge({ pathnames: validation.pathnames, keys: validation.keys }) });
}
