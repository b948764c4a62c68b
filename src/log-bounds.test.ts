import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOG_URL_MAX_CHARS, logUrl, RateLimitLog } from './log-bounds.js';
import { capturedLogger } from './test-support/captured-logger.js';

describe('logUrl', () => {
  it('keeps a URL as it is when it is within the bound', () => {
    const url = `/api/v1/search?q=${'a'.repeat(LOG_URL_MAX_CHARS - 17)}`;
    assert.equal(url.length, LOG_URL_MAX_CHARS);
    assert.equal(logUrl(url), url);
    assert.equal(logUrl(undefined), undefined);
  });

  it('cuts a URL to the bound and says how much was left off when it is longer', () => {
    const url = `/api/v1/search?q=${'x'.repeat(70_000)}`;
    const logged = logUrl(url) ?? '';
    assert.equal(logged, `${url.slice(0, LOG_URL_MAX_CHARS)}…[${url.length - LOG_URL_MAX_CHARS} more characters]`);
    assert.ok(logged.length < LOG_URL_MAX_CHARS + 40);
    assert.equal(logUrl('/abcdef', 3), '/ab…[4 more characters]');
  });
});

describe('RateLimitLog', () => {
  it('writes one line per client address with its count and first URL cut to the bound when the window closes', async () => {
    const { logger, lines } = capturedLogger();
    const log = new RateLimitLog({ logger, message: 'search rate limit exceeded', windowMs: 100 });
    const long = `/api/v1/search?q=${'y'.repeat(5_000)}`;
    for (let i = 0; i < 500; i++) log.count('203.0.113.7', long);
    for (let i = 0; i < 3; i++) log.count('198.51.100.1', '/api/v1/search?q=b');
    assert.equal(lines.length, 0, 'nothing is written while the window is open');
    await sleep(200);
    assert.deepEqual(
      lines.map(({ client, rejected, windowMs, url, msg }) => ({ client, rejected, windowMs, url, msg })),
      [
        { client: '203.0.113.7', rejected: 500, windowMs: 100, url: logUrl(long), msg: 'search rate limit exceeded' },
        { client: '198.51.100.1', rejected: 3, windowMs: 100, url: '/api/v1/search?q=b', msg: 'search rate limit exceeded' },
      ],
    );
    log.count('203.0.113.7', '/next');
    log.flush();
    assert.equal(lines.length, 3, 'a refusal after the window opens the next one');
    assert.deepEqual([lines[2]?.client, lines[2]?.rejected], ['203.0.113.7', 1]);
    log.flush();
    assert.equal(lines.length, 3, 'a flush with nothing counted writes nothing');
  });

  it('sums the refusals of the addresses beyond maxClients in one line when a flood comes from many addresses', () => {
    const { logger, lines } = capturedLogger();
    const log = new RateLimitLog({ logger, message: 'comment rate limit exceeded', windowMs: 60_000, maxClients: 2 });
    for (let i = 0; i < 10; i++) for (const client of ['a', 'b', 'c', 'd']) log.count(client, '/x');
    log.flush();
    assert.deepEqual(
      lines.map(({ client, rejected }) => [client, rejected]),
      [
        ['a', 10],
        ['b', 10],
        ['beyond the first 2 addresses', 20],
      ],
    );
  });
});
