import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { startEdge, tempDir, TEST_REFRESH_SECRET, type RunningEdge } from '../../src/edge/test-support/edge-harness.js';
import { silentLogger } from '../../src/log.js';
import { ensureSearchIndex } from '../../src/search/index.js';
import { startFront, type RunningFront, type StartFrontOptions } from '../../src/server/front-command.js';
import { startOrigin, type RunningOrigin } from '../../src/server/origin-command.js';

export const ADMIN_TOKEN = 'e2e-admin-token';
export const PURGE_SECRET = 'e2e-purge-secret';

/** A port that was free a moment ago, so the origin can be told where the front will listen before it does. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A real origin and a real front on 127.0.0.1 over a fresh DATA_DIR; `restartFront` reuses the same port. */
export interface Stack {
  config: Config;
  origin: RunningOrigin;
  front: RunningFront;
  frontUrl: string;
  originUrl: string;
  stopFront(): Promise<void>;
  startFront(options?: Pick<StartFrontOptions, 'clientBuild'>): Promise<RunningFront>;
  close(): Promise<void>;
}

export async function startStack(): Promise<Stack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-e2e-'));
  const frontPort = await freePort();
  const base = loadConfig({
    DATA_DIR: dataDir,
    ORIGIN_ADMIN_TOKEN: ADMIN_TOKEN,
    PURGE_SECRET,
    PORT: String(frontPort),
    LOG_LEVEL: 'silent',
  });
  const logger = silentLogger();
  const origin = await startOrigin({ config: base, logger, port: 0, backoff: { baseMs: 50, maxMs: 300 } });
  const config: Config = { ...base, apiBase: origin.url };
  let front: RunningFront | undefined = await startFront({ config, logger });
  const stack: Stack = {
    config,
    origin,
    front,
    frontUrl: front.url,
    originUrl: origin.url,
    async stopFront() {
      await front?.close();
      front = undefined;
    },
    async startFront(options = {}) {
      front = await startFront({ config, logger, ...options });
      stack.front = front;
      return front;
    },
    async close() {
      await front?.close();
      await origin.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return stack;
}

/** Polls `check` until it holds; the failure names what was awaited. */
export async function eventually(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An admin write to the origin at `originUrl`, with the tests' admin token; `body` is sent as JSON. */
export function adminAt(originUrl: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${originUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

export function adminRequest(stack: Stack, method: string, path: string, body?: unknown): Promise<Response> {
  return adminAt(stack.originUrl, method, path, body);
}

/** The real nginx edge in front of a port the front will take, and the real origin that purges both. */
export interface EdgeAndOrigin {
  dir: { path: string; remove(): void };
  edge: RunningEdge;
  origin: RunningOrigin;
  /** The front's configuration: `apiBase` is the origin, `PORT` the one the edge forwards to. */
  config: Config;
  /** Stops the edge and the origin and removes the data directory (the caller closes its front first). */
  close(): Promise<void>;
}

/**
 * Starts nginx (as `sitestack edge` configures it) and an origin whose outbox purges `PORT`'s front and then the edge,
 * over a fresh DATA_DIR; `env` adds to the environment the configuration is read from.
 */
export async function startEdgeAndOrigin(nginx: string, env: Record<string, string> = {}): Promise<EdgeAndOrigin> {
  const dir = tempDir('sitestack-edge-e2e-');
  const frontPort = await freePort();
  const edge = await startEdge(nginx, join(dir.path, 'edge'), frontPort, { ownPublicHost: true });
  const base = loadConfig({
    DATA_DIR: dir.path,
    ORIGIN_ADMIN_TOKEN: ADMIN_TOKEN,
    PURGE_SECRET,
    PORT: String(frontPort),
    CDN_BASE_URL: edge.url,
    EDGE_REFRESH_SECRET: TEST_REFRESH_SECRET,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const origin = await startOrigin({ config: base, logger: silentLogger(), port: 0, backoff: { baseMs: 50, maxMs: 300 } });
  return {
    dir,
    edge,
    origin,
    config: { ...base, apiBase: origin.url },
    async close() {
      await edge.stop();
      await origin.close();
      dir.remove();
    },
  };
}

/**
 * The three layers as they run in production: startEdgeAndOrigin, the origin's first search index, and the front on
 * the port the edge forwards to. Close the front, then the rest.
 */
export async function startThreeLayers(nginx: string, env: Record<string, string> = {}): Promise<{ stack: EdgeAndOrigin; front: RunningFront }> {
  const stack = await startEdgeAndOrigin(nginx, env);
  await ensureSearchIndex({ config: stack.config, logger: silentLogger() });
  return { stack, front: await startFront({ config: stack.config, logger: silentLogger() }) };
}
