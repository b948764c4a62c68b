import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort } from '../src/edge/test-support/edge-harness.js';
import { send, startUpstream } from './support/proxy.js';

const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-proxy-cli-'));
const children: ChildProcess[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('sitestack proxy (the command)', () => {
  it('forwards to --upstream, prints where it listens, and drains and exits 0 on SIGTERM with a request in flight', async () => {
    let reached: (finish: () => void) => void = () => undefined;
    const slowBegun = new Promise<() => void>((resolve) => (reached = resolve));
    const upstream = await startUpstream((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      if (req.url === '/slow') {
        res.write('begun ');
        reached(() => res.end('and finished'));
      } else res.end('hello');
    });
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'proxy', '--upstream', upstream.url], {
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_OPTIONS: '--conditions=sitestack-source' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    try {
      let printed = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on('data', (chunk: Buffer) => {
          printed += chunk.toString();
          if (printed.includes('\n')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      assert.match(printed, new RegExp(`proxy listening on http://127\\.0\\.0\\.1:${port}, forwarding to ${upstream.url}`));
      assert.equal((await send(`http://127.0.0.1:${port}/`)).body, 'hello');
      const slow = send(`http://127.0.0.1:${port}/slow`);
      const finish = await slowBegun;
      child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 200));
      finish();
      assert.equal((await slow).body, 'begun and finished');
      const [code] = (await once(child, 'exit')) as [number];
      assert.equal(code, 0);
    } finally {
      await upstream.close();
    }
  });

  it('stops with exit code 2 and the usage when no upstream is named or one is malformed', () => {
    for (const args of [[], ['--upstream', 'http://a/b?c'], ['--upstream', 'ünïcode'], ['--workers', '65']]) {
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'proxy', ...args], {
        env: { ...process.env, DATA_DIR: dataDir, UPSTREAM_URL: '', NODE_OPTIONS: '--conditions=sitestack-source' },
        encoding: 'utf8',
      });
      assert.notEqual(result.status, 0, args.join(' '));
      assert.match(result.stderr + result.stdout, /upstream|workers/, args.join(' '));
    }
  });
});
