import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { FLEET_DEFAULTS, fleetKeys, liveFronts, PurgeStreamWriter, type ResolvedFleetOptions } from '../src/fleet/index.js';
import { silentLogger } from '../src/log.js';
import type { RunningProxy } from '../src/server/proxy-command.js';
import { purgeCommand } from '../src/server/purge-command.js';
import { loadConfig } from '../src/config.js';
import { PassThrough } from 'node:stream';
import { PURGE_SECRET, send, startTestProxy, startUpstream, type TestUpstream } from './support/proxy.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { eventually, freePort } from './support/stack.js';

/** Quick heartbeats and a short TTL, as the fleet's own tests use. */
const FLEET_ENV = { FLEET_PREFIX: 'proxy-fleet', FLEET_HEARTBEAT_MS: '200', FLEET_MEMBER_TTL_MS: '1000', FLEET_APPLY_WAIT_MS: '3000', REDIS_TIMEOUT_MS: '1000' };
const OPTIONS: ResolvedFleetOptions = { ...FLEET_DEFAULTS, prefix: FLEET_ENV.FLEET_PREFIX, heartbeatMs: 200, memberTtlMs: 1_000, applyWaitMs: 3_000, commandTimeoutMs: 1_000 };
const keys = fleetKeys(OPTIONS.prefix);

let rendered = 0;

/** Every answer names its render; `/tagged/<n>` pages carry the surrogate keys `post-<n>` and `posts`. */
function application(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  rendered++;
  const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
  if (path.startsWith('/tagged/')) headers['surrogate-key'] = `post-${path.slice(8)} posts`;
  res.writeHead(200, headers);
  res.end(`<!doctype html><title>${path}</title><p>render ${rendered}</p>`);
}

const renderOf = (body: string) => Number(/render (\d+)/.exec(body)?.[1]);

/** `sitestack purge` as the CLI runs it, with `env` only (no PURGE_URLS, no PURGE_SECRET unless given). */
async function purgeCli(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  const out = new PassThrough();
  let output = '';
  out.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await purgeCommand.run({ args, config: loadConfig({ ...FLEET_ENV, LOG_LEVEL: 'silent', ...env }), logger: silentLogger(), out });
  return { code, output };
}

describe('sitestack proxy in a fleet (REDIS_URL)', () => {
  let redis: RedisServer;
  let upstream: TestUpstream;
  let proxy: RunningProxy;
  let client: Redis;
  let writer: PurgeStreamWriter;

  /** The page as the proxy answers it, after asking once more until it is held. */
  const held = async (path: string) => {
    await send(`${proxy.url}${path}`);
    const answer = await send(`${proxy.url}${path}`);
    assert.equal(answer.headers['x-middleware-cache'], 'hit', `${path} is held`);
    return answer;
  };
  const cacheOf = async (path: string) => (await send(`${proxy.url}${path}`)).headers['x-middleware-cache'];
  const metric = async (name: string) => {
    const answer = await send(`${proxy.url}/metrics`, { headers: { authorization: `Bearer ${PURGE_SECRET}` } });
    assert.equal(answer.status, 200);
    const line = answer.body.split('\n').find((candidate) => candidate.startsWith(`${name}{`) || candidate.startsWith(`${name} `));
    assert.ok(line, `/metrics has ${name}`);
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  };

  before(async () => {
    redis = await startRedisServer();
    upstream = await startUpstream(application);
    proxy = await startTestProxy([upstream.url], { ...FLEET_ENV, REDIS_URL: redis.url });
    client = new Redis(redis.url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => 50 });
    client.on('error', () => undefined);
    writer = new PurgeStreamWriter({ redis: client, keys, options: OPTIONS, logger: silentLogger() });
    await eventually('the proxy joins the fleet', async () => (await liveFronts(client, keys, OPTIONS.memberTtlMs).catch(() => [])).some((front) => front.address === proxy.url), 5_000);
  });
  after(async () => {
    await proxy.close();
    client.disconnect();
    await upstream.close();
    await redis.stop();
  });

  it('announces itself at its own address, as a front does', async () => {
    const fronts = await liveFronts(client, keys, OPTIONS.memberTtlMs);
    assert.deepEqual(
      fronts.map((front) => [front.address, front.pid]),
      [[proxy.url, process.pid]],
    );
  });

  it('leaves the live list as soon as it closes, not when its heartbeat ages out', async () => {
    // A fleet of its own, whose heartbeats alone trim its list: no other member ages it out within the test.
    const longTtl = 60_000;
    const own = fleetKeys('proxy-leaving');
    const leaving = await startTestProxy([upstream.url], { ...FLEET_ENV, FLEET_PREFIX: 'proxy-leaving', FLEET_MEMBER_TTL_MS: String(longTtl), REDIS_URL: redis.url });
    const listed = async () => (await liveFronts(client, own, longTtl)).some((front) => front.address === leaving.url);
    await eventually('the second proxy joins', listed, 5_000);
    await leaving.close();
    await eventually('the closed proxy leaves', async () => !(await listed()), 5_000);
    assert.equal(await client.hlen(own.announcements), 0, 'its announcement went with it');
  });

  it('empties its copy of a page within a second of a purge of its path appended to the stream', async () => {
    const before = await held('/plain');
    const delivery = await writer.deliver({ pathnames: ['/plain'], keys: [] });
    assert.deepEqual(delivery.behind, [], 'the proxy applied it before the wait ran out');
    assert.deepEqual(delivery.purged, ['/plain'], 'and reported the key it purged');
    await eventually('the proxy renders /plain again', async () => (await cacheOf('/plain')) !== 'hit', 1_000);
    const after = await send(`${proxy.url}/plain`);
    assert.ok(renderOf(after.body) > renderOf(before.body));
  });

  it("purges every page naming a surrogate key from the stream, and no other, when the application's answers tag them", async () => {
    await held('/tagged/1');
    await held('/tagged/2');
    await writer.deliver({ pathnames: [], keys: ['post-1'] });
    assert.notEqual(await cacheOf('/tagged/1'), 'hit');
    assert.equal(await cacheOf('/tagged/2'), 'hit');
  });

  it('skips a malformed or hostile entry with the rest of the stream still applied, and counts it', async () => {
    await held('/after-hostile');
    const skippedBefore = await metric('sitestack_fleet_skipped_total');
    await client.xadd(keys.stream, '*', 'pathnames', '{"not":"an array"}', 'keys', '[]');
    await client.xadd(keys.stream, '*', 'pathnames', JSON.stringify(['/ünïcode/路径', 'no-slash', '/'.repeat(5_000)]), 'keys', JSON.stringify(['bad key with spaces']));
    await client.xadd(keys.stream, '*', 'pathnames', JSON.stringify(['/x']), 'keys', 'x'.repeat(2_000_000));
    await writer.deliver({ pathnames: ['/after-hostile'], keys: [] });
    assert.notEqual(await cacheOf('/after-hostile'), 'hit');
    assert.ok((await metric('sitestack_fleet_skipped_total')) >= skippedBefore + 2, 'the malformed entries were skipped');
    assert.equal((await send(`${proxy.url}/healthz`)).status, 200);
  });

  it("shows its reader's state on /metrics: entries applied, lag and connection", async () => {
    const applied = await metric('sitestack_fleet_applied_total');
    await writer.deliver({ pathnames: ['/nothing-held'], keys: [] });
    assert.ok((await metric('sitestack_fleet_applied_total')) > applied);
    assert.equal(await metric('sitestack_fleet_lag_entries'), 0);
    assert.equal(await metric('sitestack_fleet_connected'), 1);
  });

  it('takes `sitestack purge` through the stream when REDIS_URL is set, with no front listed and no purge secret', async () => {
    await held('/by-hand');
    await held('/tagged/3');
    const { code, output } = await purgeCli(['/by-hand', '--key', 'post-3'], { REDIS_URL: redis.url });
    assert.equal(code, 0, output);
    assert.match(output, /^redis-stream:\{proxy-fleet\}:purges: purged 2 key\(s\)$/m);
    assert.match(output, /^ {2}\/by-hand$/m);
    assert.match(output, /^ {2}\/tagged\/3$/m);
    assert.notEqual(await cacheOf('/by-hand'), 'hit');
    assert.notEqual(await cacheOf('/tagged/3'), 'hit');
  });

  it('fails `sitestack purge` with the reason, and appends nothing, when the pathnames are hostile or Redis is away', async () => {
    const length = await client.xlen(keys.stream);
    for (const args of [['no-slash'], ['/x', '--bogus'], ['/x', '--key'], ['/\u0000'], ['/' + 'a'.repeat(100_000)]]) {
      await assert.rejects(purgeCli(args, { REDIS_URL: redis.url }), (error: Error) => error.message.length > 0 && error.message.length < 2_000, JSON.stringify(args).slice(0, 40));
    }
    assert.equal(await client.xlen(keys.stream), length, 'nothing appended');
    const nowhere = `redis://:s3cret@127.0.0.1:${await freePort()}`;
    const { code, output } = await purgeCli(['/ünïcode/路径'], { REDIS_URL: nowhere, REDIS_TIMEOUT_MS: '300' });
    assert.equal(code, 1);
    assert.match(output, /FAILED cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1/);
    assert.doesNotMatch(output, /s3cret/);
  });

  it('reports Redis on /readyz as a check that never fails readiness, and keeps answering from its cache while Redis is away', async () => {
    const ready = await send(`${proxy.url}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(JSON.parse(ready.body).checks.redis.ok, true);
    assert.equal(JSON.parse(ready.body).checks.redis.critical, false);
    const before = await held('/while-away');
    await redis.kill();
    try {
      await eventually('the redis check fails', async () => JSON.parse((await send(`${proxy.url}/readyz`)).body).checks.redis.ok === false, 5_000);
      const away = await send(`${proxy.url}/readyz`);
      assert.equal(away.status, 200, 'still ready');
      const answer = await send(`${proxy.url}/while-away`);
      assert.equal(answer.headers['x-middleware-cache'], 'hit');
      assert.equal(renderOf(answer.body), renderOf(before.body));
      await eventually('the reader sees Redis gone', async () => (await metric('sitestack_fleet_connected')) === 0, 5_000);
    } finally {
      await redis.start();
    }
  });

  it('empties its cache once Redis comes back without its data, so no page older than the restart is served', async () => {
    await eventually('the reader is back', async () => (await metric('sitestack_fleet_connected')) === 1, 5_000);
    await held('/before-restart');
    const emptied = await metric('sitestack_fleet_emptied_total');
    await redis.restartEmpty();
    await eventually('the proxy empties its cache', async () => (await metric('sitestack_fleet_emptied_total')) > emptied, 5_000);
    assert.notEqual(await cacheOf('/before-restart'), 'hit');
  });
});
