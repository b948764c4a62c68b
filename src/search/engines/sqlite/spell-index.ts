import type Database from 'better-sqlite3';
import { STEM_MARKER } from '../../analysis/index.js';
import { MAX_EDIT_DISTANCE, deletionNeighbourhood, editDistance, spellable, type Candidate } from '../../policy/spelling.js';
import { quoteIdentifier, tablesOf } from './tables.js';

/**
 * The embedded engine's term statistics and "did you mean" index: every vocabulary term with its document count
 * (fts5vocab computes counts by reading a term's whole position list, far too slow per query for a common word), and
 * every spellable term filed under each string of its deletion neighbourhood. Looking a word up reads the rows of its
 * own neighbourhood only, never the whole vocabulary. An index under construction has them rebuilt from FTS5's
 * fts5vocab table at refresh and force merge; a live index has them kept up to date by every write (TermChanges).
 */

export function spellTables(index: string): { terms: string; keys: string; stats: string } {
  return {
    terms: quoteIdentifier(`ix_${index}_spell_terms`),
    keys: quoteIdentifier(`ix_${index}_spell_keys`),
    stats: quoteIdentifier(`ix_${index}_spell_stats`),
  };
}

/** An index's vocabulary: its terms (stems left out), the documents holding each, and the documents of the index. */
export interface Vocabulary {
  terms: readonly string[];
  docs: Float64Array;
  documents: number;
}

/**
 * Reads the vocabulary of `index` (`vocabularyRows`: the SQL of vocabularyRowsSql) and its number of documents; in a
 * transaction of the caller's, both are of one state of the index. The vocabulary reads every position list of the
 * index to count the documents of each term.
 */
export function readVocabulary(db: Database.Database, index: string, vocabularyRows: string): Vocabulary {
  // Stems are not words anyone typed: they are marked (see analysis/stem.ts) and left out.
  const rows = db.prepare(vocabularyRows).raw().all({ marker: STEM_MARKER }) as [string, number][];
  const documents = db.prepare(`SELECT count(*) FROM ${tablesOf(index).docs}`).pluck().get() as number;
  return { terms: rows.map((row) => row[0]), docs: Float64Array.from(rows, (row) => row[1]), documents };
}

/**
 * Rebuilds the spelling index of `index` from its vocabulary (see readVocabulary), inside the writer's transaction:
 * every term with its document count, and the number of documents the counts are out of (read per query in O(1)).
 */
export function rebuildSpellIndex(db: Database.Database, index: string, vocabulary: Vocabulary): void {
  const { terms, keys, stats } = spellTables(index);
  db.exec(`
    DROP TABLE IF EXISTS ${keys};
    DROP TABLE IF EXISTS ${terms};
    DROP TABLE IF EXISTS ${stats};
    CREATE TABLE ${terms} (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE, docs INTEGER NOT NULL) STRICT;
    CREATE TABLE ${keys} (key TEXT NOT NULL, term_id INTEGER NOT NULL, PRIMARY KEY (key, term_id)) STRICT, WITHOUT ROWID;
    CREATE TABLE ${stats} (documents INTEGER NOT NULL) STRICT;
  `);
  db.prepare(`INSERT INTO ${stats} (documents) VALUES (?)`).run(vocabulary.documents);
  const file = termFiler(db, index);
  vocabulary.terms.forEach((term, i) => file(term, vocabulary.docs[i] as number));
}

/** Adds a term with its document count to the spelling tables, filed under its deletion neighbourhood when spellable. */
function termFiler(db: Database.Database, index: string): (term: string, docs: number) => void {
  const { terms, keys } = spellTables(index);
  const insertTerm = db.prepare(`INSERT INTO ${terms} (term, docs) VALUES (?, ?)`);
  const insertKey = db.prepare(`INSERT OR IGNORE INTO ${keys} (key, term_id) VALUES (?, ?)`);
  return (term, docs) => {
    const id = insertTerm.run(term, docs).lastInsertRowid;
    if (!spellable(term)) return;
    for (const key of deletionNeighbourhood(term)) insertKey.run(key, id);
  };
}

/**
 * What the documents leaving and entering a live index in one write do to its spelling tables: per term, in how many
 * more documents it stands than before. Documents are given as the terms the index holds for them (see analysis/),
 * joined by spaces, one string per column.
 */
export class TermChanges {
  readonly #db: Database.Database;
  readonly #moves = new Map<string, number>();

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** A document whose rows were removed. */
  leaving(columns: readonly string[]): void {
    this.#move(columns, -1);
  }

  /** A document whose rows were written. */
  entering(columns: readonly string[]): void {
    this.#move(columns, 1);
  }

  #move(columns: readonly string[], by: number): void {
    const terms = new Set<string>();
    for (const column of columns) for (const term of column.split(' ')) if (term !== '') terms.add(term);
    for (const term of terms) this.#moves.set(term, (this.#moves.get(term) ?? 0) + by);
  }

  /**
   * Brings the spelling tables of `index` up to date with the documents given (`documents`: how many more the index
   * holds than before; `vocabularyCount`: the SQL of vocabularyCountSql), then forgets them. A term in as many leaving as entering documents keeps its
   * count. Another term's count moves by the difference, unless it is new to the tables or would fall to zero: then
   * it is read again from the vocabulary, which also mends a count that has drifted. The vocabulary reads a term's
   * whole position list to count it, too slow for the common words of every document on a large index; the words
   * that appear or vanish are rare, and cheap to read.
   */
  applyTo(index: string, vocabularyCount: string, documents: number): void {
    const { terms, keys, stats } = spellTables(index);
    const file = termFiler(this.#db, index);
    const known = this.#db.prepare(`SELECT id, docs FROM ${terms} WHERE term = ?`);
    const counted = this.#db.prepare(vocabularyCount).pluck();
    const update = this.#db.prepare(`UPDATE ${terms} SET docs = ? WHERE id = ?`);
    const dropTerm = this.#db.prepare(`DELETE FROM ${terms} WHERE id = ?`);
    const dropKey = this.#db.prepare(`DELETE FROM ${keys} WHERE key = ? AND term_id = ?`);
    for (const [term, move] of this.#moves) {
      const row = known.get(term) as { id: number; docs: number } | undefined;
      if (row !== undefined && move === 0) continue;
      const docs = row !== undefined && row.docs + move > 0 ? row.docs + move : ((counted.get({ term }) as number | undefined) ?? 0);
      if (row === undefined) {
        if (docs > 0) file(term, docs);
      } else if (docs > 0) {
        update.run(docs, row.id);
      } else {
        dropTerm.run(row.id);
        if (spellable(term)) for (const key of deletionNeighbourhood(term)) dropKey.run(key, row.id);
      }
    }
    if (documents !== 0) this.#db.prepare(`UPDATE ${stats} SET documents = documents + ?`).run(documents);
    this.#moves.clear();
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

  /**
   * Vocabulary terms within `distance` (at most MAX_EDIT_DISTANCE) of `word`, confirmed by their full distance. Terms
   * are filed under every deletion of up to MAX_EDIT_DISTANCE characters, so a word looks up the deletions of as many
   * characters as it may be apart from them: one edit needs a third of the keys of two.
   */
  candidates(word: string, distance = MAX_EDIT_DISTANCE): Candidate[] {
    const keys = JSON.stringify([...deletionNeighbourhood(word, distance)]);
    const rows = this.#neighbours.all(keys) as { term: string; docs: number }[];
    const found: Candidate[] = [];
    for (const row of rows) {
      const apart = editDistance(word, row.term, distance);
      if (apart > 0 && apart <= distance) found.push({ term: row.term, distance: apart, docs: row.docs });
    }
    return found;
  }
}
