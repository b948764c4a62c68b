import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { loadConfig, type Config } from '../../src/config.js';
import { connectRedis, FLEET_DEFAULTS, fleetKeys, liveFronts, type RedisClient } from '../../src/fleet/index.js';
import { silentLogger } from '../../src/log.js';
import { sendFresh, spawnTypeScript, type Answer } from '../../src/server/test-support/child-processes.js';
import { startOrigin, type RunningOrigin } from '../../src/server/origin-command.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { ADMIN_TOKEN, eventually, freePort, PURGE_SECRET } from './stack.js';

/** The CLI beside this file: its TypeScript source in tests, its compiled form when the benchmarks run from build/. */
const CLI = [fileURLToPath(new URL('../../src/cli.ts', import.meta.url)), fileURLToPath(new URL('../../src/cli.js', import.meta.url))].find((file) => existsSync(file)) ?? '';

/** Quick heartbeats and a short TTL, so a paused front leaves the live list within a second. */
export const FLEET_TEST_ENV = {
  FLEET_PREFIX: 'fleet-e2e',
  FLEET_HEARTBEAT_MS: '200',
  FLEET_MEMBER_TTL_MS: '1000',
  FLEET_APPLY_WAIT_MS: '3000',
  REDIS_TIMEOUT_MS: '1000',
};

/** A front of the fleet as its own process (`sitestack front`), so a test can stop it with a signal. */
export interface FrontProcess {
  url: string;
  child: ChildProcess;
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

export interface FleetStack {
  redis: RedisServer;
  origin: RunningOrigin;
  config: Config;
  fronts: FrontProcess[];
  /** A Redis client of the test's own, to read the fleet or write what no origin would. */
  client: RedisClient;
  /**
   * Starts one more front (`--workers N`: N processes), with `env` over the stack's; resolves once it listens and every
   * process joined the fleet.
   */
  addFront(workers?: number, env?: Record<string, string>): Promise<FrontProcess>;
  /** Fronts alive in the fleet now. */
  alive(): Promise<number>;
  close(): Promise<void>;
}

/**
 * A real origin (in this process) and `sitestack front` processes sharing one real redis-server, or the Redis
 * `redisUrl` names (a Sentinel's address; the stack's own server then stays idle).
 */
export async function startFleetStack(options: { persistentRedis?: boolean; env?: Record<string, string>; redisUrl?: string } = {}): Promise<FleetStack> {
  const redis = await startRedisServer({ persistent: options.persistentRedis ?? false });
  const originDir = mkdtempSync(join(tmpdir(), 'sitestack-fleet-origin-'));
  const frontDir = mkdtempSync(join(tmpdir(), 'sitestack-fleet-front-'));
  const env = { ...FLEET_TEST_ENV, REDIS_URL: options.redisUrl ?? redis.url, PURGE_SECRET, LOG_LEVEL: 'silent', ...options.env };
  const config = loadConfig({ ...env, DATA_DIR: originDir, ORIGIN_ADMIN_TOKEN: ADMIN_TOKEN });
  const origin = await startOrigin({ config, logger: silentLogger(), port: 0, backoff: { baseMs: 50, maxMs: 300 } });
  const client = options.redisUrl === undefined ? new Redis(redis.url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => 50 }) : connectRedis({ url: options.redisUrl, options: { ...(config.fleet ?? FLEET_DEFAULTS), reconnect: { baseMs: 50, maxMs: 50 } }, logger: silentLogger(), role: 'test' });
  client.on('error', () => undefined);
  const keys = fleetKeys(FLEET_TEST_ENV.FLEET_PREFIX);
  const fronts: FrontProcess[] = [];
  const alive = async () => (await liveFronts(client, keys, Number(FLEET_TEST_ENV.FLEET_MEMBER_TTL_MS))).length;

  const addFront = async (workers = 1, frontEnv: Record<string, string> = {}): Promise<FrontProcess> => {
    const port = await freePort();
    const { child, ready } = spawnTypeScript(CLI, ['front', ...(workers > 1 ? ['--workers', String(workers)] : [])], /front listening on (\S+)/, { ...env, DATA_DIR: frontDir, PORT: String(port), API_BASE: origin.url, ...frontEnv });
    const before = await alive().catch(() => 0);
    const front: FrontProcess = {
      url: `http://127.0.0.1:${port}`,
      child,
      pause: () => child.kill('SIGSTOP'),
      resume: () => child.kill('SIGCONT'),
      async stop() {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGCONT');
        child.kill('SIGKILL');
        await exited;
      },
    };
    fronts.push(front);
    await ready;
    await eventually('the front joins the fleet', async () => (await alive()) >= before + workers, 15_000);
    return front;
  };

  return {
    redis,
    origin,
    config,
    fronts,
    client,
    addFront,
    alive,
    async close() {
      await Promise.all(fronts.map((front) => front.stop()));
      await origin.close();
      client.disconnect();
      await redis.stop();
      rmSync(originDir, { recursive: true, force: true });
      rmSync(frontDir, { recursive: true, force: true });
    },
  };
}

/** A post's body as the admin API takes it, titled `title`. */
export const postBody = (title: string) => ({ title, body: `<p>${title} in the body.</p>`, summary: `About ${title}`, categories: ['Web'], pub_date: '2026-11-21' });

/** The post's page at one front, on a fresh connection (a `--workers` front may answer from any worker). */
export const page = (front: FrontProcess, oid: string): Promise<Answer> => sendFresh(`${front.url}/plog/${oid}`, 'GET', undefined, {}, 3_000);

/** Resolves how long it took until every front serves `title` on the post's page. */
export async function freshEverywhere(fronts: readonly FrontProcess[], oid: string, title: string, withinMs: number): Promise<number> {
  const started = Date.now();
  await eventually(`every front serves '${title}'`, async () => (await Promise.all(fronts.map((front) => page(front, oid)))).every((answer) => answer.body.includes(title)), withinMs);
  return Date.now() - started;
}

/** Resolves once every front answers the post's page from its cache; a read that raced a purge is not stored, the next is. */
export async function heldEverywhere(fronts: readonly FrontProcess[], oid: string, withinMs = 2_000): Promise<void> {
  await eventually('every front holds the page', async () => (await Promise.all(fronts.map((front) => page(front, oid)))).every((answer) => answer.headers['x-middleware-cache'] === 'hit'), withinMs);
}
