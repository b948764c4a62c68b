import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/stack.js';

const SHUTDOWN_TIMEOUT_MS = 2_000;
/** The CLI's own grace after its command ended (EXIT_AFTER_RUN_MS) and a margin for a loaded machine. */
const EXIT_MARGIN_MS = 2_500;

const children: ChildProcess[] = [];
const dirs: string[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * GET on a fresh connection; the answer is read and dropped. The flood only has to fill the pipes with request log
 * lines, so a connection the loaded machine resets is not an error here: the answers are not what this file tests.
 */
function hit(url: string): Promise<void> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', resolve);
      res.on('error', () => resolve());
    });
    req.on('error', () => resolve());
    req.end();
  });
}

/**
 * Runs `sitestack <command>` with every request logged, waits until it listens, then makes it log far more than a
 * pipe holds while nobody reads its stderr.
 */
async function startFlooded(command: readonly string[]): Promise<ChildProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-pipes-'));
  dirs.push(dataDir);
  const [port, originPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...command], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      ORIGIN_PORT: String(originPort),
      LOG_LEVEL: 'info',
      LOG_REQUESTS: 'all',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      PURGE_SECRET: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  // stdout is read until the first lines are out, then never again; stderr is not read at all.
  child.stderr?.pause();
  let printed = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      printed += chunk.toString();
      if (/listening|sitestack is running/.test(printed)) {
        child.stdout?.off('data', onData);
        child.stdout?.pause();
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`sitestack ${command.join(' ')} exited with ${code} before listening`)));
  });
  const url = `http://127.0.0.1:${command[0] === 'front' ? port : originPort}/healthz`;
  // ~3,000 request log lines: about 10 times what a pipe buffers.
  for (let round = 0; round < 30; round++) await Promise.all(Array.from({ length: 100 }, () => hit(url)));
  return child;
}

async function stopTime(child: ChildProcess): Promise<{ ms: number; code: number | null }> {
  const started = Date.now();
  const exited = once(child, 'exit') as Promise<[number | null]>;
  child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS + EXIT_MARGIN_MS + 10_000, 'timeout').unref());
  const outcome = await Promise.race([exited, timeout]);
  if (outcome === 'timeout') {
    child.kill('SIGKILL');
    assert.fail(`still running ${Date.now() - started} ms after SIGTERM`);
  }
  return { ms: Date.now() - started, code: outcome[0] };
}

describe('SIGTERM with stdout and stderr blocked', () => {
  for (const command of [['origin'], ['start'], ['front', '--workers', '2']]) {
    it(`ends sitestack ${command.join(' ')} within its drain time when nobody reads its full stderr`, async () => {
      const child = await startFlooded(command);
      const { ms, code } = await stopTime(child);
      assert.ok(ms <= SHUTDOWN_TIMEOUT_MS + EXIT_MARGIN_MS, `stopped after ${ms} ms`);
      assert.equal(code, 0);
    });

    it(`ends sitestack ${command.join(' ')} within its drain time when the reader of its full pipes went away`, async () => {
      const child = await startFlooded(command);
      child.stderr?.destroy();
      child.stdout?.destroy();
      const { ms, code } = await stopTime(child);
      assert.ok(ms <= SHUTDOWN_TIMEOUT_MS + EXIT_MARGIN_MS, `stopped after ${ms} ms`);
      assert.equal(code, 0);
    });
  }
});
