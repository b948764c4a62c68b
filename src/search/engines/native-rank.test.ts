import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { parseIndexJson } from '../reader.js';
import { syntheticDocuments } from '../synthetic.js';
import { NATIVE_RANK_FUNCTION, NATIVE_RANK_LIBRARY, loadNativeRank, phraseCounts } from './native-rank.js';
import { SqliteEngine } from './sqlite.js';
import type { IndexedDocument, SearchQuery } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'sitestack-native-rank-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** An in-memory FTS5 table of three columns with the native function loaded. */
function table(rows: readonly (readonly [string, string, string])[]): Database.Database {
  const db = new Database(':memory:');
  assert.equal(loadNativeRank(db), undefined, `${NATIVE_RANK_LIBRARY} must be built (npm test builds it)`);
  db.exec("CREATE VIRTUAL TABLE t USING fts5(title, summary, body, tokenize = 'unicode61 remove_diacritics 2')");
  const insert = db.prepare('INSERT INTO t (title, summary, body) VALUES (?, ?, ?)');
  for (const row of rows) insert.run(...row);
  return db;
}

/** bm25() and sitestack_bm25 given `counts`, row by row. */
function bothScores(db: Database.Database, expression: string, counts: Buffer | null): { rowid: number; bm25: number; native: number }[] {
  return db
    .prepare(`SELECT rowid, bm25(t, 10, 3, 1) AS bm25, ${NATIVE_RANK_FUNCTION}(t, 10, 3, 1, ?) AS native FROM t WHERE t MATCH ? ORDER BY rowid`)
    .all(counts, expression) as { rowid: number; bm25: number; native: number }[];
}

const WORDS = ['fetch', 'element', 'promise', 'stream', 'café', 'worker', 'cache', 'node'];

/** Rows of words drawn from a small vocabulary, so that words repeat, share rows and stand next to each other. */
function rowsOf(count: number): [string, string, string][] {
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
  return Array.from({ length: count }, () => [words(1 + Math.floor(next() * 3)), words(Math.floor(next() * 6)), words(Math.floor(next() * 40))]);
}

const EXPRESSIONS: { expression: string; phrases: string[] }[] = [
  { expression: '"fetch"', phrases: ['fetch'] },
  { expression: '("fetch" AND "element") OR "fetch element"', phrases: ['fetch', 'element', 'fetch element'] },
  { expression: '("cafe" AND ("stream" OR "streams" OR "worker")) OR "cafe stream"', phrases: ['cafe', 'stream', 'streams', 'worker', 'cafe stream'] },
  { expression: '("node" OR "node"*) AND "cache"', phrases: ['node', 'node*', 'cache'] },
];

describe('sitestack_bm25', () => {
  const db = table(rowsOf(300));
  const documentsHolding = (phrase: string) =>
    db.prepare('SELECT count(*) FROM t WHERE t MATCH ?').pluck().get(phrase.endsWith('*') ? `"${phrase.slice(0, -1)}"*` : `"${phrase}"`) as number;

  it('scores every row as bm25() does when given the document count of each phrase', () => {
    for (const { expression, phrases } of EXPRESSIONS) {
      const rows = bothScores(db, expression, phraseCounts(phrases.map(documentsHolding)));
      assert.ok(rows.length > 5, `${expression} matches some rows`);
      for (const row of rows) assert.ok(Math.abs(row.native - row.bm25) < 1e-9, `${expression}, row ${row.rowid}: ${row.native} against ${row.bm25}`);
    }
  });

  it('counts a phrase itself when its count is negative, or every phrase when the counts are not one per phrase', () => {
    for (const { expression, phrases } of EXPRESSIONS) {
      const halfUnknown = phrases.map((phrase, i) => (i % 2 === 0 ? -1 : documentsHolding(phrase)));
      for (const counts of [phraseCounts(halfUnknown), phraseCounts([...halfUnknown, 3]), phraseCounts([]), Buffer.from('nonsense'), null]) {
        for (const row of bothScores(db, expression, counts)) assert.ok(Math.abs(row.native - row.bm25) < 1e-9, `${expression}: ${row.native} against ${row.bm25}`);
      }
    }
  });

  it('uses the counts it is given: a rarer phrase weighs more', () => {
    const common = bothScores(db, '"fetch"', phraseCounts([250]))[0]?.native ?? Number.NaN;
    const rare = bothScores(db, '"fetch"', phraseCounts([2]))[0]?.native ?? Number.NaN;
    assert.ok(-rare > -common, `${rare} scores more than ${common}`);
  });
});

describe('loadNativeRank', () => {
  it('answers what is wrong when the library is missing, and leaves the connection as it was', () => {
    const db = new Database(':memory:');
    const problem = loadNativeRank(db, join(dir, 'missing.so'));
    assert.match(problem ?? '', /missing\.so is not built/);
    assert.throws(() => db.prepare(`SELECT ${NATIVE_RANK_FUNCTION}(1)`), /no such function/);
    db.close();
  });
});

describe('SqliteEngine with the native ranking function', () => {
  it('finds, orders and scores exactly as with bm25()', async () => {
    const file = join(dir, 'same-ranking.sqlite');
    const writer = new SqliteEngine({ path: file, nativeRank: false });
    const documents: IndexedDocument[] = [];
    for (const { folder, json } of syntheticDocuments({ documents: 1500, seed: 3, vocabularySize: 300 })) {
      const read = parseIndexJson(`${folder}/index.json`, Buffer.from(JSON.stringify(json)));
      if ('document' in read) documents.push(read.document);
    }
    await writer.createIndex('same');
    await writer.bulk('same', documents);
    await writer.forceMerge('same');
    const native = new SqliteEngine({ path: file });
    const builtin = new SqliteEngine({ path: file, nativeRank: false });
    try {
      assert.equal(native.nativeRank, true);
      assert.equal(builtin.nativeRank, false);
      const queries: SearchQuery[] = documents.slice(0, 120).flatMap((document, i) => {
        const words = document.title.split(' ');
        return [
          { index: 'same', text: document.title, sort: (['best', 'relevance', 'popularity'] as const)[i % 3] },
          { index: 'same', text: words.slice(0, 2).join(' '), locales: [document.locale], size: 20 },
          { index: 'same', text: `${words[0]} ${(words[1] ?? '').slice(0, 3)}` },
        ];
      });
      let scored = 0;
      for (const query of queries) {
        const [a, b] = [await native.search(query), await builtin.search(query)];
        assert.deepEqual(a.documents.map((hit) => hit.url), b.documents.map((hit) => hit.url), query.text);
        a.documents.forEach((hit, i) => assert.ok(Math.abs(hit.score - (b.documents[i]?.score ?? Number.NaN)) < 1e-9, `${query.text}: ${hit.url}`));
        assert.deepEqual(a.total, b.total);
        scored += a.documents.length;
      }
      assert.ok(scored > 1000, `${scored} hits compared`);
    } finally {
      await Promise.all([writer.close(), native.close(), builtin.close()]);
    }
  });
});
