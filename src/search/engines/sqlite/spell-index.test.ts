import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { STEM_MARKER } from '../../analysis/index.js';
import { deletionNeighbourhood, spellable } from '../../policy/spelling.js';
import { SqliteEngine } from './engine.js';
import type { IndexedDocument } from '../types.js';
import { vocabularyRowsSql } from './partitions.js';
import { readVocabulary } from './spell-index.js';
import { readVocabularyInThread } from './vocabulary-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'sitestack-sqlite-spell-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const page = (id: string, title: string, body: string, locale = 'en-US'): IndexedDocument => ({ id, url: `/${id}`, title, body, summary: '', popularity: 0.5, locale, slug: id });

/** The spelling tables of `index` as they are, and as a rebuild from the vocabulary would make them. */
function spellingOf(file: string, index: string): { kept: unknown; rebuilt: unknown } {
  const db = new Database(file, { readonly: true });
  try {
    const table = (name: string) => `"ix_${index}_${name}"`;
    const terms = db.prepare(`SELECT term, docs FROM ${table('spell_terms')} ORDER BY term`).raw().all() as [string, number][];
    // Every word of the vocabulary, its documents summed over the partitions' tables; stems are marked and are not
    // words (see analysis/stem.ts).
    const counts = new Map<string, number>();
    for (const partition of db.prepare(`SELECT partition FROM ${table('partitions')}`).pluck().all() as number[]) {
      for (const [term, doc] of db.prepare(`SELECT term, doc FROM ${table(`vocab_${partition}`)}`).raw().all() as [string, number][]) counts.set(term, (counts.get(term) ?? 0) + doc);
    }
    // In SQLite's order of text, by UTF-8 bytes: a character past U+FFFF comes after U+FFFF, not among surrogates.
    const vocabulary = [...counts].filter(([term]) => !term.startsWith(STEM_MARKER)).sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const keys = (db.prepare(`SELECT k.key, t.term FROM ${table('spell_keys')} k JOIN ${table('spell_terms')} t ON t.id = k.term_id`).raw().all() as string[][])
      .map((pair) => pair.join('\u0000'))
      .sort();
    const filed = vocabulary.filter(([term]) => spellable(term)).flatMap(([term]) => [...deletionNeighbourhood(term)].map((key) => `${key}\u0000${term}`)).sort();
    const documents = db.prepare(`SELECT documents FROM ${table('spell_stats')}`).pluck().get();
    const held = db.prepare(`SELECT count(*) FROM ${table('docs')}`).pluck().get();
    return { kept: { terms, keys, documents }, rebuilt: { terms: vocabulary, keys: filed, documents: held } };
  } finally {
    db.close();
  }
}

describe('TermChanges', () => {
  it('keeps the spelling tables of a live index equal to a rebuild when documents of two locales are added, replaced and deleted', async () => {
    const file = join(dir, 'live.sqlite');
    const engine = new SqliteEngine({ path: file });
    // Words the tokenizer splits, folds or keeps in ways a JS tokenizer would not all match, and plain words whose
    // counts rise and fall as documents come and go.
    const word = fc.oneof(
      fc.constantFrom('heron', 'herons', 'egret', 'ibis', 'Café', 'cafe', 'naïve', 'snake_case', 'ｆｕｌｌ', '東京都', "don't", 'x2', '42', 'Straße', 'ﬁne', 'ÉCOLE', 'résumé'),
      fc.string({ unit: 'grapheme-composite', maxLength: 6 }),
    );
    const text = fc.array(word, { maxLength: 6 }).map((words) => words.join(' '));
    const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    const step = fc.oneof(
      fc.record({ put: fc.array(fc.record({ id: ids, title: text, body: text, locale: fc.constantFrom('en-US', 'fr') }), { minLength: 1, maxLength: 3 }) }),
      fc.record({ remove: fc.array(ids, { minLength: 1, maxLength: 3 }) }),
    );
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
          const index = `live${++run}`;
          await engine.createIndex(index);
          await engine.bulk(index, [page('a', 'Grey heron', 'wading bird'), page('b', 'Great egret', 'white heron')]);
          await engine.refresh(index);
          await engine.updateAliases([{ add: { index, alias: `site${run}` } }]);
          for (const change of steps) {
            if ('put' in change) {
              const results = await engine.bulk(index, change.put.map(({ id, title, body, locale }) => page(id, title.trim() === '' ? 'Untitled' : title, body, locale)));
              assert.ok(results.every((result) => result.ok));
            } else {
              await engine.deleteDocuments(index, change.remove);
            }
          }
          const { kept, rebuilt } = spellingOf(file, index);
          assert.deepEqual(kept, rebuilt);
          await engine.deleteIndex(index);
        }),
        { numRuns: 40 },
      );
    } finally {
      await engine.close();
    }
  });
});

describe('forceMerge and the spelling tables', () => {
  const documents = Array.from({ length: 60 }, (_, i) =>
    page(`p${i}`, `Heron ${i % 7 === 0 ? 'egrets' : 'ibis'} page ${i}`, `wading bird number${i % 5} over the marsh`, i % 3 === 0 ? 'fr' : 'en-US'),
  );
  /** An engine on a new file whose index `merged` holds the documents, written in three bulk calls (three segments). */
  const filledEngine = async (name: string) => {
    const file = join(dir, name);
    const engine = new SqliteEngine({ path: file });
    await engine.createIndex('merged');
    for (let i = 0; i < documents.length; i += 20) await engine.bulk('merged', documents.slice(i, i + 20));
    return { file, engine };
  };

  it('reads on a thread of its own the same vocabulary as the writer would', async () => {
    const { file, engine } = await filledEngine('thread.sqlite');
    try {
      await engine.refresh('merged');
      const db = new Database(file, { readonly: true });
      const sql = vocabularyRowsSql('merged', db.prepare('SELECT partition FROM "ix_merged_partitions" ORDER BY partition').pluck().all() as number[]);
      const inline = readVocabulary(db, 'merged', sql);
      db.close();
      const threaded = await readVocabularyInThread({ path: file, index: 'merged', vocabularyRows: sql });
      assert.deepEqual(threaded, inline);
      assert.ok(threaded.terms.includes('heron') && threaded.documents === documents.length);
      await assert.rejects(readVocabularyInThread({ path: join(dir, 'missing.sqlite'), index: 'merged', vocabularyRows: sql }), /reading the vocabulary of merged/);
    } finally {
      await engine.close();
    }
  });

  it('leaves the spelling tables as a rebuild would, and reads the vocabulary again when a write or a new index came while the segments merged', async () => {
    const { file, engine } = await filledEngine('merge.sqlite');
    try {
      await engine.forceMerge('merged');
      let { kept, rebuilt } = spellingOf(file, 'merged');
      assert.deepEqual(kept, rebuilt);

      await engine.bulk('merged', [page('q1', 'Spoonbill', 'a wader')]);
      // The merge reads the vocabulary on a thread while it runs; this write, in the build transaction no other
      // connection sees yet, comes before the merge takes the thread's answer.
      const merged = engine.forceMerge('merged');
      await engine.bulk('merged', [page('q2', 'Zygomorphic flamingo', 'pink')]);
      await merged;
      await engine.refresh('merged');
      ({ kept, rebuilt } = spellingOf(file, 'merged'));
      assert.deepEqual(kept, rebuilt);
      assert.ok((kept as { terms: [string, number][] }).terms.some(([term]) => term === 'zygomorphic'));

      // An index deleted and made again under the same name while the segments merged is not given the old words.
      await engine.bulk('merged', [page('q3', 'Avocet', 'shore')]);
      const remade = engine.forceMerge('merged');
      await engine.deleteIndex('merged');
      await engine.createIndex('merged');
      await remade;
      ({ kept, rebuilt } = spellingOf(file, 'merged'));
      assert.deepEqual(kept, { terms: [], keys: [], documents: 0 });
      assert.deepEqual(kept, rebuilt);
    } finally {
      await engine.close();
    }
  });
});
