import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get, nginxForTests } from '../src/edge/test-support/edge-harness.js';
import { freePort } from './support/stack.js';

const { skip } = nginxForTests();

/** One command of the documented block: its own variables and its `sitestack` arguments. */
interface DocumentedCommand {
  env: Record<string, string>;
  args: string[];
}

/**
 * The commands of docs/edge.md's "Running the three layers" block, as written: `export` lines give every command's
 * environment, each `node dist/cli.js …` line is one command (with its leading `NAME=value` assignments).
 */
function documentedCommands(): { exported: Record<string, string>; commands: DocumentedCommand[] } {
  const doc = readFileSync(new URL('../docs/edge.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Running the three layers'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const exported: Record<string, string> = {};
  const commands: DocumentedCommand[] = [];
  for (const raw of block.split('\n')) {
    const line = raw.replace(/\s#.*$/, '').replace(/&\s*$/, '').trim();
    const words = line.split(/\s+/).filter((word) => word !== '');
    if (words[0] === 'export') {
      for (const word of words.slice(1)) exported[word.slice(0, word.indexOf('='))] = word.slice(word.indexOf('=') + 1);
      continue;
    }
    const cli = words.indexOf('dist/cli.js');
    if (cli < 1 || words[cli - 1] !== 'node') continue;
    const env = Object.fromEntries(words.slice(0, cli - 1).map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]));
    commands.push({ env, args: words.slice(cli + 1) });
  }
  return { exported, commands };
}

describe('the three layers started as docs/edge.md says, on a fresh DATA_DIR', { skip }, () => {
  const children: ChildProcess[] = [];
  let dataDir: string;
  let ports: { front: number; origin: number; edge: number };
  let token: string;
  const front = () => `http://127.0.0.1:${ports.front}`;
  const edge = () => `http://127.0.0.1:${ports.edge}`;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sitestack-three-layers-'));
    ports = { front: await freePort(), origin: await freePort(), edge: await freePort() };
    const { exported, commands } = documentedCommands();
    assert.deepEqual(
      commands.map((command) => command.args[0]),
      ['origin', 'front', 'edge'],
      'the block runs the origin, the front and the edge',
    );
    token = exported.ORIGIN_ADMIN_TOKEN ?? '';
    assert.notEqual(token, '', 'the block sets an admin token to edit with');
    // The documented default ports, moved to free ones of this test; nothing else is changed.
    const moved = (value: string) =>
      value.replace(':8080', `:${ports.edge}`).replace(':3000', `:${ports.front}`).replace(':4000', `:${ports.origin}`);
    const base: Record<string, string> = {
      ...process.env,
      PORT: String(ports.front),
      ORIGIN_PORT: String(ports.origin),
      EDGE_PORT: String(ports.edge),
      PURGE_SECRET: '',
      EDGE_REFRESH_SECRET: '',
      CDN_BASE_URL: '',
      LOG_LEVEL: 'warn',
    } as Record<string, string>;
    const started = commands.map(({ env, args }) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
        env: { ...base, ...Object.fromEntries(Object.entries({ ...exported, ...env }).map(([name, value]) => [name, moved(value)])), DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(child);
      return new Promise<void>((resolve, reject) => {
        let printed = '';
        child.stdout?.on('data', (chunk: Buffer) => {
          printed += chunk.toString();
          if (/listening on/.test(printed)) resolve();
        });
        child.once('exit', (code) => reject(new Error(`sitestack ${args.join(' ')} exited with ${code}: ${printed}`)));
      });
    });
    await Promise.all(started);
  });

  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(children.map((child) => (child.exitCode === null ? once(child, 'exit') : undefined)));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers searches, with /readyz saying so, at once', async () => {
    const search = await get(`${front()}/api/v1/search?q=sqlite`);
    assert.equal(search.status, 200, search.body);
    const answer = JSON.parse(search.body) as { metadata: { total: { value: number } } };
    assert.ok(answer.metadata.total.value > 0, search.body);
    const ready = JSON.parse((await get(`${front()}/readyz`)).body) as { checks: Record<string, { ok: boolean; detail?: string }> };
    assert.equal(ready.checks.search?.ok, true, JSON.stringify(ready.checks.search));
  });

  it('shows an edit at the front and at the edge within 3 s', async () => {
    const path = '/plog/first-look-sqlite';
    await get(`${edge()}${path}`);
    assert.equal((await get(`${edge()}${path}`)).headers['x-cache'], 'HIT', 'the edge holds the page before the edit');
    // The same edge under a name no refresh carries (ALLOWED_HOSTS has both): it must not keep a copy of its own.
    const otherHost = { host: `localhost:${ports.edge}` };
    await get(`${edge()}${path}`, otherHost);
    await get(`${edge()}${path}`, otherHost);
    const title = `Edited through the documented layers ${Date.now()}`;
    const edited = Date.now();
    const put = await fetch(`http://127.0.0.1:${ports.origin}/api/v1/plog/first-look-sqlite`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title, body: '<p>Edited.</p>', pub_date: '2026-03-02' }),
    });
    assert.equal(put.status, 200);
    const seen: Record<string, number> = {};
    while (Date.now() - edited < 3_000 && Object.keys(seen).length < 2) {
      for (const [layer, base] of [['front', front()], ['edge', edge()]] as const) {
        if (seen[layer] === undefined && (await get(`${base}${path}`)).body.includes(title)) seen[layer] = Date.now() - edited;
      }
    }
    assert.ok(seen.front !== undefined, 'the front shows the edit within 3 s');
    assert.ok(seen.edge !== undefined, 'the edge shows the edit within 3 s');
    assert.ok((await get(`${edge()}${path}`, otherHost)).body.includes(title), 'the edge shows the edit under another host');
  });
});
