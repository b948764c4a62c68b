import { describe, it, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.js';
import { silentLogger } from '../log.js';
import { createPageCache, type PageCache } from '@sitestack/page-cache';
import { purgeCommand } from './purge-command.js';
import { resolveSecrets } from './secrets.js';

async function front(secret: string): Promise<{ server: Server; url: string; cache: PageCache }> {
  const cache = createPageCache({ purgeSecret: secret });
  // Each page names its last path segment as a surrogate key (`seg:<segment>`) and all of them `site:all`.
  const server = createServer((req, res) =>
    cache.handle(req, res, () => {
      res.setHeader('surrogate-key', `seg:${(req.url ?? '/').split('/').at(-1) || 'home'} site:all`);
      res.end(`page ${req.url}`);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, cache, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function get(url: string): Promise<void> {
  await (await fetch(url)).text();
}

async function run(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  const out = new PassThrough();
  let output = '';
  out.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await purgeCommand.run({ args, config: loadConfig(env), logger: silentLogger(), out });
  return { code, output };
}

describe('sitestack purge', () => {
  const fronts: Array<Awaited<ReturnType<typeof front>>> = [];
  before(async () => {
    fronts.push(await front('secret'), await front('secret'), await front('other'));
  });
  after(async () => {
    for (const { server } of fronts) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('purges every route and prints what each removed when all routes accept', async () => {
    const [a, b] = fronts;
    await get(`${a!.url}/plog/x`);
    await get(`${a!.url}/_render/data/b1/en-US/plog/x.json`);
    await get(`${b!.url}/`);
    const { code, output } = await run(['/plog/x', '/'], {
      PURGE_SECRET: 'secret',
      PURGE_URLS: `${a!.url}/__purge__,${b!.url}/__purge__`,
    });
    assert.equal(code, 0);
    assert.equal(
      output,
      `${a!.url}/__purge__: purged 2 key(s)\n  /plog/x\n  /_render/data/b1/en-US/plog/x.json\n${b!.url}/__purge__: purged 1 key(s)\n  /\n`,
    );
    assert.equal(a!.cache.size + b!.cache.size, 0);
  });

  it('exits non-zero and names the failing route when one refuses or is unreachable', async () => {
    const [a, , refusing] = fronts;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/__purge__`;
    await new Promise((resolve) => closed.close(resolve));
    const { code, output } = await run(['/a'], {
      PURGE_SECRET: 'secret',
      PURGE_URLS: `${a!.url}/__purge__,${refusing!.url}/__purge__,${deadUrl}`,
    });
    assert.equal(code, 1);
    assert.match(output, new RegExp(`^${a!.url}/__purge__: purged 0 key\\(s\\)$`, 'm'));
    assert.match(output, new RegExp(`^${refusing!.url}/__purge__: FAILED 403 Forbidden$`, 'm'));
    assert.match(output, new RegExp(`^${deadUrl}: FAILED fetch failed: .*ECONNREFUSED`, 'm'));
  });

  it('purges the entries that named the keys given after --key, beside pathnames', async () => {
    const [a] = fronts;
    for (const path of ['/plog/x', '/plog/y', '/plog/z', '/']) await get(`${a!.url}${path}`);
    const { code, output } = await run(['/', '--key', 'seg:x', 'seg:y', '--key=seg:nothing'], { PURGE_SECRET: 'secret', PURGE_URLS: `${a!.url}/__purge__` });
    assert.equal(code, 0);
    assert.equal(output, `${a!.url}/__purge__: purged 3 key(s)\n  /\n  /plog/x\n  /plog/y\n`);
    assert.equal(a!.cache.size, 1);
    const all = await run(['--key', 'site:all'], { PURGE_SECRET: 'secret', PURGE_URLS: `${a!.url}/__purge__` });
    assert.equal(all.output, `${a!.url}/__purge__: purged 1 key(s)\n  /plog/z\n`);
  });

  it('refuses an invalid key, an empty --key and an unknown option with a clear message', async () => {
    const env = { PURGE_SECRET: 'secret' };
    await assert.rejects(run(['--key', 'ok', 'caf\u00e9'], env), { code: 'PURGE_KEYS_INVALID', message: /^purge: invalid key "caf\u00e9": keys\[1\] must be 1 to 256 visible ASCII characters/ });
    await assert.rejects(run(['--key', 'k'.repeat(257)], env), { code: 'PURGE_KEYS_INVALID' });
    await assert.rejects(run(['--key=', '/a'], env), { code: 'PURGE_KEYS_INVALID' });
    await assert.rejects(run(['/a', '--key'], env), { code: 'USAGE', message: /--key needs at least one key/ });
    await assert.rejects(run(['--keys', 'a'], env), { code: 'USAGE', message: /unknown option '--keys'/ });
  });

  it('refuses with a clear message when PURGE_SECRET is unset and no server made DATA_DIR/secrets.json', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-purge-'));
    await assert.rejects(run(['/a'], { DATA_DIR: dataDir }), { code: 'PURGE_SECRET_UNSET', message: /PURGE_SECRET is not set and .*secrets\.json does not exist/ });
    assert.equal(existsSync(join(dataDir, 'secrets.json')), false, 'purge never makes a secret no front knows');
  });

  it('purges with the shared secret of DATA_DIR/secrets.json when PURGE_SECRET is unset', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-purge-'));
    const { purgeSecret } = resolveSecrets({ dataDir, purgeSecret: undefined, edgeRefreshSecret: undefined }, silentLogger());
    const shared = await front(purgeSecret);
    fronts.push(shared);
    await get(`${shared.url}/plog/x`);
    const { code } = await run(['/plog/x'], { DATA_DIR: dataDir, PURGE_URLS: `${shared.url}/__purge__` });
    assert.equal(code, 0);
    assert.equal(shared.cache.size, 0);
  });

  it('refuses with the validation message when a pathname is invalid or missing', async () => {
    const env = { PURGE_SECRET: 'secret' };
    await assert.rejects(run(['/ok', 'plog/x'], env), { message: `purge: invalid pathname "plog/x": pathnames[1] must start with '/'` });
    await assert.rejects(run(['/a\u0001'], env), { message: /must not contain control characters/ });
    await assert.rejects(run([`/${'a'.repeat(3000)}`], env), { message: /at most 2048 characters/ });
    await assert.rejects(run([], env), { code: 'USAGE' });
  });

  it('exits with status 2 and the message from the CLI when PURGE_SECRET is unset', () => {
    const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));
    const env = { ...process.env, PURGE_SECRET: '', LOG_LEVEL: 'silent', DATA_DIR: mkdtempSync(join(tmpdir(), 'sitestack-purge-cli-')) };
    const result = spawnSync(process.execPath, ['--import', 'tsx', cli, 'purge', '/caf\u00e9'], { env, encoding: 'utf8' });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /sitestack: purge: PURGE_SECRET is not set/);
    const help = spawnSync(process.execPath, ['--import', 'tsx', cli, 'purge', '--help'], { env, encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /Usage: sitestack purge \[<pathname>\.\.\.\] \[--key <key>\.\.\.\]/);
  });
});
