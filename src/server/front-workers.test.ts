import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sendFresh, spawnTypeScript } from './test-support/child-processes.js';

const fixture = fileURLToPath(new URL('./test-support/cluster-front-fixture.ts', import.meta.url));

describe('front workers (node:cluster) with purge fan-out', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitestack-workers-'));
  const content = join(dir, 'content.txt');
  let primary: ChildProcess;
  let port = 0;
  const send = (method: string, path: string, body?: string, headers?: Record<string, string>) =>
    sendFresh(`http://127.0.0.1:${port}${path}`, method, body, headers, 5_000);

  before(async () => {
    writeFileSync(content, 'version-1');
    const started = spawnTypeScript(fixture, [content, 'fanout-secret'], /listening (\d+)/);
    primary = started.child;
    port = Number((await started.ready)[1]);
  });
  after(async () => {
    if (primary.exitCode === null) {
      const exited = new Promise((resolve) => primary.once('exit', resolve));
      primary.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  /** Requests `path` until each of `count` distinct workers has served it from its cache; returns their ids. */
  async function cachedInEveryWorker(path: string, count: number): Promise<Set<string>> {
    const hits = new Set<string>();
    for (let attempt = 0; attempt < 200 && hits.size < count; attempt++) {
      const answer = await send('GET', path);
      if (answer.headers['x-middleware-cache'] === 'hit') hits.add(String(answer.headers['x-worker']));
    }
    assert.equal(hits.size, count, `only workers ${[...hits].join(', ')} served ${path} from cache`);
    return hits;
  }

  it('purges every worker when one worker receives the purge, and answers the union once', async () => {
    await cachedInEveryWorker('/plog/post', 2);
    writeFileSync(content, 'version-2');
    const body = JSON.stringify({ pathnames: ['/plog/post'] });
    assert.equal((await send('POST', '/__purge__', body)).status, 401);
    assert.equal((await send('POST', '/__purge__', body, { authorization: 'Bearer wrong' })).status, 403);
    assert.equal((await send('POST', '/__purge__', '{"pathnames":["no-slash"]}', { authorization: 'Bearer fanout-secret' })).status, 400);
    await cachedInEveryWorker('/plog/post', 2);
    const purge = await send('POST', '/__purge__', JSON.stringify({ pathnames: ['/plog/post', '/never-cached'] }), {
      authorization: 'Bearer fanout-secret',
      'content-type': 'application/json',
    });
    assert.equal(purge.status, 200);
    assert.deepEqual(JSON.parse(purge.body), { purged: ['/plog/post'] }, 'both workers removed /plog/post; the union names it once');
    const servedBy = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const answer = await send('GET', '/plog/post');
      servedBy.add(String(answer.headers['x-worker']));
      assert.equal(answer.body, '/plog/post version-2', `worker ${String(answer.headers['x-worker'])} served the old page`);
    }
    assert.equal(servedBy.size, 2, 'both workers answered after the purge');
  });

  it('replaces a worker that dies, and the replacement takes part in purges', async () => {
    const answer = await send('GET', '/any');
    const pid = Number(answer.headers['x-worker-pid']);
    const deadId = String(answer.headers['x-worker']);
    process.kill(pid, 'SIGKILL');
    let workers = new Set<string>();
    for (let attempt = 0; attempt < 50 && !(workers.size === 2 && !workers.has(deadId)); attempt++) {
      await sleep(50);
      workers = await cachedInEveryWorker('/after-restart', 2).catch(() => new Set<string>());
    }
    assert.equal(workers.size, 2);
    assert.ok(!workers.has(deadId), 'a new worker replaced the dead one');
    const purge = await send('POST', '/__purge__', JSON.stringify({ pathnames: ['/after-restart'] }), { authorization: 'Bearer fanout-secret' });
    assert.deepEqual(JSON.parse(purge.body), { purged: ['/after-restart'] });
  });
});
