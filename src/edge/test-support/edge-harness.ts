import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import { edgePaths, type EdgeConfigOptions } from '../nginx-config.js';
import { findNginx, NGINX_INSTALL_HINT, spawnNginx, waitUntilListening, workerUser, writeEdgeConfig } from '../nginx-process.js';
import { rawText, type RawTextReply } from '../../test-support/raw-http.js';

/**
 * The nginx binary for tests. Missing locally: undefined plus a loud message (the caller skips). Missing in CI
 * (`process.env.CI`): an error, so the suite fails instead of skipping.
 */
export function nginxForTests(): { nginx: string; skip: false } | { nginx: undefined; skip: string } {
  const nginx = findNginx(process.env.NGINX_BIN ?? 'nginx', process.env.PATH);
  if (nginx !== undefined) return { nginx, skip: false };
  const message = `nginx is not installed: these tests need the real nginx (${NGINX_INSTALL_HINT})`;
  if (process.env.CI) throw new Error(`${message}; CI must never skip them`);
  process.stderr.write(`\n*** SKIPPED: ${message} ***\n\n`);
  return { nginx: undefined, skip: message };
}

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A port that was free a moment ago (nginx needs a concrete port, not 0). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

export async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

export async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  const closed = once(server, 'close');
  server.close();
  server.closeAllConnections();
  await closed;
}

/**
 * A stand-in for the front, as the edge sees it: a cacheable page and data route whose content has a version, a 404,
 * `/api/` answers with and without a public Cache-Control, private and cookie-setting pages, a bearer-protected
 * `/account`, and a count of calls per path.
 */
export interface FakeFront {
  port: number;
  /** Calls received per path (query string included). */
  calls: Map<string, number>;
  /** Request headers of the latest call per path. */
  lastHeaders: Map<string, IncomingHttpHeaders>;
  /** Bumped by tests to change what every page says. */
  version: number;
  /** Paths that now answer the status given (404 or 410: a deleted post), marked `no-store` as the real front does. */
  gone: Map<string, 404 | 410>;
  /** Paths that now answer 500. */
  failing: Set<string>;
  callsTo(path: string): number;
  stop(): Promise<void>;
}

export async function startFakeFront(): Promise<FakeFront> {
  const front: FakeFront = {
    port: 0,
    calls: new Map(),
    lastHeaders: new Map(),
    version: 1,
    gone: new Map(),
    failing: new Set(),
    callsTo: (path) => front.calls.get(path) ?? 0,
    stop: () => closeServer(server),
  };
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    front.calls.set(url, front.callsTo(url) + 1);
    front.lastHeaders.set(url, req.headers);
    const path = url.split('?')[0] ?? '/';
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const goneStatus = front.gone.get(path);
    if (goneStatus !== undefined) {
      res.writeHead(goneStatus, { 'content-type': 'text/html', 'cache-control': 'no-store' });
      res.end(`<h1>${path} gone (${goneStatus})</h1>`);
    } else if (front.failing.has(path)) {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<h1>render failed</h1>');
    } else if (path.startsWith('/_render/data/')) {
      // A data route as the renderer answers it; one ending in /slow.json takes a while to render.
      const answer = () => json(200, { page: path, version: front.version }, { 'cache-control': 'public,max-age=86400' });
      if (path.endsWith('/slow.json')) setTimeout(answer, 300);
      else answer();
    } else if (path === '/slow') {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'public,max-age=86400' });
        res.end(`<p>slow v${front.version}</p>`);
      }, 300);
    } else if (path === '/short' || path === '/api/short') {
      res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'public, max-age=1' });
      res.end(`<p>short v${front.version}</p>`);
    } else if (path === '/account') {
      if (req.headers.authorization === 'Bearer s3cret') json(200, { entries: 1, caller: 'admin' });
      else json(401, { error: 'Unauthorized' });
    } else if (path === '/missing' || path === '/api/missing') {
      // A public Cache-Control on purpose: the edge itself must refuse to keep anything but a 200.
      res.writeHead(404, { 'content-type': 'text/html', 'cache-control': 'public,max-age=86400' });
      res.end('<h1>not found</h1>');
    } else if (path === '/private-missing') {
      res.writeHead(404, { 'content-type': 'text/html', 'cache-control': 'private' });
      res.end(`<h1>not found for you v${front.version}</h1>`);
    } else if (path === '/api/autocomplete') {
      json(200, { q: 'ab', matches: [], version: front.version });
    } else if (path === '/api/shared-short') {
      // Shaped like a search answer: browsers may keep it longer than shared caches may.
      json(200, { version: front.version }, { 'cache-control': 'public, max-age=3600, s-maxage=1' });
    } else if (path === '/api/limited') {
      // Shaped like a rate-limited search answer that tells each client its own remaining count.
      json(200, { version: front.version }, { 'cache-control': 'public, max-age=10, s-maxage=50', 'ratelimit-remaining': String(100 - front.callsTo(url)) });
    } else if (path === '/api/cached') {
      json(200, { version: front.version }, { 'cache-control': 'public, max-age=3600' });
    } else if (path === '/api/private') {
      json(200, { version: front.version }, { 'cache-control': 'private, max-age=3600' });
    } else if (path === '/private') {
      res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'private, max-age=86400' });
      res.end(`<p>private v${front.version}</p>`);
    } else if (path === '/cookie') {
      res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'public,max-age=86400', 'set-cookie': 'session=abc' });
      res.end(`<p>cookie v${front.version}</p>`);
    } else {
      // Named by surrogate keys, as the renderer names its pages.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public,max-age=86400', 'surrogate-key': `listing:home post:${path.slice(1).replace(/\W+/g, '-')}` });
      res.end(`<p>${path} v${front.version} for ${req.headers['x-forwarded-host'] ?? '(no x-forwarded-host)'}</p>`);
    }
  });
  front.port = await listen(server);
  return front;
}

/** The refresh secret of every test edge (`refreshSecret`), as the purge client and refreshing tests send it. */
export const TEST_REFRESH_SECRET = 'test-edge-refresh-secret';

export interface RunningEdge {
  url: string;
  port: number;
  edgeDir: string;
  /** What nginx wrote on stderr, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/** The test secret unless `settings` names one, or names none with `refreshSecret: undefined`. */
function refreshSecret(settings: { refreshSecret?: string | undefined }): { refreshSecret?: string } {
  const secret = 'refreshSecret' in settings ? settings.refreshSecret : TEST_REFRESH_SECRET;
  return secret === undefined ? {} : { refreshSecret: secret };
}

/** Starts the real nginx with the generated config in `edgeDir`, in front of 127.0.0.1:`upstreamPort`. */
export async function startEdge(
  nginx: string,
  edgeDir: string,
  upstreamPort: number,
  settings: Pick<EdgeConfigOptions, 'goneValidSeconds' | 'dataRouteValidSeconds' | 'publicHost'> & {
    refreshSecret?: string | undefined;
    /** Its own address as the public host, as `sitestack edge` makes it of a `CDN_BASE_URL` naming the edge. */
    ownPublicHost?: boolean;
  } = {},
): Promise<RunningEdge> {
  let lastError: unknown;
  const { ownPublicHost, ...options } = settings;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const configFile = writeEdgeConfig({
      edgeDir,
      listen: { host: '127.0.0.1', port },
      upstreams: [{ host: '127.0.0.1', port: upstreamPort }],
      user: workerUser(process.getuid?.(), userInfo().username),
      workerProcesses: 1,
      ...options,
      ...(ownPublicHost === true ? { publicHost: `127.0.0.1:${port}` } : {}),
      ...refreshSecret(settings),
    });
    const running = spawnNginx(nginx, edgeDir, configFile, { stdio: 'pipe', ownProcessGroup: true });
    let output = '';
    running.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    try {
      await waitUntilListening(running, edgePaths(edgeDir).pid);
      return {
        url: `http://127.0.0.1:${port}`,
        port,
        edgeDir,
        output: () => output,
        stop: async () => {
          await running.stop();
        },
      };
    } catch (error) {
      await running.stop();
      lastError = new Error(`${(error as Error).message}: ${output}`);
      if (!output.includes('Address already in use')) break;
    }
  }
  throw lastError;
}

/** Spellings of `path` that nginx routes to it: case, trailing slash, escapes, dot segments, doubled slashes, a query. */
export function routedSpellings(path: string): string[] {
  const name = path.slice(1);
  const escaped = [...name].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
  return [
    path,
    `${path}/`,
    path.toUpperCase(),
    `/${escaped}`,
    `/${escaped.toUpperCase()}`,
    `//${name}`,
    `/x/../${name}`,
    `/./${name}`,
    `/x/%2e%2e/${name}`,
    `${path}?token=x`,
    `${path}#`,
    `${path}/stats`,
  ];
}

export type Answer = RawTextReply;

/** A GET on a fresh connection, with any headers (including Host, which fetch cannot set). */
export async function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { origin, pathname, search } = new URL(url);
  return rawText(origin, `${pathname}${search}`, { headers });
}

/** A fake front, an edge in front of it and the folder they use: what each edge test starts afresh. */
export interface EdgeStack {
  front: FakeFront;
  edge: RunningEdge;
  dir: ReturnType<typeof tempDir>;
}

export async function startEdgeStack(nginx: string, dirPrefix: string): Promise<EdgeStack> {
  const dir = tempDir(dirPrefix);
  const front = await startFakeFront();
  const edge = await startEdge(nginx, join(dir.path, 'edge'), front.port);
  return { front, edge, dir };
}

export async function stopEdgeStack({ front, edge, dir }: EdgeStack): Promise<void> {
  await edge.stop();
  await front.stop();
  dir.remove();
}

/** A fresh edge stack for each test of the calling suite, handed to `started` before the test and stopped after it. */
export function edgeStackPerTest(nginx: string, dirPrefix: string, started: (stack: EdgeStack) => void): void {
  let stack: EdgeStack;
  beforeEach(async () => {
    stack = await startEdgeStack(nginx, dirPrefix);
    started(stack);
  });
  afterEach(() => stopEdgeStack(stack));
}
