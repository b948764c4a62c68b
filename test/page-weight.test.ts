import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { buildClient } from '../src/renderer/index.js';

describe('the client bundle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitestack-weight-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('stays within the 30 KB gzipped budget of a page\'s script when built for production', async () => {
    const manifest = await buildClient({ outDir: dir });
    const bytes = readFileSync(join(dir, manifest.buildId, manifest.script));
    const gzipped = gzipSync(bytes, { level: 9 }).length;
    // React DOM (about 60 KB) or the search analysis with its stemmers would each break the budget on their own.
    assert.ok(gzipped <= 30 * 1024, `${(gzipped / 1024).toFixed(1)} KB gzipped`);
  });
});
