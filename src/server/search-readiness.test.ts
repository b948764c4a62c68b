import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../search/index.js';
import { NO_INDEX_REASON, searchReadinessCheck } from './search-readiness.js';

describe('the search check of /readyz', () => {
  it('fails with what to run when no index exists yet, and passes once the alias points at one', async () => {
    const engine = createEngine(`sqlite:${join(mkdtempSync(join(tmpdir(), 'sitestack-ready-')), 'search.sqlite')}`);
    try {
      const check = searchReadinessCheck(engine, 'site_docs');
      assert.equal(check.critical, false);
      const signal = new AbortController().signal;
      await assert.rejects(async () => check.run(signal), { message: NO_INDEX_REASON });
      assert.match(NO_INDEX_REASON, /run `sitestack content-build` and `sitestack index`/);
      await engine.createIndex('site_docs_1');
      await assert.rejects(async () => check.run(signal), { message: NO_INDEX_REASON }, 'an index that no alias names is not searched');
      await engine.updateAliases([{ add: { index: 'site_docs_1', alias: 'site_docs' } }]);
      assert.match(String(await check.run(signal)), /^(green|yellow), index site_docs_1$/);
    } finally {
      await engine.close();
    }
  });
});
