import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../config.js';
import { silentLogger } from '../log.js';
import { DeskClient, TEST_SCRYPT } from '../origin/desk/test-support/desk-client.js';
import { startOrigin, type RunningOrigin } from './origin-command.js';
import { createUserCommand } from './user-command.js';

const PASSWORD = 'a long enough pass phrase';

describe("the origin's desk as sitestack origin runs it", () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitestack-desk-wiring-'));
  let origin: RunningOrigin | undefined;
  const config = loadConfig({
    DATA_DIR: dir,
    PUBLIC_URL: 'https://news.example',
    DESK_LOGIN_NAME_RATE_LIMIT: '1/hour',
    SEARCH_URL: `sqlite:${join(dir, 'search.sqlite')}`,
    LOG_LEVEL: 'silent',
  });
  before(async () => {
    const command = createUserCommand({ stdin: Readable.from([Buffer.from(`${PASSWORD}\n`)]), scrypt: TEST_SCRYPT });
    assert.equal(await command.run({ args: ['add', 'alice'], config, logger: silentLogger(), out: new PassThrough() }), 0);
    origin = await startOrigin({ config, logger: silentLogger(), port: 0 });
  });
  after(async () => {
    await origin?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs in a user the CLI added, with a Secure cookie when PUBLIC_URL is https', async () => {
    const client = new DeskClient(origin?.url ?? '');
    const response = await client.login('alice', PASSWORD);
    assert.equal(response.status, 303);
    assert.match(client.lastSetCookies.find((line) => line.startsWith('sitestack_desk=')) ?? '', /HttpOnly; SameSite=Strict; Secure$/);
  });

  it('limits failed logins per name by DESK_LOGIN_NAME_RATE_LIMIT', async () => {
    assert.equal((await new DeskClient(origin?.url ?? '').login('alice', 'not the password')).status, 401);
    assert.equal((await new DeskClient(origin?.url ?? '').login('alice', PASSWORD)).status, 429);
  });
});
