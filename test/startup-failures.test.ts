import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/stack.js';

/** What an operator sees of one failed run. */
interface Run {
  status: number | null;
  stderr: string;
}

/** `sitestack …args` with `env` over a clean, free-ported environment; as `nobody` when `asOtherUser` (root reads anything). */
function sitestack(args: string[], env: Record<string, string>, asOtherUser = false): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      env: { ...process.env, LOG_LEVEL: 'info', HOME: tmpdir(), ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(asOtherUser && process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}),
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stderr });
    });
  });
}

/** Exit status 2 and, besides JSON log records, exactly one line, `sitestack: …` matching `pattern`, with no stack trace. */
function assertOneLine(run: Run, pattern: RegExp, what: string): void {
  const lines = run.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('{'));
  assert.equal(run.status, 2, `${what}: exit status\n${run.stderr}`);
  assert.equal(lines.length, 1, `${what}: one line\n${run.stderr}`);
  assert.match(lines[0] ?? '', /^sitestack: /, what);
  assert.match(lines[0] ?? '', pattern, what);
  assert.doesNotMatch(run.stderr, /^\s+at /m, `${what}: no stack trace`);
}

const SERVERS: string[][] = [['origin'], ['front'], ['front', '--workers', '2'], ['start'], ['start', '--workers', '2'], ['edge']];

describe('start-up failures an operator can cause', () => {
  const dirs: string[] = [];
  let busy: Server;
  let busyPort: number;
  let env: Record<string, string>;

  const freshDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitestack-startup-'));
    dirs.push(dir);
    return dir;
  };

  before(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
    const [port, originPort, edgePort] = [await freePort(), await freePort(), await freePort()];
    env = { PORT: String(port), ORIGIN_PORT: String(originPort), EDGE_PORT: String(edgePort), PURGE_SECRET: '', EDGE_REFRESH_SECRET: '' };
  });

  after(() => {
    busy.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an unknown flag on every command with its usage, exit 2', async () => {
    const commands = [...SERVERS, ['content-build'], ['index', 'build'], ['popularity', 'import', 'x.csv'], ['purge', '/'], ['songs', 'import'], ['songs', 'refresh'], ['bench']];
    for (const command of commands) {
      const run = await sitestack([...command, '--bogus'], { ...env, DATA_DIR: freshDir() });
      assertOneLine(run, new RegExp(`^sitestack: (\\w+: )?unknown option '--bogus'; usage: sitestack ${command[0]}\\b`, 'i'), command.join(' '));
      assert.doesNotMatch(run.stderr, /To specify a positional argument/, `${command.join(' ')}: only what concerns the operator`);
    }
  });

  it('names the variable of a port in use', async () => {
    const cases: [string[], string][] = [
      [['origin'], 'ORIGIN_PORT'],
      [['front'], 'PORT'],
      [['front', '--workers', '2'], 'PORT'],
      [['start'], 'PORT'],
      [['start', '--workers', '2'], 'ORIGIN_PORT'],
      [['edge'], 'EDGE_PORT'],
    ];
    for (const [command, variable] of cases) {
      const run = await sitestack(command, { ...env, DATA_DIR: freshDir(), [variable]: String(busyPort) });
      assertOneLine(run, new RegExp(`${variable}=${busyPort} on HOST=127\\.0\\.0\\.1 is already in use: stop the process using it or set another port`), command.join(' '));
    }
  });

  it('names a HOST that does not resolve', async () => {
    for (const command of SERVERS) {
      const run = await sitestack(command, { ...env, DATA_DIR: freshDir(), HOST: 'no-such-host.invalid' });
      assertOneLine(run, /HOST=no-such-host\.invalid does not resolve \(\w+\): set it to an address or a name of this machine/, command.join(' '));
    }
  });

  it('names a DATA_DIR that is not a directory, or that this user cannot write or read', async () => {
    const file = join(freshDir(), 'a-file');
    writeFileSync(file, 'not a directory');
    const readOnly = freshDir();
    chmodSync(readOnly, 0o555);
    const unreadable = freshDir();
    chmodSync(unreadable, 0o333);
    for (const command of SERVERS) {
      const what = command.join(' ');
      assertOneLine(await sitestack(command, { ...env, DATA_DIR: file }), /DATA_DIR: .*a-file is a file, not a directory \(EEXIST\): set DATA_DIR to a directory/, `${what}, DATA_DIR a file`);
      assertOneLine(await sitestack(command, { ...env, DATA_DIR: join(file, 'data') }), /DATA_DIR: cannot create .*a-file\/data \(ENOTDIR\): a part of its path is a file/, `${what}, below a file`);
      assertOneLine(await sitestack(command, { ...env, DATA_DIR: readOnly }, true), /DATA_DIR: cannot read and write the directory .* \(EACCES\): make it this user's/, `${what}, read-only`);
      assertOneLine(await sitestack(command, { ...env, DATA_DIR: unreadable }, true), /DATA_DIR: cannot read and write the directory .* \(EACCES\)/, `${what}, unreadable`);
    }
  });

  it('names the database file SQLite cannot open', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'origin.sqlite'), 'not a database, just words '.repeat(100));
    for (const command of [['origin'], ['start']]) {
      assertOneLine(await sitestack(command, { ...env, DATA_DIR: dir }), /cannot open .*origin\.sqlite \(SQLITE_NOTADB/, command.join(' '));
    }
    const locked = freshDir();
    mkdirSync(join(locked, 'origin.sqlite'));
    assertOneLine(await sitestack(['origin'], { ...env, DATA_DIR: locked }), /cannot open .*origin\.sqlite \(SQLITE_CANTOPEN/, 'origin.sqlite a directory');
  });

  it('says how to install nginx when it is missing', async () => {
    const run = await sitestack(['edge'], { ...env, DATA_DIR: freshDir(), NGINX_BIN: '/no/such/nginx' });
    assertOneLine(run, /nginx is not installed .*: install it with `apt-get install nginx`, or set NGINX_BIN/, 'edge');
  });
});
