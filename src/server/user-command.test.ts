import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { loadConfig } from '../config.js';
import { silentLogger } from '../log.js';
import { AccountStore, openOriginDatabase } from '../origin/index.js';
import { TEST_SCRYPT } from '../origin/desk/test-support/desk-client.js';
import { createUserCommand, promptHidden, type PasswordInput } from './user-command.js';

const PASSWORD = 'a long enough pass phrase';

describe('sitestack user', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-user-'));
    dirs.push(dir);
    return dir;
  };

  async function run(dir: string, args: string[], stdin: string | Buffer = ''): Promise<{ code: number; output: string }> {
    const out = new PassThrough();
    let output = '';
    out.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const command = createUserCommand({ stdin: Readable.from([Buffer.from(stdin)]), scrypt: TEST_SCRYPT });
    const code = await command.run({ args, config: loadConfig({ DATA_DIR: dir }), logger: silentLogger(), out });
    return { code, output };
  }

  async function authenticates(dir: string, name: string, password: string): Promise<boolean> {
    const db = openOriginDatabase(join(dir, 'origin.sqlite'), { seed: false });
    try {
      return (await new AccountStore(db, TEST_SCRYPT).authenticate(name, password)) !== undefined;
    } finally {
      db.close();
    }
  }

  it('adds a user whose password comes from stdin, without its line break', async () => {
    const dir = dataDir();
    assert.deepEqual(await run(dir, ['add', 'alice'], `${PASSWORD}\n`), { code: 0, output: 'added user alice: log in at /admin/login on the origin\n' });
    assert.equal(await authenticates(dir, 'alice', PASSWORD), true);
    assert.equal((await run(dir, ['list'])).output, 'alice\n');
  });

  it('adds a user whose password comes from --password-file', async () => {
    const dir = dataDir();
    const file = join(dir, 'password.txt');
    writeFileSync(file, `Zwölf Boxkämpfer jagen\r\n`);
    assert.equal((await run(dir, ['add', 'bob', '--password-file', file])).code, 0);
    assert.equal(await authenticates(dir, 'bob', 'Zwölf Boxkämpfer jagen'), true);
  });

  it('removes a user and ends their sessions', async () => {
    const dir = dataDir();
    await run(dir, ['add', 'alice'], PASSWORD);
    const db = openOriginDatabase(join(dir, 'origin.sqlite'), { seed: false });
    const accounts = new AccountStore(db, TEST_SCRYPT);
    const session = accounts.openSession((await accounts.authenticate('alice', PASSWORD))!);
    db.close();
    assert.equal((await run(dir, ['remove', 'alice'])).code, 0);
    const reopened = openOriginDatabase(join(dir, 'origin.sqlite'), { seed: false });
    assert.equal(new AccountStore(reopened).session(session.id, { idleMs: 1e9, absoluteMs: 1e9 }), undefined);
    reopened.close();
    await assert.rejects(run(dir, ['remove', 'alice']), { code: 'USER_NOT_FOUND' });
  });

  it('refuses a password given as an argument, a missing name and unknown actions', async () => {
    const dir = dataDir();
    await assert.rejects(run(dir, ['add', 'alice', PASSWORD]), (error: Error) => /never an argument/.test(error.message) && !error.message.includes(PASSWORD));
    await assert.rejects(run(dir, ['add']), { code: 'USAGE' });
    await assert.rejects(run(dir, ['rename', 'alice']), { code: 'USAGE' });
    await assert.rejects(run(dir, ['add', 'alice', '--password', PASSWORD]), { code: 'USAGE' });
    await assert.rejects(run(dir, ['remove', 'alice', '--password-file', '/etc/passwd']), { code: 'USAGE' });
  });

  it('refuses weak, empty, over-long, control-character and non-UTF-8 passwords, storing nothing', async () => {
    const dir = dataDir();
    for (const password of ['', '\n', 'short', 'x'.repeat(5000), 'good password\u0000here', Buffer.from([0x61, 0xff, 0xfe, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b])]) {
      await assert.rejects(run(dir, ['add', 'alice'], password), { code: 'INVALID_USER' }, JSON.stringify(password.slice(0, 20)));
    }
    assert.equal((await run(dir, ['list'])).output, '');
  });

  it('refuses hostile names without touching the database', async () => {
    const dir = dataDir();
    for (const name of ['Alice', '../../etc', 'a b', 'ali\u0000ce', '😀', "x'; DROP TABLE desk_users;--", 'a'.repeat(65)]) {
      await assert.rejects(run(dir, ['add', name], PASSWORD), { code: 'INVALID_USER' }, name);
    }
  });

  it('refuses a password file that is missing, a directory or too large', async () => {
    const dir = dataDir();
    const big = join(dir, 'big');
    writeFileSync(big, 'x'.repeat(100_000));
    for (const file of [join(dir, 'missing'), dir, big]) await assert.rejects(run(dir, ['add', 'alice', '--password-file', file]), { code: 'INVALID_USER' }, file);
  });

  it('stores a user only when the name and password pass when given any name and password', async () => {
    const dir = dataDir();
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 30 }), async (name, password) => {
        try {
          await run(dir, ['add', name], password);
        } catch (error) {
          assert.match((error as { code: string }).code, /^(INVALID_USER|USER_EXISTS|USAGE)$/);
        }
      }),
      { numRuns: 30 },
    );
  });

  /** A terminal that types `keys`, one chunk each, once the prompt listens; it records raw mode. */
  function terminal(keys: string[]): { input: PasswordInput; raw: boolean[]; output: PassThrough; shown: () => string } {
    const stream = new PassThrough() as PassThrough & PasswordInput;
    const raw: boolean[] = [];
    stream.isTTY = true;
    stream.setRawMode = (mode: boolean) => raw.push(mode);
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const queue = [...keys];
    const type = () => {
      const key = queue.shift();
      if (key !== undefined) stream.write(key, () => setImmediate(type));
    };
    setImmediate(type);
    return { input: stream, raw, output, shown: () => shown };
  }

  it('prompts twice at a terminal, in raw mode and without echo, and adds the user', async () => {
    const dir = dataDir();
    const tty = terminal([...`${PASSWORD}x`, '\u007f', '\r', ...PASSWORD, '\r']);
    const command = createUserCommand({ stdin: tty.input, prompt: tty.output, scrypt: TEST_SCRYPT });
    assert.equal(await command.run({ args: ['add', 'erin'], config: loadConfig({ DATA_DIR: dir }), logger: silentLogger(), out: new PassThrough() }), 0);
    assert.equal(await authenticates(dir, 'erin', PASSWORD), true);
    assert.deepEqual(tty.raw, [true, false, true, false]);
    assert.ok(!tty.shown().includes(PASSWORD) && tty.shown().includes('Password for erin'));
  });

  it('refuses two different passwords typed at a terminal and cancels at Ctrl-C', async () => {
    const dir = dataDir();
    const differ = terminal([`${PASSWORD}\r`, `${PASSWORD}!\r`]);
    const command = createUserCommand({ stdin: differ.input, prompt: differ.output, scrypt: TEST_SCRYPT });
    await assert.rejects(command.run({ args: ['add', 'erin'], config: loadConfig({ DATA_DIR: dir }), logger: silentLogger(), out: new PassThrough() }), { message: /differ/ });
    const cancelled = terminal(['abc', '\u0003']);
    await assert.rejects(promptHidden(cancelled.input, cancelled.output, 'Password: '), { code: 'USAGE', message: /cancelled/ });
    assert.deepEqual(cancelled.raw, [true, false]);
  });

  it('reads the password from stdin through the real CLI and never echoes it', () => {
    const dir = dataDir();
    const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));
    const env = { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent' };
    const added = spawnSync(process.execPath, ['--import', 'tsx', cli, 'user', 'add', 'carol'], { env, input: `${PASSWORD}\n`, encoding: 'utf8' });
    assert.equal(added.status, 0, added.stderr);
    assert.ok(!added.stdout.includes(PASSWORD) && !added.stderr.includes(PASSWORD));
    const weak = spawnSync(process.execPath, ['--import', 'tsx', cli, 'user', 'add', 'dave'], { env, input: 'password\n', encoding: 'utf8' });
    assert.notEqual(weak.status, 0);
    assert.match(weak.stderr, /at least 12 characters/);
    assert.ok(!weak.stderr.includes('password\n'));
  });
});
