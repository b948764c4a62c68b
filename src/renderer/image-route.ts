import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ERRORS } from '../error-codes.js';
import { discardBody } from '../http/index.js';
import { logUrl } from '../log-bounds.js';
import type { Logger } from '../log.js';
import { CONTENT_TYPES, IMMUTABLE, parseImageName } from '../origin/images/names.js';

export interface ImageRouteOptions {
  apiBase: string;
  fetch: typeof fetch;
  /** For the origin's headers and the whole file. */
  timeoutMs: number;
  /** Largest file passed on; the origin declares each file's length, and a longer one is not read. */
  maxBytes: number;
  logger: Logger;
}

/**
 * Headers of every file: kept a year by browsers and the edge (the name is the content's hash, so it never changes),
 * its type from its name alone (never sniffed, never the origin's word), and no script or style if it is opened as a
 * document.
 */
function fileHeaders(name: string, format: keyof typeof CONTENT_TYPES): Record<string, string> {
  return {
    'content-type': CONTENT_TYPES[format],
    'cache-control': IMMUTABLE,
    etag: `"${name}"`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
  };
}

function refuse(req: IncomingMessage, res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
  res.end(req.method === 'HEAD' ? undefined : text);
}

/** Fails the stream at the first byte past `limit`: the origin said how long the file is, and no more is passed on. */
function atMost(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(limit < seen ? ERRORS.UPSTREAM_ANSWER_TOO_LARGE('an image from the origin', limit) : null, chunk);
    },
  });
}

/**
 * `GET /_render/image/<name>` at the front: a name of the image rule is fetched from the origin's
 * `/api/v1/images/<name>` and streamed on; anything else is a 404 without asking the origin. The fronts may run on
 * other hosts than the origin, so they read the files through its API, never from a disk.
 */
export function createImageRoute(options: ImageRouteOptions): (req: IncomingMessage, res: ServerResponse, name: string) => void {
  const apiBase = options.apiBase.replace(/\/+$/, '');
  const serve = async (req: IncomingMessage, res: ServerResponse, name: string): Promise<void> => {
    const image = parseImageName(name);
    if (image === undefined) {
      refuse(req, res, 404, 'Not Found');
      return;
    }
    const headers = fileHeaders(name, image.format);
    if (req.headers['if-none-match']?.split(',').some((tag) => tag.trim() === headers.etag) === true) {
      res.writeHead(304, { 'cache-control': headers['cache-control'], etag: headers.etag });
      res.end();
      return;
    }
    const url = `${apiBase}/api/v1/images/${name}`;
    const method = req.method === 'HEAD' ? 'HEAD' : 'GET';
    const response = await options.fetch(url, { method, signal: AbortSignal.timeout(options.timeoutMs) });
    if (response.status === 404) {
      await discardBody(response);
      refuse(req, res, 404, 'Not Found');
      return;
    }
    const length = Number(response.headers.get('content-length') ?? Number.NaN);
    if (response.status !== 200 || !Number.isSafeInteger(length) || length > options.maxBytes) {
      await discardBody(response);
      throw ERRORS.ORIGIN_REFUSED(response.status, url, Number.isSafeInteger(length) ? `${length} bytes` : 'no Content-Length');
    }
    res.writeHead(200, { ...headers, 'content-length': String(length) });
    if (method === 'HEAD' || response.body === null) {
      await discardBody(response);
      res.end();
      return;
    }
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), atMost(length), res);
  };
  return (req, res, name) => {
    serve(req, res, name).catch((error: unknown) => {
      // A reader who goes away mid-file (a lazy image scrolled past) is no failure of the origin's.
      const readerLeft = (error as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE';
      if (!readerLeft) options.logger.error({ err: error, url: logUrl(req.url) }, 'image from the origin failed');
      refuse(req, res, 502, 'Bad Gateway');
    });
  };
}
