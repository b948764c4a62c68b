import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { silentLogger } from '../../log.js';
import { SqliteEngine } from '../engines/sqlite/engine.js';
import { ensureSearchIndex, type EnsureSearchIndexOptions } from './ensure-index.js';
import { DEFAULT_INDEX_PREFIX } from './index-names.js';
import { startStubOrigin, type StubOrigin } from '../test-support/origin-stub.js';

/** What ensureSearchIndex reads of the configuration, as it is when only DATA_DIR and API_BASE are set. */
function configFor(dataDir: string, apiBase: string): EnsureSearchIndexOptions['config'] {
  return { dataDir, apiBase, searchUrl: `sqlite:${join(dataDir, 'search.sqlite')}`, searchPrefix: DEFAULT_INDEX_PREFIX };
}

describe('ensureSearchIndex', () => {
  let dir: string;
  let origin: StubOrigin;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitestack-ensure-'));
    origin = await startStubOrigin([{ oid: 'first-post', title: 'Aardvark diary', body_html: '<p>Termites <em>everywhere</em></p>' }]);
  });
  after(async () => {
    await origin.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds and indexes the origin on first start, and does nothing once the alias exists', async () => {
    const config = configFor(join(dir, 'data'), origin.url);
    const first = await ensureSearchIndex({ config, logger: silentLogger() });
    assert.equal(first?.documents, 1);
    assert.equal(first?.aliasLive, true);
    origin.posts.push({ oid: 'second', title: 'Second', body_html: '' });
    assert.equal(await ensureSearchIndex({ config, logger: silentLogger() }), undefined);
    const engine = new SqliteEngine({ path: join(dir, 'data', 'search.sqlite') });
    try {
      const [hit] = (await engine.search({ index: 'site_docs', text: 'termites' })).documents;
      assert.deepEqual([hit?.url, hit?.title, hit?.slug, hit?.locale], ['/plog/first-post', 'Aardvark diary', 'plog/first-post', 'en-US']);
      assert.equal(await engine.count({ index: 'site_docs', text: 'second' }), 0);
    } finally {
      await engine.close();
    }
  });

  it('makes an empty index live when the origin has no posts yet, so live updates have an index to fill', async () => {
    const empty = await startStubOrigin([]);
    try {
      const config = configFor(join(dir, 'empty'), empty.url);
      assert.equal(await ensureSearchIndex({ config, logger: silentLogger() }), undefined);
      const engine = new SqliteEngine({ path: join(dir, 'empty', 'search.sqlite') });
      try {
        const live = (await engine.listIndices('site_docs_')).filter((info) => info.aliases.includes('site_docs'));
        assert.deepEqual(live.map((info) => info.docCount), [0]);
        assert.deepEqual((await engine.search({ index: 'site_docs', text: 'anything' })).documents, []);
      } finally {
        await engine.close();
      }
    } finally {
      await empty.close();
    }
  });

  it('builds the index again when the live one was built by an older version, and searches the new one', async () => {
    const config = configFor(join(dir, 'outdated'), origin.url);
    await ensureSearchIndex({ config, logger: silentLogger() });
    const file = join(dir, 'outdated', 'search.sqlite');
    const db = new Database(file);
    db.prepare('UPDATE search_indices SET layout = 1').run();
    db.close();
    const report = await ensureSearchIndex({ config, logger: silentLogger() });
    assert.equal(report?.aliasLive, true);
    const engine = new SqliteEngine({ path: file });
    try {
      assert.deepEqual((await engine.listIndices('site_docs_')).map((info) => [info.aliases, info.outdated]), [[['site_docs'], undefined]], 'the old index is gone');
      assert.equal(await engine.count({ index: 'site_docs', text: 'termites' }), 1);
    } finally {
      await engine.close();
    }
  });
});
