import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteEngine } from './engine.js';
import { tablesOf } from './tables.js';
import { testDirectory, withEngine } from '../../test-support/sqlite-engine.js';

const dir = testDirectory('sitestack-sqlite-storage-');

describe('SqliteEngine live writes', () => {
  const page = (id: string, title: string, body = '') => ({ id, url: `/${id}`, title, body, summary: '', popularity: 0.5, locale: 'en-US', slug: id });

  it('shows search, suggest and autocomplete a live write at once when another connection or its own writes it', async () => {
    const file = join(dir, 'live-writes.sqlite');
    await withEngine(file, async (reader) => {
      await withEngine(file, async (writer) => {
        await writer.createIndex('live');
        await writer.bulk('live', [page('post', 'Pangolin habits', 'scales'), page('other', 'Armadillo', 'armour')]);
        await writer.refresh('live');
        await writer.updateAliases([{ add: { index: 'live', alias: 'site' } }]);
        // The reader remembers what it looked up: words the index lacks, term counts, completions.
        assert.deepEqual((await reader.search({ index: 'site', text: 'echidna' })).total, { value: 0, relation: 'eq' });
        assert.deepEqual(await reader.suggest({ index: 'site', text: 'echidma' }), []);
        assert.deepEqual(await reader.suggest({ index: 'site', text: 'pangolim' }), [{ text: 'pangolin', total: 1, relation: 'eq' }]);
        assert.deepEqual(await reader.autocomplete({ index: 'site', prefix: 'echid' }), []);

        await writer.bulk('live', [page('post', 'Echidna spines', 'quills')]);
        assert.deepEqual((await reader.search({ index: 'site', text: 'echidna' })).documents.map((hit) => hit.id), ['post']);
        assert.deepEqual((await reader.search({ index: 'site', text: 'pangolin' })).total, { value: 0, relation: 'eq' });
        assert.deepEqual(await reader.suggest({ index: 'site', text: 'echidma' }), [{ text: 'echidna', total: 1, relation: 'eq' }]);
        assert.deepEqual(await reader.suggest({ index: 'site', text: 'pangolim' }), []);
        assert.deepEqual((await reader.autocomplete({ index: 'site', prefix: 'echid' })).map((match) => match.url), ['/post']);

        assert.deepEqual(await writer.deleteDocuments('live', ['post']), [{ id: 'post', deleted: true }]);
        assert.deepEqual((await reader.search({ index: 'site', text: 'echidna' })).total, { value: 0, relation: 'eq' });
        assert.deepEqual(await reader.suggest({ index: 'site', text: 'echidma' }), []);
        assert.deepEqual(await reader.autocomplete({ index: 'site', prefix: 'echid' }), []);
      });
      await reader.bulk('live', [page('own', 'Numbat', 'termites')]);
      assert.deepEqual(await reader.suggest({ index: 'site', text: 'numbta' }), [{ text: 'numbat', total: 1, relation: 'eq' }]);
      assert.deepEqual((await reader.autocomplete({ index: 'site', prefix: 'numb' })).map((match) => match.url), ['/own']);
      await reader.deleteDocuments('live', ['own']);
      assert.deepEqual(await reader.suggest({ index: 'site', text: 'numbta' }), []);
      assert.deepEqual(await reader.autocomplete({ index: 'site', prefix: 'numb' }), []);
    });
  });

  it('writes a document whole or not at all, and the documents after it, when SQLite refuses one of its rows', async () => {
    const file = join(dir, 'refused-row.sqlite');
    await withEngine(file, async (engine) => {
      await engine.createIndex('refusing');
      await engine.bulk('refusing', [page('first', 'Ibis wading')]);
      await engine.refresh('refusing');
      const db = new Database(file);
      db.exec(`CREATE TRIGGER refuse_bittern BEFORE INSERT ON ${tablesOf('refusing').prefixes} WHEN NEW.prefix = 'bittern' BEGIN SELECT RAISE(ABORT, 'refused'); END`);
      db.close();
      const results = await engine.bulk('refusing', [page('a', 'Heron fishing'), page('b', 'Bittern booming'), page('c', 'Heron nesting')]);
      assert.deepEqual(results.map((result) => result.ok), [true, false, true], JSON.stringify(results));
      await engine.refresh('refusing');
      const found = async (text: string) => (await engine.search({ index: 'refusing', text })).documents.map((hit) => hit.id).sort();
      assert.deepEqual(await found('heron'), ['a', 'c']);
      assert.deepEqual(await found('booming'), [], 'no half-written document');
      assert.deepEqual((await engine.autocomplete({ index: 'refusing', prefix: 'bit' })).map((match) => match.url), []);
    });
  });

  it('builds the spelling tables of a live index that has none at its first write', async () => {
    await withEngine(join(dir, 'live-first-write.sqlite'), async (engine) => {
      await engine.createIndex('fresh');
      await engine.updateAliases([{ add: { index: 'fresh', alias: 'site' } }]);
      await engine.bulk('fresh', [page('a', 'Quokka smiles')]);
      assert.deepEqual(await engine.suggest({ index: 'site', text: 'quokak' }), [{ text: 'quokka', total: 1, relation: 'eq' }]);
      await engine.bulk('fresh', [page('b', 'Wombat burrows')]);
      assert.deepEqual(await engine.suggest({ index: 'site', text: 'wombta' }), [{ text: 'wombat', total: 1, relation: 'eq' }]);
    });
  });
});

describe('SqliteEngine build transactions', () => {
  const page = (id: string) => ({ id, url: `/${id}`, title: `Heron ${id}`, body: 'grey heron', summary: '', popularity: 0.5, locale: 'en-US', slug: id });

  /** A writing and a reading connection to a fresh file, both closed when `use` is done. */
  async function withWriterAndReader(file: string, writerOptions: { buildTransactionDocuments?: number }, use: (writer: SqliteEngine, reader: SqliteEngine) => Promise<void>): Promise<void> {
    const writer = new SqliteEngine({ path: join(dir, file), ...writerOptions });
    const reader = new SqliteEngine({ path: join(dir, file) });
    try {
      await use(writer, reader);
    } finally {
      await writer.close();
      await reader.close();
    }
  }

  it('shows writes to an index no alias points at to other connections after refresh', async () => {
    await withWriterAndReader('build-tx.sqlite', {}, async (writer, reader) => {
      await writer.createIndex('building');
      await writer.bulk('building', [page('a'), page('b')]);
      await writer.bulk('building', [page('c')]);
      assert.equal(await writer.count({ index: 'building', text: 'heron' }), 3, 'the writer sees its own writes');
      assert.equal(await reader.count({ index: 'building', text: 'heron' }), 0, 'other connections see nothing before refresh');
      await writer.refresh('building');
      assert.equal(await reader.count({ index: 'building', text: 'heron' }), 3);
    });
  });

  it('commits writes to an aliased index at every bulk call, and pending build writes at close', async () => {
    await withWriterAndReader('live-tx.sqlite', {}, async (writer, reader) => {
      await writer.createIndex('live');
      await writer.updateAliases([{ add: { index: 'live', alias: 'site' } }]);
      await writer.bulk('live', [page('a')]);
      assert.equal(await reader.count({ index: 'site', text: 'heron' }), 1);
      await writer.createIndex('next');
      await writer.bulk('next', [page('a'), page('b')]);
      await writer.close();
      assert.equal(await reader.count({ index: 'next', text: 'heron' }), 2);
    });
  });

  it('answers a word no document holds with nothing, and finds one written to an aliased index since the last refresh', async () => {
    await withWriterAndReader('stale-spelling.sqlite', {}, async (writer, reader) => {
      await writer.createIndex('live');
      await writer.updateAliases([{ add: { index: 'live', alias: 'site' } }]);
      await writer.bulk('live', [page('a'), page('b')]);
      await writer.refresh('live');
      assert.deepEqual((await reader.search({ index: 'site', text: 'grey egret', corrections: false })).total, { value: 0, relation: 'eq' });
      assert.equal(await reader.count({ index: 'site', text: 'egret' }), 0);
      // The spelling statistics, rebuilt by refresh, do not know `egret` yet: FTS5 does.
      await writer.bulk('live', [{ ...page('c'), body: 'grey egret' }]);
      for (const text of ['grey egret', 'egret grey', 'egret']) {
        const result = await reader.search({ index: 'site', text });
        assert.deepEqual(result.documents.map((hit) => hit.id), ['c'], text);
        assert.equal(await reader.count({ index: 'site', text }), 1, text);
      }
    });
  });

  it('follows an alias swap and a new spelling index made by another connection or by its own', async () => {
    await withWriterAndReader('swap.sqlite', {}, async (writer, reader) => {
      await writer.createIndex('first');
      await writer.bulk('first', [page('a')]);
      await writer.refresh('first');
      await writer.updateAliases([{ add: { index: 'first', alias: 'site' } }]);
      assert.equal(await reader.count({ index: 'site', text: 'heron' }), 1);
      assert.deepEqual(await reader.suggest({ index: 'site', text: 'pelicam' }), [], 'no pelican anywhere yet');
      await writer.createIndex('second');
      await writer.bulk('second', [page('a'), page('b'), { ...page('c'), body: 'pelican colony' }]);
      await writer.refresh('second');
      await writer.updateAliases([{ remove: { index: 'first', alias: 'site' } }, { add: { index: 'second', alias: 'site' } }]);
      assert.equal(await reader.count({ index: 'site', text: 'heron' }), 3, 'the reader follows the swap it did not make');
      assert.deepEqual(await reader.suggest({ index: 'site', text: 'pelicam' }), [{ text: 'pelican', total: 1, relation: 'eq' }]);
      await reader.updateAliases([{ remove: { index: 'second', alias: 'site' } }, { add: { index: 'first', alias: 'site' } }]);
      assert.equal(await reader.count({ index: 'site', text: 'heron' }), 1, 'and the swap it made itself');
      await reader.deleteIndex('second');
      await reader.createIndex('second');
      await reader.bulk('second', [page('d')]);
      await reader.updateAliases([{ remove: { index: 'first', alias: 'site' } }, { add: { index: 'second', alias: 'site' } }]);
      assert.deepEqual(await reader.suggest({ index: 'site', text: 'pelicam' }), [], 'a new index has no spelling tables before refresh');
      await reader.refresh('second');
      assert.deepEqual(await reader.suggest({ index: 'site', text: 'herron' }), [{ text: 'heron', total: 1, relation: 'eq' }], 'until its own refresh builds them');
    });
  });

  it('commits every buildTransactionDocuments documents', async () => {
    await withWriterAndReader('capped-tx.sqlite', { buildTransactionDocuments: 2 }, async (writer, reader) => {
      await writer.createIndex('capped');
      await writer.bulk('capped', [page('a')]);
      assert.equal(await reader.count({ index: 'capped', text: 'heron' }), 0);
      await writer.bulk('capped', [page('b')]);
      assert.equal(await reader.count({ index: 'capped', text: 'heron' }), 2);
    });
  });
});

describe('SqliteEngine page size', () => {
  function pageSizeOf(file: string): unknown {
    const db = new Database(file, { readonly: true });
    try {
      return db.pragma('page_size', { simple: true });
    } finally {
      db.close();
    }
  }

  it('creates a new database file with pageBytes pages and keeps the page size of an existing one', async () => {
    const file = join(dir, 'pages.sqlite');
    await new SqliteEngine({ path: file, pageBytes: 8192 }).close();
    await new SqliteEngine({ path: file }).close();
    assert.equal(pageSizeOf(file), 8192);
    assert.throws(() => new SqliteEngine({ path: join(dir, 'odd.sqlite'), pageBytes: 3000 }), /power of two/);
  });

  it('uses 16 KB pages for a new file by default', async () => {
    const file = join(dir, 'default-pages.sqlite');
    await new SqliteEngine({ path: file }).close();
    assert.equal(pageSizeOf(file), 16_384);
  });
});

describe('SqliteEngine merges', () => {
  it('builds, merges and deletes with the memory map off, so that the pages they read do not stay in the process, and maps again afterwards', async () => {
    const engine = new SqliteEngine({ path: join(dir, 'merge-map.sqlite'), mmapMiB: 64 });
    const pragmas: string[] = [];
    const pragma = Database.prototype.pragma;
    const mapped = `mmap_size = ${64 * 1024 * 1024}`;
    try {
      await engine.createIndex('mapped');
      const page = (id: string, title: string) => ({ id, url: `/${id}`, title, body: 'wading bird', summary: '', popularity: 0.5, locale: 'en-US', slug: id });
      Database.prototype.pragma = function (this: Database.Database, source: string, options?: Database.PragmaOptions) {
        if (source.startsWith('mmap_size')) pragmas.push(source);
        return pragma.call(this, source, options);
      };
      await engine.bulk('mapped', [page('a', 'Grey heron')]);
      await engine.bulk('mapped', [page('b', 'Great egret')]);
      assert.deepEqual(pragmas, ['mmap_size', 'mmap_size = 0'], 'off from the first write of the build transaction, for all of it');
      await engine.forceMerge('mapped');
      assert.deepEqual(pragmas.slice(2), [mapped, 'mmap_size', 'mmap_size = 0', mapped], 'on at its commit, off for the merge, on after');
      await engine.bulk('mapped', [page('c', 'Little egret')]);
      await engine.updateAliases([{ add: { index: 'mapped', alias: 'birds' } }]);
      await engine.bulk('mapped', [page('d', 'Night heron')]);
      assert.deepEqual(pragmas.slice(6), ['mmap_size', 'mmap_size = 0', mapped], 'a live index commits every write, mapped');
      await engine.deleteIndex('mapped');
      assert.deepEqual(pragmas.slice(9), ['mmap_size', 'mmap_size = 0', mapped], 'off while the tables are dropped, on after');
    } finally {
      Database.prototype.pragma = pragma;
      await engine.close();
    }
  });
});

describe('SqliteEngine index layouts', () => {
  it('lists an index of an older layout as outdated and refuses to search or write it with a message saying what to run', async () => {
    const file = join(dir, 'layouts.sqlite');
    await withEngine(file, async (engine) => {
      await engine.createIndex('old_layout');
      await engine.updateAliases([{ add: { index: 'old_layout', alias: 'old' } }]);
    });
    const db = new Database(file);
    db.prepare("UPDATE search_indices SET layout = 1 WHERE name = 'old_layout'").run();
    db.close();
    await withEngine(file, async (engine) => {
      assert.deepEqual((await engine.listIndices('old_')).map((info) => [info.name, info.outdated]), [['old_layout', true]]);
      for (const name of ['old', 'old_layout']) {
        await assert.rejects(engine.search({ index: name, text: 'x' }), { code: 'SEARCH_INDEX_OUTDATED', status: 503, message: /older version of sitestack.*sitestack index/ });
      }
      await assert.rejects(engine.bulk('old_layout', []), { code: 'SEARCH_INDEX_OUTDATED' });
      await engine.deleteIndex('old_layout');
      assert.deepEqual(await engine.listIndices('old_'), []);
    });
  });

  it('deletes an index of the layout before full-text tables were per partition, every table of it', async () => {
    const file = join(dir, 'layout-5.sqlite');
    await withEngine(file, async (engine) => {
      await engine.createIndex('current');
    });
    const db = new Database(file);
    // The tables of layout 5: one full-text table, title table and vocabulary for every locale.
    db.exec(`
      INSERT INTO search_indices (name, created_at, layout) VALUES ('five', '2026-11-24T00:00:00Z', 5);
      CREATE TABLE ix_five_docs (rowid INTEGER PRIMARY KEY, id TEXT);
      CREATE TABLE ix_five_prefixes (prefix TEXT, doc INTEGER);
      CREATE VIRTUAL TABLE ix_five_fts USING fts5(title, summary, body, title_stems, text_stems, tokenize = 'ascii', content = '', contentless_delete = 1);
      CREATE VIRTUAL TABLE ix_five_titles USING fts5(title, title_stems, tokenize = 'ascii', content = '', contentless_delete = 1);
      CREATE VIRTUAL TABLE ix_five_vocab USING fts5vocab(ix_five_fts, 'row');
    `);
    db.close();
    await withEngine(file, async (engine) => {
      await engine.deleteIndex('five');
      assert.deepEqual((await engine.listIndices('')).map((info) => info.name), ['current']);
    });
    const check = new Database(file, { readonly: true });
    try {
      assert.deepEqual(check.prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'ix_five%'").pluck().all(), []);
    } finally {
      check.close();
    }
  });

  it('reads a catalogue written before layouts were recorded, its indices as outdated', async () => {
    const file = join(dir, 'catalogue-v1.sqlite');
    const db = new Database(file);
    db.exec("CREATE TABLE search_indices (name TEXT PRIMARY KEY, created_at TEXT NOT NULL) STRICT; CREATE TABLE ix_v1_docs (id TEXT); INSERT INTO search_indices VALUES ('v1', '2026-01-01')");
    db.close();
    await withEngine(file, async (engine) => {
      assert.deepEqual((await engine.listIndices('v1')).map((info) => [info.name, info.docCount, info.outdated]), [['v1', 0, true]]);
      await engine.createIndex('v2');
      assert.deepEqual((await engine.listIndices('v2')).map((info) => info.outdated), [undefined]);
    });
  });
});
