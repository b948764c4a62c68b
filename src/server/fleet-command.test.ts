import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { loadConfig } from '../config.js';
import { silentLogger } from '../log.js';
import { fleetCommand, fleetTable, tierLine } from './fleet-command.js';

const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
const run = (args: string[], env: Record<string, string>) => fleetCommand.run({ args, config: loadConfig({ LOG_LEVEL: 'silent', ...env }), logger: silentLogger(), out: sink() });

describe('sitestack fleet', () => {
  it('refuses an unknown option with its usage', async () => {
    await assert.rejects(run(['--bogus'], { REDIS_URL: 'redis://127.0.0.1:1' }), (error: Error) => /Unknown option '--bogus'[\s\S]*sitestack fleet \[--json\]/.test(error.message));
    await assert.rejects(run(['extra'], { REDIS_URL: 'redis://127.0.0.1:1' }), /sitestack fleet/);
  });

  it('says what to set when REDIS_URL is unset', async () => {
    await assert.rejects(run([], {}), (error: Error & { code?: string }) => error.code === 'REDIS_UNSET' && /set the same REDIS_URL/.test(error.message));
  });

  it('fails within its timeout, naming Redis without its password, when Redis is unreachable', async () => {
    const started = Date.now();
    await assert.rejects(run(['--json'], { REDIS_URL: 'redis://:hunter2-secret@127.0.0.1:1', REDIS_TIMEOUT_MS: '300' }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'REDIS_UNREACHABLE');
      assert.match(error.message, /redis:\/\/:\*\*\*@127\.0\.0\.1:1/);
      assert.doesNotMatch(error.message, /hunter2/);
      return true;
    });
    assert.ok(Date.now() - started < 3_000);
  });

  it('shows control characters of a hostile announcement as ? and pads unicode by characters', () => {
    const table = fleetTable([{ id: 'front\u001b[31m', address: 'http://前端:3000', lastId: '1-0', lag: 1_000, heartbeatAgeMs: 1_500, startedAt: 0, pid: 1, host: 'h' }]);
    assert.ok(!table.includes("\u001b"));
    assert.match(table, /front\?\[31m {2}http:\/\/前端:3000 {2}1-0 {11}≥1000 {2}1\.5 s ago/);
    assert.equal(fleetTable([]), 'no front alive\n');
  });

  it('ends with the shared tier\'s size in copies and MiB', () => {
    assert.equal(tierLine({ copies: 0, bytes: 0 }), 'shared tier: 0 copies, 0.0 MiB\n');
    assert.equal(tierLine({ copies: 1, bytes: 3 * 1024 * 1024 + 100 }), 'shared tier: 1 copy, 3.0 MiB\n');
  });
});

describe('the fleet settings', () => {
  it('refuses a REDIS_URL that is not a redis URL without repeating it', () => {
    for (const value of ['http://cache:6379', 'not a url', 'redis//x', '日本語', 'rediss:']) {
      assert.throws(() => loadConfig({ REDIS_URL: value }), (error: Error) => /expected REDIS_URL to be a redis:\/\/ or rediss:\/\/ URL with a host, redis\+sentinel:.* or redis\+cluster:.*, got a value of \d+ characters/.test(error.message), value);
    }
  });

  it('refuses a member TTL no longer than the heartbeat, and a hostile prefix', () => {
    assert.throws(() => loadConfig({ REDIS_URL: 'redis://r', FLEET_HEARTBEAT_MS: '1000', FLEET_MEMBER_TTL_MS: '1000' }), /expected FLEET_MEMBER_TTL_MS to be more than FLEET_HEARTBEAT_MS \(1000\), got '1000'/);
    assert.throws(() => loadConfig({ REDIS_URL: 'redis://r', FLEET_PREFIX: 'a}{b' }), /expected FLEET_PREFIX to be 1 to 64 letters/);
    assert.throws(() => loadConfig({ REDIS_URL: 'redis://r', FLEET_STREAM_MAXLEN: '0' }), /expected FLEET_STREAM_MAXLEN to be a positive integer, got '0'/);
  });

  it('purges no fixed front by default when REDIS_URL is set, and the listed ones when PURGE_URLS is', () => {
    assert.deepEqual(loadConfig({ REDIS_URL: 'redis://r' }).purgeUrls, []);
    assert.deepEqual(loadConfig({ REDIS_URL: 'redis://r', PURGE_URLS: 'http://f:3000/__purge__' }).purgeUrls, ['http://f:3000/__purge__']);
    assert.equal(loadConfig({}).fleet, undefined);
    assert.equal(loadConfig({ REDIS_URL: 'rediss://user:pw@r:6380/2' }).fleet?.redisUrl, 'rediss://user:pw@r:6380/2');
  });
});
