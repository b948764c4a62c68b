import type Database from 'better-sqlite3';
import { MAX_EDIT_DISTANCE, deletionNeighbourhood, editDistance, spellable, type Candidate } from '../spelling.js';

/**
 * The embedded engine's term statistics and "did you mean" index, built from FTS5's fts5vocab table at refresh and
 * force merge: every vocabulary term with its document count (fts5vocab computes counts by reading a term's whole
 * position list, far too slow per query for a common word), and every spellable term filed under each string of its
 * deletion neighbourhood. Looking a word up reads the rows of its own neighbourhood only, never the whole vocabulary.
 */

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function spellTables(index: string): { terms: string; keys: string; stats: string } {
  return {
    terms: quoteIdentifier(`ix_${index}_spell_terms`),
    keys: quoteIdentifier(`ix_${index}_spell_keys`),
    stats: quoteIdentifier(`ix_${index}_spell_stats`),
  };
}

/**
 * Rebuilds the spelling index of `index` from its vocabulary table, with the number of documents the term counts are
 * out of (`documents`, read per query in O(1)); run inside the writer's transaction.
 */
export function rebuildSpellIndex(db: Database.Database, index: string, vocabTable: string, documents: number): void {
  const { terms, keys, stats } = spellTables(index);
  db.exec(`
    DROP TABLE IF EXISTS ${keys};
    DROP TABLE IF EXISTS ${terms};
    DROP TABLE IF EXISTS ${stats};
    CREATE TABLE ${terms} (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE, docs INTEGER NOT NULL) STRICT;
    CREATE TABLE ${keys} (key TEXT NOT NULL, term_id INTEGER NOT NULL, PRIMARY KEY (key, term_id)) STRICT, WITHOUT ROWID;
    CREATE TABLE ${stats} (documents INTEGER NOT NULL) STRICT;
  `);
  db.prepare(`INSERT INTO ${stats} (documents) VALUES (?)`).run(documents);
  const insertTerm = db.prepare(`INSERT INTO ${terms} (term, docs) VALUES (?, ?)`);
  const insertKey = db.prepare(`INSERT OR IGNORE INTO ${keys} (key, term_id) VALUES (?, ?)`);
  for (const row of db.prepare(`SELECT term, doc FROM ${vocabTable}`).all() as { term: string; doc: number }[]) {
    const id = insertTerm.run(row.term, row.doc).lastInsertRowid;
    if (!spellable(row.term)) continue;
    for (const key of deletionNeighbourhood(row.term)) insertKey.run(key, id);
  }
}

export function dropSpellIndex(db: Database.Database, index: string): void {
  const { terms, keys, stats } = spellTables(index);
  db.exec(`DROP TABLE IF EXISTS ${keys}; DROP TABLE IF EXISTS ${terms}; DROP TABLE IF EXISTS ${stats};`);
}

export function hasSpellIndex(db: Database.Database, index: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(`ix_${index}_spell_terms`) !== undefined;
}

/** Looks words up in one index's spelling tables, with its statements prepared once. */
export class SpellLookup {
  readonly #knownPrefix: Database.Statement;
  readonly #neighbours: Database.Statement;

  constructor(db: Database.Database, index: string) {
    const { terms, keys } = spellTables(index);
    this.#knownPrefix = db.prepare(`SELECT 1 FROM ${terms} WHERE term >= ? AND term < ? LIMIT 1`);
    this.#neighbours = db.prepare(
      `SELECT DISTINCT t.term, t.docs FROM ${keys} k JOIN ${terms} t ON t.id = k.term_id
       WHERE k.key IN (SELECT value FROM json_each(?))`,
    );
  }

  /** Whether the vocabulary holds a term starting with the word. */
  knownPrefix(word: string): boolean {
    return this.#knownPrefix.get(word, `${word}\u{10FFFF}`) !== undefined;
  }

  /** Vocabulary terms within MAX_EDIT_DISTANCE of `word`, confirmed by their full distance. */
  candidates(word: string): Candidate[] {
    const keys = JSON.stringify([...deletionNeighbourhood(word)]);
    const rows = this.#neighbours.all(keys) as { term: string; docs: number }[];
    const found: Candidate[] = [];
    for (const row of rows) {
      const distance = editDistance(word, row.term, MAX_EDIT_DISTANCE);
      if (distance > 0 && distance <= MAX_EDIT_DISTANCE) found.push({ term: row.term, distance, docs: row.docs });
    }
    return found;
  }
}
