import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

describe('sitestack bench', () => {
  it('exits 2 naming the known suites when asked for a suite that does not exist', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'bench', 'no-such-suite'], { encoding: 'utf8' });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /no such suite: no-such-suite; suites: .*page-cache/);
  });

  it('prints its usage when given --help', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'bench', '--help'], { encoding: 'utf8' });
    assert.equal(result.status, 0);
    assert.match(result.stdout, /Usage: sitestack bench \[suite \.\.\.\]/);
  });
});
