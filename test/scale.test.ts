import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../src/config.js';
import { silentLogger } from '../src/log.js';
import { startFront, type RunningFront } from '../src/server/front-command.js';
import { startOrigin, type RunningOrigin } from '../src/server/origin-command.js';
import { sendFresh as send, spawnTypeScript } from '../src/server/test-support/child-processes.js';
import { eventually, freePort } from './support/stack.js';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const ADMIN = 'scale-admin';
const SECRET = 'scale-purge-secret';

/** `sitestack front …` in its own process; resolves once it prints that it listens. */
async function spawnFront(args: string[], env: Record<string, string>): Promise<ChildProcess> {
  const { child, ready } = spawnTypeScript(CLI, ['front', ...args], /front listening on/, { LOG_LEVEL: 'silent', ...env });
  await ready;
  return child;
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  await exited;
}

const post = (title: string) => ({ title, body: '<p>Scale body.</p>', summary: 'S', categories: ['Web'], pub_date: '2026-11-20' });

async function edit(originUrl: string, oid: string, title: string): Promise<void> {
  const response = await fetch(`${originUrl}/api/v1/plog/${oid}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify(post(title)),
  });
  assert.ok(response.status === 200 || response.status === 201, `edit answered ${response.status}`);
}

function baseConfig(dataDir: string, env: Record<string, string>): Config {
  return loadConfig({ DATA_DIR: dataDir, ORIGIN_ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'silent', ...env });
}

describe('sitestack front --workers 2', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-workers-'));
  let origin: RunningOrigin | undefined;
  let front: ChildProcess | undefined;
  after(async () => {
    await stopChild(front);
    await origin?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('purges the page in every worker when one purge reaches one worker, and no worker serves the old page', async () => {
    // No purge secret on the origin: its outbox stays idle, so the one purge below is the only one.
    origin = await startOrigin({ config: baseConfig(dataDir, {}), logger: silentLogger(), port: 0 });
    await edit(origin.url, 'workers-post', 'Title before');
    const port = await freePort();
    front = await spawnFront(['--workers', '2'], {
      DATA_DIR: dataDir,
      PORT: String(port),
      API_BASE: origin.url,
      PURGE_SECRET: SECRET,
      FRONT_WORKER_HEADER: 'on',
    });
    const page = `http://127.0.0.1:${port}/plog/workers-post`;
    const cachedBy = new Set<string>();
    const seen: string[] = [];
    // Round robin hands a connection only to a worker that is free; a worker busy finishing its start gets none yet.
    for (const deadline = Date.now() + 15_000; Date.now() < deadline && cachedBy.size < 2; await sleep(10)) {
      const answer = await send(page);
      assert.equal(answer.status, 200);
      assert.ok(answer.body.includes('Title before'));
      seen.push(`${String(answer.headers['x-front-worker'])}:${String(answer.headers['x-middleware-cache'])}`);
      if (answer.headers['x-middleware-cache'] === 'hit') cachedBy.add(String(answer.headers['x-front-worker']));
    }
    assert.equal(cachedBy.size, 2, `the page was cached by workers ${[...cachedBy].join(', ')} only; answers: ${seen.slice(-12).join(' ')}`);

    await edit(origin.url, 'workers-post', 'Title after');
    const purge = await send(`http://127.0.0.1:${port}/__purge__`, 'POST', JSON.stringify({ pathnames: ['/plog/workers-post'] }), {
      authorization: `Bearer ${SECRET}`,
      'content-type': 'application/json',
    });
    assert.equal(purge.status, 200);
    const purged = (JSON.parse(purge.body) as { purged: string[] }).purged;
    assert.ok(purged.includes('/plog/workers-post'), purge.body);
    assert.equal(new Set(purged).size, purged.length, 'each purged key once');

    const servedBy = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const answer = await send(page);
      servedBy.add(String(answer.headers['x-front-worker']));
      assert.ok(answer.body.includes('Title after'), `worker ${String(answer.headers['x-front-worker'])} served the old page`);
    }
    assert.equal(servedBy.size, 2, 'both workers answered after the purge');
  });

  it('refuses a bad --workers value with a usage error', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'front', '--workers', 'many'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'silent' } });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 2);
    assert.match(stderr, /--workers expects a whole number from 1 to 64, got 'many'/);
  });
});

describe('purge fan-out to every front in PURGE_URLS', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-two-fronts-'));
  let origin: RunningOrigin | undefined;
  let live: RunningFront | undefined;
  let stopped: ChildProcess | undefined;
  after(async () => {
    await stopChild(stopped);
    await live?.close();
    await origin?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('purges the live front at once, each time, and the stopped one when it returns', async () => {
    const livePort = await freePort();
    const stoppedPort = await freePort();
    const purgeUrls = `http://127.0.0.1:${livePort}/__purge__,http://127.0.0.1:${stoppedPort}/__purge__`;
    const config = baseConfig(dataDir, { PURGE_SECRET: SECRET, PURGE_URLS: purgeUrls });
    origin = await startOrigin({ config, logger: silentLogger(), port: 0, backoff: { baseMs: 50, maxMs: 300 } });
    const frontConfig: Config = { ...config, apiBase: origin.url, port: livePort };
    live = await startFront({ config: frontConfig, logger: silentLogger() });
    stopped = await spawnFront([], { DATA_DIR: dataDir, PORT: String(stoppedPort), API_BASE: origin.url, PURGE_SECRET: SECRET });
    const livePage = `http://127.0.0.1:${livePort}/plog/two-fronts`;
    const stoppedPage = `http://127.0.0.1:${stoppedPort}/plog/two-fronts`;

    await edit(origin.url, 'two-fronts', 'First title');
    // Both fronts confirm the creation's purge first, so the pages cached below stay cached until the next edit.
    await eventually('the creation purge is confirmed', async () => origin?.outbox?.pendingJobs() === 0, 5_000);
    for (const page of [livePage, stoppedPage]) {
      assert.ok((await send(page)).body.includes('First title'));
      assert.equal((await send(page)).headers['x-middleware-cache'], 'hit');
    }

    // A stopped process: its port still accepts connections, but nothing answers — the worst case for a sender.
    stopped.kill('SIGSTOP');
    await edit(origin.url, 'two-fronts', 'Second title');
    await eventually('the live front shows the second title', async () => (await send(livePage)).body.includes('Second title'), 1_000);
    await edit(origin.url, 'two-fronts', 'Third title');
    await eventually('the live front shows the third title while the other is still stopped', async () => (await send(livePage)).body.includes('Third title'), 1_000);

    stopped.kill('SIGCONT');
    await eventually('the returned front no longer serves its old page', async () => (await send(stoppedPage)).body.includes('Third title'), 15_000);
    await eventually('the outbox is empty', async () => origin?.outbox?.pendingJobs() === 0, 15_000);
  });
});

describe('sitestack start --workers 2', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-start-workers-'));
  let stack: ChildProcess | undefined;
  after(async () => {
    await stopChild(stack);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves from two workers and an edit through the origin purges the page in both', async () => {
    const port = await freePort();
    const originPort = await freePort();
    const started = spawnTypeScript(CLI, ['start', '--workers', '2'], /sitestack is running/, {
      LOG_LEVEL: 'silent', DATA_DIR: dataDir, PORT: String(port), ORIGIN_PORT: String(originPort), ORIGIN_ADMIN_TOKEN: ADMIN, FRONT_WORKER_HEADER: 'on',
    });
    stack = started.child;
    await started.ready;
    const originUrl = `http://127.0.0.1:${originPort}`;
    await edit(originUrl, 'start-workers', 'Started title');
    const page = `http://127.0.0.1:${port}/plog/start-workers`;
    await eventually('the new post is served', async () => (await send(page)).body.includes('Started title'), 5_000);
    const cachedBy = new Set<string>();
    for (const deadline = Date.now() + 15_000; Date.now() < deadline && cachedBy.size < 2; await sleep(10)) {
      const answer = await send(page);
      if (answer.headers['x-middleware-cache'] === 'hit' && answer.body.includes('Started title')) cachedBy.add(String(answer.headers['x-front-worker']));
    }
    assert.equal(cachedBy.size, 2, `cached by workers ${[...cachedBy].join(', ')} only`);
    await edit(originUrl, 'start-workers', 'Edited title');
    await eventually('every worker serves the edited title', async () => {
      const answers = await Promise.all(Array.from({ length: 6 }, () => send(page)));
      return answers.every((answer) => answer.body.includes('Edited title'));
    }, 2_000);
  });
});
