import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findNginx, requireNginx, workerUser } from './nginx-process.js';
import { nginxForTests, tempDir } from './test-support/edge-harness.js';

const { nginx, skip } = nginxForTests();

describe('findNginx', () => {
  it('finds the executable on the search path before the sbin directories', () => {
    const dir = tempDir('sitestack-nginx-bin-');
    try {
      const bin = join(dir.path, 'my-nginx');
      writeFileSync(bin, '#!/bin/sh\n');
      chmodSync(bin, 0o755);
      assert.equal(findNginx('my-nginx', `relative/dir:${dir.path}`), bin);
      assert.equal(findNginx(bin, undefined), bin);
      chmodSync(bin, 0o644);
      assert.equal(findNginx('my-nginx', dir.path), undefined, 'a file that is not executable does not count');
      assert.equal(findNginx(dir.path, undefined), undefined, 'nor does a directory');
    } finally {
      dir.remove();
    }
  });

  it('looks in /usr/sbin when PATH lacks it', { skip }, () => {
    assert.ok(nginx!.startsWith('/'));
    assert.notEqual(findNginx('nginx', '/nonexistent'), undefined);
  });
});

describe('requireNginx', () => {
  it('names the package to install when nginx is nowhere', () => {
    assert.throws(() => requireNginx('nginx-that-does-not-exist', '/nonexistent'), {
      code: 'NGINX_NOT_FOUND',
      message: /nginx is not installed \('nginx-that-does-not-exist' is neither on PATH nor in \/usr\/sbin.*\): install it with `apt-get install nginx`, or set NGINX_BIN/,
    });
  });
});

describe('workerUser', () => {
  it('keeps the workers on the current user only when nginx starts as root', () => {
    assert.equal(workerUser(0, 'root'), 'root');
    assert.equal(workerUser(1000, 'alice'), undefined);
    assert.equal(workerUser(undefined, 'alice'), undefined);
  });
});
