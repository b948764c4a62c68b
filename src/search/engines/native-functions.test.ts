import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { latinTablesHeader } from '../../../scripts/latin-tables.js';
import { NEW_WORDS_WITHIN, fragmentsOf, matchWords, titleOf, type TermMatcher } from '../highlight.js';
import { parseIndexJson } from '../reader.js';
import { syntheticDocuments } from '../synthetic.js';
import { NATIVE_DOUBLES_FUNCTION, NATIVE_FRAGMENTS_FUNCTION, NATIVE_LIBRARY, NATIVE_MARKED_FUNCTION, NATIVE_RANK_FUNCTION, NATIVE_SEPARATOR, loadNativeFunctions, nativeDoubles, nativeFragments, nativeMarked, phraseCounts } from './native-functions.js';
import { SqliteEngine } from './sqlite.js';
import type { IndexedDocument, SearchQuery } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'sitestack-native-rank-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** An in-memory FTS5 table of three columns with the native function loaded. */
function table(rows: readonly (readonly [string, string, string])[]): Database.Database {
  const db = new Database(':memory:');
  assert.equal(loadNativeFunctions(db), undefined, `${NATIVE_LIBRARY} must be built (npm test builds it)`);
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

describe('sitestack_doubles', () => {
  it('packs every value of every row in row order, exactly, and no row as an empty BLOB', () => {
    const db = table([]);
    db.exec('CREATE TABLE numbers (id INTEGER PRIMARY KEY, value REAL)');
    const insert = db.prepare('INSERT INTO numbers (id, value) VALUES (?, ?)');
    const rows = [[-4503599627370496, 0.1], [-4503599610593280, 12.345678901234567], [7, 3.5]];
    for (const row of rows) insert.run(...row);
    const pack = db.prepare(`SELECT ${NATIVE_DOUBLES_FUNCTION}(id, value) FROM (SELECT id, value FROM numbers WHERE id < ? ORDER BY id LIMIT 10)`).pluck();
    assert.deepEqual([...nativeDoubles(pack.get(100) as Buffer)], rows.flat());
    assert.deepEqual([...nativeDoubles(pack.get(-4503599627370496) as Buffer)], []);
    db.close();
  });

  it('reads a BLOB whose bytes are not 8-aligned by copying it', () => {
    const bytes = new Uint8Array(17);
    new DataView(bytes.buffer).setFloat64(1, 2.5, true);
    new DataView(bytes.buffer).setFloat64(9, -1, true);
    assert.deepEqual([...nativeDoubles(bytes.subarray(1))], [2.5, -1]);
  });
});

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

describe('sitestack_fragments', () => {
  const db = new Database(':memory:');
  assert.equal(loadNativeFunctions(db), undefined, `${NATIVE_LIBRARY} must be built (npm test builds it)`);
  const call = db.prepare(`SELECT ${NATIVE_FRAGMENTS_FUNCTION}(?, ?, ?, ?, ?, ?, ?, ?)`).pluck();
  interface Case {
    matcher: TermMatcher;
    fragments: number;
    length: number;
  }
  /** The native answer for `body` (read up to `limit` bytes), or null where it leaves the body to JS. */
  const native = (body: string | Buffer, limit: number, { matcher, fragments, length }: Case): string[] | null => {
    const stopWhenShown = matcher.prefixes === undefined ? 1 : 0;
    const answer = call.get(body, limit, [...matcher.terms].join(NATIVE_SEPARATOR), (matcher.prefixes ?? []).join(NATIVE_SEPARATOR), stopWhenShown, fragments, length, NEW_WORDS_WITHIN) as string | null;
    return answer === null ? null : nativeFragments(answer);
  };
  const inJs = (body: string, { matcher, fragments, length }: Case) =>
    fragmentsOf(matchWords(body, matcher), { fragments, length }, matcher.prefixes === undefined ? matcher.terms : undefined);

  // Words that fold (accents, ligature-free Latin letters, ª, µ, ²), that differ by case, and punctuation that HTML escapes.
  const WORD = fc.constantFrom('café', 'Café', 'CAFE', 'cafés', 'array', 'Array', 'arrays', 'über', 'uber', 'the', 'of', 'ß', 'µ', 'x²', 'ª', 'naïve', 'déjà', 'a', 'b', 'Ærø');
  const GAP = fc.constantFrom(' ', ' ', ' ', ', ', '. ', '\n', '\t', '\u00a0', ' & ', ' <b> ', ' "q" ', "'", '-', ' ¨ ');
  const text = (minWords: number, maxWords: number) => fc.array(fc.tuple(WORD, GAP), { minLength: minWords, maxLength: maxWords }).map((parts) => parts.map(([word, gap]) => word + gap).join(''));
  const settings = fc.record({
    matcher: fc.oneof(
      fc.uniqueArray(fc.constantFrom('cafe', 'array', 'uber', 'the', 'ss', 'μ', 'x2', 'a', 'deja', 'naive', 'aerø', 'zzz', ''), { minLength: 1, maxLength: 3 }).map((terms) => ({ terms: new Set(terms) })),
      fc.tuple(fc.constantFrom('cafe', 'the', 'a'), fc.constantFrom('caf', 'arr', 'ub', 'x', 'd')).map(([term, prefix]) => ({ terms: new Set([term]), prefixes: [prefix] })),
    ),
    fragments: fc.constantFrom(0, 1, 3, 5),
    length: fc.constantFrom(20, 60, 120),
  });

  it('answers what the JS highlighter answers for every text of characters below U+0250', () => {
    fc.assert(
      fc.property(fc.oneof(text(0, 60), text(500, 3000)), settings, (body, options) => {
        assert.deepEqual(native(body, Buffer.byteLength(body), options), inJs(body, options));
      }),
      { numRuns: 400 },
    );
  });

  it("answers a beginning's fragments only when they are the whole text's, wherever it is cut", () => {
    let answered = 0;
    fc.assert(
      fc.property(text(2500, 4000), settings, fc.integer({ min: 0, max: 1000 }), (body, options, permille) => {
        const at = permille / 1000;
        const bytes = Buffer.from(body);
        // Mostly past the first NEW_WORDS_WITHIN characters (up to two bytes each here), which a beginning must hold
        // unless every word shows early.
        const held = Math.min(bytes.length, 2 * NEW_WORDS_WITHIN);
        const cut = Math.floor(at < 0.2 ? (at / 0.2) * bytes.length : held + ((at - 0.2) / 0.8) * (bytes.length - held));
        const beginning = native(bytes, cut, options);
        if (beginning === null) return;
        if (cut < bytes.length) answered++;
        assert.deepEqual(beginning, inJs(body, options));
      }),
      { numRuns: 400 },
    );
    assert.ok(answered > 200, `${answered} beginnings answered`);
  });

  it('marks a whole title as the JS highlighter does, and leaves to JS a title it cannot read', () => {
    const marked = db.prepare(`SELECT ${NATIVE_MARKED_FUNCTION}(?, ?, ?)`).pluck();
    const mark = (title: string, matcher: TermMatcher) => {
      const answer = marked.get(title, [...matcher.terms].join(NATIVE_SEPARATOR), (matcher.prefixes ?? []).join(NATIVE_SEPARATOR)) as string | null;
      return answer === null ? null : nativeMarked(answer);
    };
    fc.assert(
      fc.property(text(0, 12), settings, (title, { matcher }) => {
        assert.deepEqual(mark(title, matcher), titleOf(matchWords(title, matcher)));
      }),
      { numRuns: 500 },
    );
    assert.deepEqual(mark('Café <b> & crème', { terms: new Set(['cafe']) }), ['<mark>Café</mark> &lt;b&gt; &amp; crème']);
    assert.equal(mark('Café Привет', { terms: new Set(['cafe']) }), null);
  });

  it('leaves to JS a text holding a character from U+0250 up, or one that folds to several', () => {
    const options = { matcher: { terms: new Set(['cafe']) }, fragments: 3, length: 120 };
    for (const body of ['café ʃ', 'café Привет', 'café 東京', 'café 😀', 'café ǆ', 'İ café', 'café e\u0301']) assert.equal(native(body, 1000, options), null, body);
    assert.deepEqual(native('café au lait', 1000, options), ['<mark>café</mark> au lait']);
  });

  it('leaves malformed UTF-8 to JS, and refuses fragment counts it cannot place', () => {
    const options = { matcher: { terms: new Set(['cafe']) }, fragments: 3, length: 120 };
    assert.equal(native(Buffer.from([0x63, 0x61, 0x66, 0xc3]), 1000, options), null);
    assert.equal(native(Buffer.from([0x63, 0xff, 0x20, 0x61]), 1000, options), null);
    assert.equal(native(Buffer.from([0x63, 0x61, 0x66, 0xc3, 0xa9, 0x20, 0x61, 0xc3]), 7, options), null);
    assert.deepEqual(native('', 1000, options), []);
    assert.throws(() => native('café', 1000, { ...options, fragments: 17 }), /fragments must be 0-16/);
  });

  it('reads characters as the committed tables say, and the tables are what JS answers today', () => {
    assert.equal(readFileSync(new URL('../../../native/latin-tables.h', import.meta.url), 'utf8'), latinTablesHeader(), 'run: node --import tsx scripts/latin-tables.ts > native/latin-tables.h');
  });
});

describe('loadNativeFunctions', () => {
  it('answers what is wrong when the library is missing, and leaves the connection as it was', () => {
    const db = new Database(':memory:');
    const problem = loadNativeFunctions(db, join(dir, 'missing.so'));
    assert.match(problem ?? '', /missing\.so is not built/);
    assert.throws(() => db.prepare(`SELECT ${NATIVE_RANK_FUNCTION}(1)`), /no such function/);
    db.close();
  });
});

describe('SqliteEngine with the native functions', () => {
  it('scores a phrase of several words by its rarest word unless told to count it, the whole phrase first either way', async () => {
    const file = join(dir, 'phrase-counts.sqlite');
    const page = (id: string, body: string): IndexedDocument => ({ id, url: `/${id}`, title: id, body, summary: '', popularity: 0.5, locale: 'en', slug: id });
    const writer = new SqliteEngine({ path: file });
    await writer.createIndex('phrases');
    await writer.bulk('phrases', [
      page('whole', 'a service worker caches responses'),
      page('scattered', 'the worker restarts a service'),
      ...Array.from({ length: 8 }, (_, i) => page(`service-${i}`, `service desk ${i}`)),
      ...Array.from({ length: 3 }, (_, i) => page(`worker-${i}`, `worker bee ${i}`)),
      ...Array.from({ length: 30 }, (_, i) => page(`other-${i}`, `unrelated text ${i}`)),
    ]);
    await writer.refresh('phrases');
    const estimated = new SqliteEngine({ path: file });
    const exact = new SqliteEngine({ path: file, exactPhraseCounts: true });
    const builtin = new SqliteEngine({ path: file, nativeRank: false });
    try {
      const query = { index: 'phrases', text: 'service worker', sort: 'relevance' as const };
      const [byEstimate, byCount, byBuiltin] = [await estimated.search(query), await exact.search(query), await builtin.search(query)];
      for (const result of [byEstimate, byCount, byBuiltin]) assert.deepEqual(result.documents.map((hit) => hit.url), ['/whole', '/scattered']);
      const [wholeEstimated, scatteredEstimated] = byEstimate.documents.map((hit) => hit.score) as [number, number];
      const [wholeCounted, scatteredCounted] = byCount.documents.map((hit) => hit.score) as [number, number];
      assert.ok(Math.abs(wholeCounted - (byBuiltin.documents[0]?.score ?? Number.NaN)) < 1e-9, 'counted exactly, the score is bm25()');
      // The phrase is in 1 document, its rarest word in 5 of 43: a smaller IDF for the phrase, the same for each word.
      assert.ok(wholeEstimated < wholeCounted - 0.1, `${wholeEstimated} < ${wholeCounted}`);
      assert.ok(Math.abs(scatteredEstimated - scatteredCounted) < 1e-9);
    } finally {
      await Promise.all([writer.close(), estimated.close(), exact.close(), builtin.close()]);
    }
  });

  it('finds, orders, scores, counts and highlights exactly as with bm25() and the JS highlighter', async () => {
    const file = join(dir, 'same-ranking.sqlite');
    const writer = new SqliteEngine({ path: file, nativeRank: false, nativeHighlight: false });
    const documents: IndexedDocument[] = [];
    for (const { folder, json } of syntheticDocuments({ documents: 1500, seed: 3, vocabularySize: 300 })) {
      const read = parseIndexJson(`${folder}/index.json`, Buffer.from(JSON.stringify(json)));
      if ('document' in read) documents.push(read.document);
    }
    // Bodies the native highlighter leaves to JS (characters past U+024F), and long ones it reads the beginning of.
    const base = documents.slice(0, 40);
    documents.push(
      ...base.slice(0, 20).map((document, i) => ({ ...document, id: `cyrillic-${i}`, url: `/ru/${i}`, title: `${document.title} мир`, body: `Привет ${document.body} мир` })),
      ...base.slice(20).map((document, i) => ({ ...document, id: `long-${i}`, url: `/long/${i}`, body: `${document.body} ${'filler text '.repeat(2500 + i * 300)}${document.title}` })),
    );
    await writer.createIndex('same');
    await writer.bulk('same', documents);
    await writer.forceMerge('same');
    const native = new SqliteEngine({ path: file, exactPhraseCounts: true });
    const builtin = new SqliteEngine({ path: file, nativeRank: false, nativeHighlight: false });
    try {
      assert.equal(native.nativeRank, true);
      assert.equal(native.nativeHighlight, true);
      assert.equal(builtin.nativeRank, false);
      assert.equal(builtin.nativeHighlight, false);
      const queries: SearchQuery[] = documents.slice(0, 120).flatMap((document, i) => {
        const words = document.title.split(' ');
        return [
          { index: 'same', text: document.title, sort: (['best', 'relevance', 'popularity'] as const)[i % 3], highlight: true },
          { index: 'same', text: words.slice(0, 2).join(' '), locales: [document.locale], size: 20, highlight: { fragments: 2, fragmentLength: 60 } },
          { index: 'same', text: `${words[0]} ${(words[1] ?? '').slice(0, 3)}`, highlight: i % 2 === 0 },
        ];
      });
      let scored = 0;
      let highlighted = 0;
      const kinds = new Set<string>();
      for (const query of queries) {
        const [a, b] = [await native.search(query), await builtin.search(query)];
        assert.deepEqual(a.documents.map((hit) => hit.url), b.documents.map((hit) => hit.url), query.text);
        a.documents.forEach((hit, i) => assert.ok(Math.abs(hit.score - (b.documents[i]?.score ?? Number.NaN)) < 1e-9, `${query.text}: ${hit.url}`));
        assert.deepEqual(a.documents.map((hit) => hit.highlight), b.documents.map((hit) => hit.highlight), query.text);
        assert.deepEqual(a.total, b.total);
        scored += a.documents.length;
        highlighted += a.documents.filter((hit) => (hit.highlight?.body.length ?? 0) > 0).length;
        for (const hit of a.documents) if (hit.highlight !== undefined) kinds.add(hit.url.split('/')[1] ?? '');
      }
      assert.ok(kinds.has('ru') && kinds.has('long'), `bodies left to JS and long bodies were highlighted: ${[...kinds].join(', ')}`);
      assert.ok(scored > 1000, `${scored} hits compared`);
      assert.ok(highlighted > 500, `${highlighted} hits with body fragments compared`);
    } finally {
      await Promise.all([writer.close(), native.close(), builtin.close()]);
    }
  });
});
