import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../config.js';
import { silentLogger } from '../log.js';
import { waitFor } from '../test-support/wait-for.js';
import { startFront, type RunningFront } from './front-command.js';
import { startOrigin, type RunningOrigin } from './origin-command.js';

const SECRET = 'operations-purge-secret';
const ADMIN = 'operations-admin-token';

/** Samples of a Prometheus text answer, by series: `name{labels}` with the labels in alphabetical order. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    const series = line.slice(0, space);
    const brace = series.indexOf('{');
    const key = brace === -1 ? series : `${series.slice(0, brace)}{${series.slice(brace + 1, -1).split(/,(?=[a-z_]+=")/).sort().join(',')}}`;
    found.set(key, Number(line.slice(space + 1)));
  }
  return found;
}

async function scrape(base: string, token: string): Promise<Map<string, number>> {
  const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return samples(await response.text());
}

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Headers }> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await response.text(), headers: response.headers };
}

describe('operations endpoints of the front and the origin', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-operations-'));
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  let origin: RunningOrigin;
  let front: RunningFront;

  before(async () => {
    const originConfig = loadConfig({
      DATA_DIR: dataDir,
      ORIGIN_ADMIN_TOKEN: ADMIN,
      // The second route never answers: its deliveries fail and the jobs stay in the backlog.
      PURGE_URLS: `http://127.0.0.1:9/__purge__`,
      PURGE_SECRET: SECRET,
      LOG_REQUESTS: 'off',
    });
    origin = await startOrigin({ config: originConfig, logger: silentLogger(), port: 0, backoff: { baseMs: 20, maxMs: 50 } });
    const config = loadConfig({ DATA_DIR: dataDir, API_BASE: origin.url, PURGE_SECRET: SECRET, LOG_REQUESTS: 'all', SEARCH_RATE_LIMIT: '2/minute' });
    front = await startFront({ config, logger, port: 0 });
  });

  after(async () => {
    await front.close();
    await origin.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers /healthz 200 { status: ok } on both servers, never cached, when the process runs', async () => {
    for (const base of [front.url, origin.url]) {
      for (let i = 0; i < 2; i++) {
        const answer = await get(`${base}/healthz`);
        assert.equal(answer.status, 200);
        assert.deepEqual(JSON.parse(answer.body), { status: 'ok' });
        assert.equal(answer.headers.get('cache-control'), 'no-store');
        assert.equal(answer.headers.get('x-middleware-cache'), null);
      }
    }
  });

  it('answers /readyz 200 with each check, and which of them are critical, when both are ready', async () => {
    const frontReady = await get(`${front.url}/readyz`);
    assert.equal(frontReady.status, 200, frontReady.body);
    const frontBody = JSON.parse(frontReady.body) as { status: string; checks: Record<string, { ok: boolean; critical: boolean }> };
    assert.equal(frontBody.status, 'ready');
    assert.deepEqual(Object.keys(frontBody.checks).sort(), ['origin', 'search']);
    assert.equal(frontBody.checks.origin?.ok, true);
    assert.equal(frontBody.checks.origin?.critical, false);
    const originBody = JSON.parse((await get(`${origin.url}/readyz`)).body) as { status: string; checks: Record<string, { ok: boolean; critical: boolean }> };
    assert.equal(originBody.status, 'ready');
    assert.deepEqual(originBody.checks.database && { ok: originBody.checks.database.ok, critical: originBody.checks.database.critical }, { ok: true, critical: true });
    assert.equal(originBody.checks.search?.critical, false);
  });

  it('refuses /metrics with 401 without a token and 403 with a wrong one, on both servers', async () => {
    for (const base of [front.url, origin.url]) {
      const none = await get(`${base}/metrics`);
      assert.equal(none.status, 401);
      assert.equal(none.headers.get('www-authenticate'), 'Bearer');
      assert.equal(JSON.parse(none.body).code, 'UNAUTHORIZED');
      assert.equal((await get(`${base}/metrics`, { authorization: 'Bearer wrong' })).status, 403);
    }
  });

  it('counts page cache hits, misses, renders, searches and rate-limited requests after known traffic', async () => {
    const before = await scrape(front.url, SECRET);
    const at = (map: Map<string, number>, series: string) => map.get(series) ?? 0;
    assert.equal((await get(`${front.url}/plog`)).headers.get('x-middleware-cache'), 'miss');
    assert.equal((await get(`${front.url}/plog`)).headers.get('x-middleware-cache'), 'hit');
    assert.equal((await get(`${front.url}/plog`)).headers.get('x-middleware-cache'), 'hit');
    const searches = [];
    for (let i = 0; i < 3; i++) searches.push((await get(`${front.url}/api/v1/search?q=post`)).status);
    assert.equal(searches[2], 429);
    const afterwards = await scrape(front.url, SECRET);
    const grew = (series: string) => at(afterwards, series) - at(before, series);
    assert.equal(grew('sitestack_page_cache_hits_total{server="front"}'), 2);
    assert.equal(grew('sitestack_page_cache_misses_total{server="front"}'), 1);
    assert.equal(grew('sitestack_render_duration_seconds_count{server="front",status="200"}'), 1);
    assert.equal(grew('sitestack_http_request_duration_seconds_count{route="page",server="front",status="200"}'), 3);
    assert.equal(grew('sitestack_search_duration_seconds_count{endpoint="search",server="front"}'), 3);
    assert.equal(grew('sitestack_rate_limited_total{limit="search",server="front"}'), 1);
    assert.ok(at(afterwards, 'sitestack_page_cache_entries{server="front"}') >= 1);
    assert.ok(at(afterwards, 'sitestack_page_cache_bytes{server="front"}') > 1_000);
    for (const name of ['sitestack_page_cache_evictions_total', 'sitestack_page_cache_purged_keys_total', 'sitestack_page_cache_stale_total', 'sitestack_page_cache_compressions_total']) {
      assert.ok(afterwards.has(`${name}{server="front"}`), name);
    }
  });

  it('counts purge delivery failures per route and the outbox backlog on the origin when a front cannot be reached', async () => {
    const put = await fetch(`${origin.url}/api/v1/plog/operations-post`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Operations', body: '<p>Body</p>', pub_date: '2026-11-20' }),
    });
    assert.equal(put.status, 201);
    const route = 'sitestack_purge_delivery_failures_total{route="http://127.0.0.1:9/__purge__",server="origin"}';
    let metrics = new Map<string, number>();
    await waitFor('a failed delivery counted', () => {
      void scrape(origin.url, ADMIN).then((found) => (metrics = found));
      return (metrics.get(route) ?? 0) >= 1;
    });
    assert.ok((metrics.get('sitestack_outbox_backlog{outbox="purge",server="origin"}') ?? 0) >= 1);
    assert.ok((metrics.get('sitestack_outbox_oldest_age_seconds{outbox="purge",server="origin"}') ?? 0) > 0);
    assert.ok(metrics.has('sitestack_outbox_backlog{outbox="search",server="origin"}'));
    assert.ok(metrics.has('sitestack_edge_purge_failures_total{server="origin"}'));
    assert.ok((metrics.get('sitestack_http_request_duration_seconds_count{route="admin",server="origin",status="201"}') ?? 0) >= 1);
  });

  it('exports every metric the Grafana dashboard in docs/ reads, when front and origin are scraped', async () => {
    const dashboard = readFileSync(new URL('../../docs/grafana-dashboard.json', import.meta.url), 'utf8');
    const used = new Set(dashboard.match(/sitestack_[a-z0-9_]+/g));
    const exported = new Set<string>();
    for (const [base, token] of [[front.url, SECRET], [origin.url, ADMIN]] as const) {
      for (const series of (await scrape(base, token)).keys()) exported.add(series.replace(/\{.*$/, ''));
    }
    // Only a front with --workers answers this one (test/operations-workers.test.ts).
    exported.add('sitestack_front_workers');
    assert.deepEqual([...used].filter((name) => !exported.has(name)), []);
  });

  it('writes one log line per request with method, bounded path, status, duration, cache status and route when LOG_REQUESTS is all', async () => {
    lines.length = 0;
    await get(`${front.url}/en-US/search?q=${'x'.repeat(3_000)}&page=2`);
    await waitFor('the request line', () => lines.some((line) => line.msg === 'request'));
    const line = lines.find((entry) => entry.msg === 'request');
    assert.ok(line !== undefined);
    assert.deepEqual(
      { method: line.method, path: line.path, route: line.route, status: line.status, cache: line.cache, server: line.server },
      { method: 'GET', path: `/en-US/search?q=${'x'.repeat(40)}…[2960]&page=2`, route: 'page', status: 200, cache: 'miss', server: 'front' },
    );
    assert.equal(typeof line.durationMs, 'number');
    assert.ok(JSON.stringify(line).length < 600);
  });
});

describe('readiness through a drain', () => {
  it('answers /readyz 503 draining while /healthz stays 200 during DRAIN_DELAY_MS, then stops accepting', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sitestack-operations-drain-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir, API_BASE: 'http://127.0.0.1:9', DRAIN_DELAY_MS: '2000', LOG_REQUESTS: 'off' });
      const front = await startFront({ config, logger: silentLogger(), port: 0 });
      const ready = await get(`${front.url}/readyz`);
      // The origin is unreachable here: readiness reports it and stays 200, as that check is not critical.
      assert.equal(ready.status, 200, ready.body);
      assert.equal((JSON.parse(ready.body) as { checks: { origin: { ok: boolean } } }).checks.origin.ok, false);
      const started = Date.now();
      const closed = front.close();
      const draining = await get(`${front.url}/readyz`);
      assert.equal(draining.status, 503);
      assert.equal(JSON.parse(draining.body).status, 'draining');
      assert.equal((await get(`${front.url}/healthz`)).status, 200);
      assert.equal((await get(`${front.url}/plog`)).status, 502, 'pages are still answered while unready');
      await closed;
      assert.ok(Date.now() - started >= 1950, `the drain waited DRAIN_DELAY_MS (${Date.now() - started} ms)`);
      await assert.rejects(fetch(`${front.url}/healthz`));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
