import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './stack.js';

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
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir, '--logfile', ''], {
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
