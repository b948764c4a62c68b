import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, before } from 'node:test';
import { pino, type Logger } from 'pino';
import { createPageCache, type PageCache, type PageCacheOptions } from '../src/index.js';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  bytes: Buffer;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** One HTTP request on a fresh connection; resolves with status, headers and the whole body. */
export function request(base: string, path: string, options: RequestOptions = {}): Promise<Reply> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString('utf8'), bytes });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export interface Harness {
  url: string;
  cache: PageCache;
  /** Renderer calls so far, by request URL. */
  calls: string[];
  close(): Promise<void>;
}

/** `call` counts the renderer calls of the harness, this one included: 1 for the first. */
export type Renderer = (req: IncomingMessage, res: ServerResponse, call: number) => unknown;

/** A 200 HTML page naming the URL it was rendered for, with a public Cache-Control like the real renderer's. */
export function htmlRenderer(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'public,max-age=86400');
  res.end(`<p>page ${req.url}</p>`);
}

export async function listen(listener: RequestListener): Promise<{ server: Server; url: string }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A node:http server: the page cache in front of `renderer` (also its soft purge's `revalidate`), counting renderer calls. */
export async function startCache(options: PageCacheOptions = {}, renderer: Renderer = htmlRenderer): Promise<Harness> {
  const calls: string[] = [];
  const render = (req: IncomingMessage, res: ServerResponse) => {
    calls.push(req.url ?? '');
    return renderer(req, res, calls.length);
  };
  const cache = createPageCache({ revalidate: render, ...options });
  const { server, url } = await listen((req, res) => {
    cache.handle(req, res, () => render(req, res));
  });
  return { url, cache, calls, close: () => closeServer(server) };
}

/** A pino logger whose lines are collected in `lines`. */
export function recordingLogger(): { logger: Logger; lines: Array<{ level: number; msg: string }> } {
  const lines: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString('utf8')) as { level: number; msg: string });
      callback();
    },
  });
  return { logger: pino({ level: 'debug' }, sink), lines };
}

/** A promise with its resolve function, to hold a renderer until the test lets it go. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends `count` requests at once while `hold` keeps the render back, opens it once they have arrived, and gives their replies. */
export async function whileHeld(hold: { open(): void }, send: () => Promise<Reply>, count: number): Promise<Reply[]> {
  const replies = Array.from({ length: count }, send);
  await delay(100);
  hold.open();
  return Promise.all(replies);
}

/** Runs `test` against a page cache in front of `renderer` (as `startCache`), closing it however the test ends. */
export async function withCache<T>(options: PageCacheOptions, renderer: Renderer, test: (h: Harness) => Promise<T>): Promise<T> {
  const h = await startCache(options, renderer);
  try {
    return await test(h);
  } finally {
    await h.close();
  }
}

/**
 * A page cache shared by the tests of one suite (as `startCache`): it starts in the suite's `before` hook and closes in
 * its `after` hook, so its fields can be read only from the tests.
 */
export function cacheForSuite(options: PageCacheOptions = {}, renderer: Renderer = htmlRenderer): Harness {
  let started: Harness | undefined;
  before(async () => {
    started = await startCache(options, renderer);
  });
  after(() => started?.close());
  const running = (): Harness => {
    if (started === undefined) throw new Error('the suite page cache starts in the before hook: read it from a test');
    return started;
  };
  return {
    get url() {
      return running().url;
    },
    get cache() {
      return running().cache;
    },
    get calls() {
      return running().calls;
    },
    close: () => running().close(),
  };
}
