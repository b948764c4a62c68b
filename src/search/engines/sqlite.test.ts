import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { engineContractTests } from './contract.js';
import { SUGGESTION_TOTAL_CAP, SqliteEngine } from './sqlite.js';

const dir = mkdtempSync(join(tmpdir(), 'sitestack-sqlite-engine-'));
after(() => rmSync(dir, { recursive: true, force: true }));

engineContractTests('sqlite', async () => new SqliteEngine({ path: join(dir, 'search.sqlite') }));

describe('SqliteEngine suggestions', () => {
  it('counts a suggestion up to SUGGESTION_TOTAL_CAP when more documents match', async () => {
    const engine = new SqliteEngine({ path: join(dir, 'suggest-cap.sqlite') });
    try {
      await engine.createIndex('cap');
      const documents = Array.from({ length: SUGGESTION_TOTAL_CAP + 20 }, (_, i) => ({
        id: `p${i}`, url: `/p${i}`, title: `Pelican ${i}`, body: '', summary: '', popularity: 0, locale: 'en-US', slug: `p${i}`,
      }));
      await engine.bulk('cap', documents);
      await engine.refresh('cap');
      assert.deepEqual(await engine.suggest({ index: 'cap', text: 'pelcian' }), [{ text: 'pelican', total: SUGGESTION_TOTAL_CAP }]);
      assert.equal(await engine.count({ index: 'cap', text: 'pelican' }), SUGGESTION_TOTAL_CAP + 20, 'count() stays exact');
    } finally {
      await engine.close();
    }
  });
});

describe('SqliteEngine build transactions', () => {
  const page = (id: string) => ({ id, url: `/${id}`, title: `Heron ${id}`, body: 'grey heron', summary: '', popularity: 0.5, locale: 'en-US', slug: id });

  it('shows writes to an index no alias points at to other connections after refresh', async () => {
    const file = join(dir, 'build-tx.sqlite');
    const writer = new SqliteEngine({ path: file });
    const reader = new SqliteEngine({ path: file });
    try {
      await writer.createIndex('building');
      await writer.bulk('building', [page('a'), page('b')]);
      await writer.bulk('building', [page('c')]);
      assert.equal(await writer.count({ index: 'building', text: 'heron' }), 3, 'the writer sees its own writes');
      assert.equal(await reader.count({ index: 'building', text: 'heron' }), 0, 'other connections see nothing before refresh');
      await writer.refresh('building');
      assert.equal(await reader.count({ index: 'building', text: 'heron' }), 3);
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it('commits writes to an aliased index at every bulk call, and pending build writes at close', async () => {
    const file = join(dir, 'live-tx.sqlite');
    const writer = new SqliteEngine({ path: file });
    const reader = new SqliteEngine({ path: file });
    try {
      await writer.createIndex('live');
      await writer.updateAliases([{ add: { index: 'live', alias: 'site' } }]);
      await writer.bulk('live', [page('a')]);
      assert.equal(await reader.count({ index: 'site', text: 'heron' }), 1);
      await writer.createIndex('next');
      await writer.bulk('next', [page('a'), page('b')]);
      await writer.close();
      assert.equal(await reader.count({ index: 'next', text: 'heron' }), 2);
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it('commits every buildTransactionDocuments documents', async () => {
    const file = join(dir, 'capped-tx.sqlite');
    const writer = new SqliteEngine({ path: file, buildTransactionDocuments: 2 });
    const reader = new SqliteEngine({ path: file });
    try {
      await writer.createIndex('capped');
      await writer.bulk('capped', [page('a')]);
      assert.equal(await reader.count({ index: 'capped', text: 'heron' }), 0);
      await writer.bulk('capped', [page('b')]);
      assert.equal(await reader.count({ index: 'capped', text: 'heron' }), 2);
    } finally {
      await writer.close();
      await reader.close();
    }
  });
});

describe('SqliteEngine page size', () => {
  it('creates a new database file with pageBytes pages and keeps the page size of an existing one', async () => {
    const file = join(dir, 'pages.sqlite');
    await new SqliteEngine({ path: file, pageBytes: 8192 }).close();
    await new SqliteEngine({ path: file }).close();
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.pragma('page_size', { simple: true }), 8192);
    } finally {
      db.close();
    }
    assert.throws(() => new SqliteEngine({ path: join(dir, 'odd.sqlite'), pageBytes: 3000 }), /power of two/);
  });

  it('uses 16 KB pages for a new file by default', async () => {
    const file = join(dir, 'default-pages.sqlite');
    await new SqliteEngine({ path: file }).close();
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.pragma('page_size', { simple: true }), 16_384);
    } finally {
      db.close();
    }
  });
});
