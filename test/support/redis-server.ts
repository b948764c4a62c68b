import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { eventually, freePort } from './stack.js';

/** A real `redis-server` on 127.0.0.1 with a data folder of its own, for the fleet's tests. */
export interface RedisServer {
  url: string;
  port: number;
  /** Ends it at once (SIGKILL): what it held survives only with `persistent`. */
  kill(): Promise<void>;
  /** Starts it again on the same port and folder (after `kill`): with `persistent`, with the data it had. */
  start(): Promise<void>;
  /** Kills it, deletes its data and starts it again: a Redis that lost everything. */
  restartEmpty(): Promise<void>;
  /** SIGSTOP: connections stay open, nothing is answered (a network pause). */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  /** Kills it and removes its folder. */
  stop(): Promise<void>;
}

export interface RedisServerOptions {
  /** An append-only file synced on every write, so a killed server comes back with its data. @default false */
  persistent?: boolean;
  /** The port of a server on 127.0.0.1 to replicate (`--replicaof`). */
  replicaOf?: number;
}

/** Where redis-server's data folders go: `REDIS_TEST_DIR` when set, else the system's temporary folder. */
function dataRoot(): string {
  const root = process.env['REDIS_TEST_DIR'] ?? tmpdir();
  mkdirSync(root, { recursive: true });
  return root;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts `redis-server` on a free port; resolves when it accepts connections. */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(dataRoot(), 'sitestack-redis-'));
  const port = await freePort();
  const persistence = options.persistent === true ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    const replication = options.replicaOf === undefined ? [] : ['--replicaof', '127.0.0.1', String(options.replicaOf)];
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, ...replication, '--dir', dir, '--logfile', ''], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      started.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      started.once('error', reject);
      started.once('exit', (code) => reject(new Error(`redis-server exited with ${code} before it was ready: ${output.slice(-500)}`)));
    });
  };

  const kill = async (): Promise<void> => {
    if (child === undefined) return;
    const ending = child;
    ending.kill('SIGCONT');
    ending.kill('SIGKILL');
    await exited(ending);
    child = undefined;
  };

  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    start: launch,
    async restartEmpty() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      await launch();
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A real Redis Sentinel (`redis-server --sentinel`) watching one primary, quick to call it down and fail over. */
export interface RedisSentinel {
  /** The fleet's `REDIS_URL` through this sentinel: `redis+sentinel://127.0.0.1:<port>/<name>`. */
  url: string;
  name: string;
  /** The port of the server the sentinel names as primary now. */
  primaryPort(): Promise<number>;

  stop(): Promise<void>;
}

/** Starts a sentinel monitoring the primary on `primaryPort` as `name`; resolves once it names that primary. */
export async function startRedisSentinel(primaryPort: number, name = 'sitestack'): Promise<RedisSentinel> {
  const dir = mkdtempSync(join(dataRoot(), 'sitestack-sentinel-'));
  const port = await freePort();
  const conf = join(dir, 'sentinel.conf');
  writeFileSync(
    conf,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${name} 127.0.0.1 ${primaryPort} 1`,
      `sentinel down-after-milliseconds ${name} 500`,
      `sentinel failover-timeout ${name} 3000`,
      '',
    ].join('\n'),
  );
  const child = spawn('redis-server', [conf, '--sentinel'], { stdio: 'ignore' });
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
  client.on('error', () => undefined);
  const namedPrimaryPort = async (): Promise<number> => {
    const answer = (await client.call('SENTINEL', 'get-master-addr-by-name', name)) as [string, string] | null;
    return Number(answer?.[1] ?? Number.NaN);
  };
  await eventually('the sentinel answers', async () => (await namedPrimaryPort().catch(() => Number.NaN)) === primaryPort, 10_000);
  return {
    url: `redis+sentinel://127.0.0.1:${port}/${name}`,
    name,
    primaryPort: namedPrimaryPort,
    async stop() {
      client.disconnect();
      child.kill('SIGKILL');
      await exited(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A real Redis Cluster of primaries only (`redis-server --cluster-enabled yes`), its slots spread by `redis-cli --cluster create`. */
export interface RedisCluster {
  /** Each node's port, in the order the slots were given out. */
  ports: number[];
  /** The port of the node serving `key`'s slot now. */
  nodeOf(key: string): Promise<number>;
  stop(): Promise<void>;
}

export async function startRedisCluster(size = 3): Promise<RedisCluster> {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  for (let index = 0; index < size; index++) {
    const dir = mkdtempSync(join(dataRoot(), 'sitestack-cluster-'));
    const port = await freePort();
    dirs.push(dir);
    ports.push(port);
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf'), '--cluster-node-timeout', '1000', '--logfile', ''],
      { stdio: 'ignore' },
    );
    children.push(child);
  }
  const stop = async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  const client = new Redis({ port: ports[0], host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
  client.on('error', () => undefined);
  try {
    await eventually('the cluster nodes answer', async () => (await client.ping().catch(() => '')) === 'PONG', 10_000);
    const create = spawn('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    create.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    create.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => create.once('exit', resolve));
    if (code !== 0) throw new Error(`redis-cli --cluster create exited with ${code}: ${output.slice(-500)}`);
    await eventually('the cluster is ok', async () => String(await client.call('CLUSTER', 'INFO')).includes('cluster_state:ok'), 10_000);
  } catch (error) {
    client.disconnect();
    await stop();
    throw error;
  }
  return {
    ports,
    async nodeOf(key) {
      const slot = Number(await client.call('CLUSTER', 'KEYSLOT', key));
      const ranges = (await client.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
      const owner = ranges.find(([from, to]) => slot >= from && slot <= to);
      return Number(owner?.[2][1] ?? Number.NaN);
    },
    async stop() {
      client.disconnect();
      await stop();
    },
  };
}
