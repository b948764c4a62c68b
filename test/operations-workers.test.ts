import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../src/config.js';
import { silentLogger } from '../src/log.js';
import { startOrigin, type RunningOrigin } from '../src/server/origin-command.js';
import { sendFresh, spawnTypeScript } from '../src/server/test-support/child-processes.js';
import { freePort } from './support/stack.js';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const TOKEN = 'workers-metrics-token';

/** The value of one series in a Prometheus text answer, whatever the order of its labels. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const series = line.slice(name.length + 1, line.lastIndexOf('}'));
    const found = series.split(/,(?=[a-z_]+=")/);
    if (found.length === wanted.length && wanted.every((label) => found.includes(label))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('/metrics of sitestack front --workers 2', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-operations-workers-'));
  let origin: RunningOrigin | undefined;
  let front: ChildProcess | undefined;
  after(async () => {
    if (front !== undefined && front.exitCode === null) {
      const exited = new Promise((resolve) => front?.once('exit', resolve));
      front.kill('SIGTERM');
      await exited;
    }
    await origin?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sums every worker’s counters in one answer whichever worker the scrape reaches', async () => {
    origin = await startOrigin({ config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), logger: silentLogger(), port: 0 });
    const port = await freePort();
    const { child, ready } = spawnTypeScript(CLI, ['front', '--workers', '2'], /front listening on/, {
      DATA_DIR: dataDir,
      PORT: String(port),
      API_BASE: origin.url,
      METRICS_TOKEN: TOKEN,
      FRONT_WORKER_HEADER: 'on',
      LOG_LEVEL: 'silent',
    });
    front = child;
    await ready;
    const servedBy = new Set<string>();
    // At least 12 requests, and on until both workers answered: the second may start listening after the first said so.
    let requests = 0;
    while (requests < 12 || (servedBy.size < 2 && requests < 400)) {
      const answer = await sendFresh(`http://127.0.0.1:${port}/plog`);
      assert.equal(answer.status, 200);
      servedBy.add(String(answer.headers['x-front-worker']));
      requests++;
    }
    assert.equal(servedBy.size, 2, `both workers answered (${[...servedBy].join(', ')})`);
    // Each scrape reaches either worker: every one of them must carry the whole fleet's counts.
    for (let scrape = 0; scrape < 4; scrape++) {
      const answer = await sendFresh(`http://127.0.0.1:${port}/metrics`, 'GET', undefined, { authorization: `Bearer ${TOKEN}` });
      assert.equal(answer.status, 200, answer.body);
      const hits = sample(answer.body, 'sitestack_page_cache_hits_total', { server: 'front' }) ?? Number.NaN;
      const misses = sample(answer.body, 'sitestack_page_cache_misses_total', { server: 'front' }) ?? Number.NaN;
      assert.equal(hits + misses, requests, `hits ${hits} + misses ${misses}`);
      assert.equal(misses, 2, 'one miss per worker cache');
      assert.equal(sample(answer.body, 'sitestack_http_request_duration_seconds_count', { server: 'front', route: 'page', status: '200' }), requests);
      assert.equal(sample(answer.body, 'sitestack_page_cache_entries', { server: 'front' }), 2);
      assert.equal(sample(answer.body, 'sitestack_front_workers', { state: 'reporting' }), 2);
    }
    assert.equal((await sendFresh(`http://127.0.0.1:${port}/metrics`)).status, 401);
  });
});
