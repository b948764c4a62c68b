import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort, get, nginxForTests, startFakeFront, tempDir, type FakeFront } from '../src/edge/test-support/edge-harness.js';
import { readSharedSecrets } from '../src/server/secrets.js';

const { skip } = nginxForTests();
const CLI = join(import.meta.dirname, '..', 'src', 'cli.ts');

interface Cli {
  child: ChildProcess;
  stdout: string[];
  stderr(): string;
  /** Resolves with the first stdout line matching `pattern`, or rejects when the CLI exits first. */
  line(pattern: RegExp): Promise<string>;
  exit: Promise<number | null>;
}

/** Runs `sitestack <args>` in its own process group (so cleanup can end it and its nginx together). */
function runCli(args: string[], env: Record<string, string>): Cli {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const stdout: string[] = [];
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => stdout.push(line));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  return {
    child,
    stdout,
    stderr: () => stderr,
    exit,
    line: (pattern) =>
      new Promise((resolve, reject) => {
        const found = stdout.find((line) => pattern.test(line));
        if (found !== undefined) return resolve(found);
        lines.on('line', (line) => pattern.test(line) && resolve(line));
        void exit.then((code) => reject(new Error(`sitestack exited with ${code} before printing ${pattern}: ${stderr}`)));
      }),
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('sitestack edge', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function track(cli: Cli): Cli {
    cleanups.push(async () => {
      if (cli.child.exitCode === null && cli.child.signalCode === null) {
        try {
          process.kill(-cli.child.pid!, 'SIGKILL');
        } catch {
          // Already gone.
        }
        await cli.exit;
      }
    });
    return cli;
  }

  function dataDir(): string {
    const dir = tempDir('sitestack-edge-cli-');
    cleanups.push(() => dir.remove());
    return dir.path;
  }

  it('prints its usage when given --help', async () => {
    const cli = track(runCli(['edge', '--help'], {}));
    assert.equal(await cli.exit, 0);
    assert.match(cli.stdout.join('\n'), /Usage: sitestack edge \[--check\] \[--access-log\]/);
  });

  it('names the package to install when nginx is missing', async () => {
    const cli = track(runCli(['edge'], { DATA_DIR: dataDir(), NGINX_BIN: '/nonexistent/nginx' }));
    assert.equal(await cli.exit, 2);
    assert.match(cli.stderr(), /nginx is not installed \('\/nonexistent\/nginx' is not an executable file\): install it with `apt-get install nginx`/);
  });

  it('refuses an unknown option or a malformed EDGE_UPSTREAM with a clear message', async () => {
    const unknown = track(runCli(['edge', '--daemon'], { DATA_DIR: dataDir() }));
    assert.equal(await unknown.exit, 2);
    assert.match(unknown.stderr(), /unknown option '--daemon'/);
    const badUpstream = track(runCli(['edge'], { DATA_DIR: dataDir(), EDGE_UPSTREAM: 'http://front:3000/app' }));
    assert.equal(await badUpstream.exit, 2);
    assert.match(badUpstream.stderr(), /expected EDGE_UPSTREAM to be http:\/\/host:port/);
  });

  it('stops with a clear message when DATA_DIR or EDGE_PORT cannot be used by nginx', async () => {
    const dollar = track(runCli(['edge', '--check'], { DATA_DIR: `${dataDir()}/$host` }));
    assert.equal(await dollar.exit, 2);
    assert.match(dollar.stderr(), /contains '\$' or a control character, which nginx cannot take in a path/);
    const zero = track(runCli(['edge', '--check'], { DATA_DIR: dataDir(), EDGE_PORT: '0' }));
    assert.equal(await zero.exit, 2);
    assert.match(zero.stderr(), /expected a port from 1 to 65535, got '0'/);
  });

  it('writes and checks the config without starting nginx when given --check', { skip }, async () => {
    const dir = dataDir();
    const port = await freePort();
    const cli = track(runCli(['edge', '--check'], { DATA_DIR: dir, EDGE_PORT: String(port) }));
    assert.equal(await cli.exit, 0, cli.stderr());
    const configFile = join(dir, 'edge', 'nginx.conf');
    assert.deepEqual(cli.stdout, [`nginx config OK: ${configFile}`]);
    assert.match(readFileSync(configFile, 'utf8'), new RegExp(`listen 127\\.0\\.0\\.1:${port} default_server;`));
    await assert.rejects(get(`http://127.0.0.1:${port}/`), { code: 'ECONNREFUSED' }, 'nothing was started');
  });

  it("keys the cache on CDN_BASE_URL's host, else PUBLIC_URL's, else the requested one, when given --check", { skip }, async () => {
    const keys: string[] = [];
    for (const env of [{ CDN_BASE_URL: 'http://Blog.Example:8080', PUBLIC_URL: 'https://other.example' }, { PUBLIC_URL: 'https://blog.example' }, {}]) {
      const dir = dataDir();
      const cli = track(runCli(['edge', '--check'], { DATA_DIR: dir, EDGE_PORT: String(await freePort()), CDN_BASE_URL: '', PUBLIC_URL: '', ...env }));
      assert.equal(await cli.exit, 0, cli.stderr());
      keys.push(/proxy_cache_key "\$scheme:\/\/([^$]*|\$http_host)\$sitestack_edge_target/.exec(readFileSync(join(dir, 'edge', 'nginx.conf'), 'utf8'))?.[1] ?? '');
    }
    assert.deepEqual(keys, ['blog.example:8080', 'blog.example', '$http_host']);
  });

  it('writes EDGE_REFRESH_SECRET into an owner-only nginx.conf, and the shared one of DATA_DIR/secrets.json without it', { skip }, async () => {
    const withSecret = dataDir();
    const secret = 'edge-cli-refresh-secret';
    const cli = track(runCli(['edge', '--check'], { DATA_DIR: withSecret, EDGE_PORT: String(await freePort()), EDGE_REFRESH_SECRET: secret, LOG_LEVEL: 'warn' }));
    assert.equal(await cli.exit, 0, cli.stderr());
    const configFile = join(withSecret, 'edge', 'nginx.conf');
    assert.ok(readFileSync(configFile, 'utf8').includes(`"${secret}" 1;`));
    assert.equal(statSync(configFile).mode & 0o777, 0o600);
    assert.doesNotMatch(cli.stderr(), /EDGE_REFRESH_SECRET/);
    const shared = dataDir();
    const without = track(runCli(['edge', '--check'], { DATA_DIR: shared, EDGE_PORT: String(await freePort()), LOG_LEVEL: 'warn' }));
    assert.equal(await without.exit, 0, without.stderr());
    const sharedSecret = readSharedSecrets(shared)?.edgeRefreshSecret;
    assert.ok(sharedSecret !== undefined && sharedSecret !== secret, 'secrets.json was made with a refresh secret of its own');
    assert.ok(readFileSync(join(shared, 'edge', 'nginx.conf'), 'utf8').includes(`"${sharedSecret}" 1;`));
  });

  it('runs nginx in the foreground in front of the front, logs cache statuses and exits 0 with it when sent SIGTERM', { skip }, async () => {
    const front: FakeFront = await startFakeFront();
    cleanups.push(() => front.stop());
    const dir = dataDir();
    const port = await freePort();
    const cli = track(runCli(['edge', '--access-log'], { DATA_DIR: dir, EDGE_PORT: String(port), EDGE_UPSTREAM: `http://127.0.0.1:${front.port}` }));
    assert.match(await cli.line(/^edge listening on/), new RegExp(`^edge listening on http://127\\.0\\.0\\.1:${port} → http://127\\.0\\.0\\.1:${front.port}`));

    assert.equal((await get(`http://127.0.0.1:${port}/plog/hello`)).headers['x-cache'], 'MISS');
    assert.equal((await get(`http://127.0.0.1:${port}/plog/hello`)).headers['x-cache'], 'HIT');
    assert.equal(front.callsTo('/plog/hello'), 1);

    const nginxPid = Number(readFileSync(join(dir, 'edge', 'nginx.pid'), 'utf8'));
    assert.ok(isAlive(nginxPid));
    cli.child.kill('SIGTERM');
    assert.equal(await cli.exit, 0, cli.stderr());
    assert.equal(isAlive(nginxPid), false, 'nginx stopped with sitestack');
    const log = readFileSync(join(dir, 'edge', 'access.log'), 'utf8').trim().split('\n');
    // Each nginx worker buffers its own log lines, so their order in the file is not the order of the requests.
    const statuses = log.map((line) => /"GET \/plog\/hello HTTP\/1\.1" 200 \d+ (\w+) /.exec(line)?.[1]).sort();
    assert.deepEqual(statuses, ['HIT', 'MISS'], log.join('\n'));
  });

  it('passes SIGINT on to nginx and exits with its status when interrupted', { skip }, async () => {
    const dir = dataDir();
    const cli = track(runCli(['edge'], { DATA_DIR: dir, EDGE_PORT: String(await freePort()) }));
    await cli.line(/^edge listening on/);
    const nginxPid = Number(readFileSync(join(dir, 'edge', 'nginx.pid'), 'utf8'));
    cli.child.kill('SIGINT');
    assert.equal(await cli.exit, 0, cli.stderr());
    assert.equal(isAlive(nginxPid), false);
  });

  it('stops with one line naming EDGE_PORT, exit 2, before nginx runs, when EDGE_PORT is taken', { skip }, async () => {
    const blocker = createServer();
    blocker.listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const { port } = blocker.address() as { port: number };
    const cli = track(runCli(['edge'], { DATA_DIR: dataDir(), EDGE_PORT: String(port) }));
    assert.equal(await cli.exit, 2);
    assert.match(cli.stderr(), new RegExp(`^sitestack: EDGE_PORT=${port} on HOST=127\\.0\\.0\\.1 is already in use: stop the process using it or set another port\n$`));
  });
});

