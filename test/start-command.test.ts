import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/stack.js';

const children: ChildProcess[] = [];
const dirs: string[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

async function output(child: ChildProcess, pattern: RegExp): Promise<string> {
  let text = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (pattern.test(text)) resolve(text);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing ${pattern}: ${text}`)));
  });
}

describe('sitestack start', () => {
  it('starts origin and front, prints their URLs, purges locally without PURGE_SECRET, and stops on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-start-'));
    dirs.push(dataDir);
    const [port, originPort] = [await freePort(), await freePort()];
    const child = cli(['start'], { DATA_DIR: dataDir, PORT: String(port), ORIGIN_PORT: String(originPort), ORIGIN_ADMIN_TOKEN: 'tok', PURGE_SECRET: '' });
    const printed = await output(child, /origin\s+\S+/);
    assert.match(printed, new RegExp(`front\\s+http://127\\.0\\.0\\.1:${port}/`));
    assert.match(printed, new RegExp(`origin\\s+http://127\\.0\\.0\\.1:${originPort}/api/v1/plog/`));
    const front = `http://127.0.0.1:${port}`;
    const built = readdirSync(join(dataDir, 'build'), { recursive: true }).filter((file) => String(file).endsWith('index.json'));
    assert.ok(built.length >= 30, `the first start ran the content build for the search index (${built.length} documents)`);
    assert.equal((await fetch(`${front}/plog/first-look-sqlite`)).headers.get('x-middleware-cache'), 'miss');
    assert.equal((await fetch(`${front}/plog/first-look-sqlite`)).headers.get('x-middleware-cache'), 'hit');
    const edit = await fetch(`http://127.0.0.1:${originPort}/api/v1/plog/first-look-sqlite`, {
      method: 'PUT',
      headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Retitled by the start test', body: '<p>x</p>', pub_date: '2026-03-02' }),
    });
    assert.equal(edit.status, 200);
    const deadline = Date.now() + 2_000;
    let text = '';
    while (!text.includes('Retitled by the start test') && Date.now() < deadline) text = await (await fetch(`${front}/plog/first-look-sqlite`)).text();
    assert.match(text, /Retitled by the start test/);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
  });

  it('stops with exit code 2 and names the variable when the configuration is bad', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start'], { env: { ...process.env, PORT: 'eighty' }, encoding: 'utf8' });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /expected PORT to be a port number, got 'eighty'/);
  });

  it('prints usage for --help on each command', () => {
    for (const name of ['start', 'front', 'origin']) {
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', name, '--help'], { encoding: 'utf8' });
      assert.equal(result.status, 0);
      assert.match(result.stdout, new RegExp(`^Usage: sitestack ${name}`));
    }
  });
});
