import type Database from 'better-sqlite3';
import { analyzeDocument, foldPhrase, termsOf } from '../../analysis/index.js';
import { withoutControlCharacters } from '../../policy/query-text.js';
import { filedPrefixes, localePartition, partitionOf, rankBucket, rowidBlock } from './static-rank.js';
import type { TermChanges } from './spell-index.js';
import { bodyText, storedBody } from './stored-text.js';
import { tablesOf, type PartitionTables } from './tables.js';
import { validateDocument } from '../validation.js';
import type { BulkItemResult, DeleteItemResult, IndexedDocument } from '../types.js';

/** Rows of autocomplete prefixes written by one statement: three bound parameters a row, far below SQLite's bound. */
const PREFIX_ROWS_PER_STATEMENT = 128;

/** A statement of one index, prepared once per connection under `name` (the engine's statement cache). */
export type IndexStatement = (name: string, sql: () => string) => Database.Statement;

/** The full-text tables of a partition of the index written, created when missing. */
export type FullTextTables = (partition: number) => PartitionTables;

/**
 * The document rows of one index as one write changes them, inside the caller's transaction: the documents table,
 * the FTS terms, the title table and the autocomplete prefixes. Every document that leaves or enters is told to
 * `changes` when given (a live index's spelling tables follow them); `added` counts how many more documents the
 * index holds than before.
 */
export class DocumentWriter {
  readonly #statement: IndexStatement;
  readonly #index: string;
  readonly #fullText: FullTextTables;
  readonly #changes: TermChanges | undefined;
  #added = 0;

  constructor(statement: IndexStatement, index: string, fullText: FullTextTables, changes: TermChanges | undefined) {
    this.#statement = statement;
    this.#index = index;
    this.#fullText = fullText;
    this.#changes = changes;
  }

  get added(): number {
    return this.#added;
  }

  #rowidOf(id: string): bigint | undefined {
    const docs = tablesOf(this.#index).docs;
    return this.#statement('existing', () => `SELECT rowid FROM ${docs} WHERE id = ?`).safeIntegers().pluck().get(id) as bigint | undefined;
  }

  /**
   * Writes a batch in static-rank order (see static-rank.ts): a replaced document is deleted and inserted again under
   * the rowid of its new popularity. FTS5 starts a new segment whenever a rowid is lower than the one written before,
   * so the deletions go first and the insertions follow in ascending rowid order: at most two segments per call.
   * When an id repeats within the call, its last occurrence is the one written.
   */
  write(documents: readonly IndexedDocument[]): BulkItemResult[] {
    const tables = tablesOf(this.#index);
    const lastInBucket = this.#statement('last-in-bucket', () => `SELECT max(rowid) FROM ${tables.docs} WHERE rowid >= ? AND rowid < ?`).safeIntegers().pluck();
    const insertDoc = this.#statement('insert', () =>
      `INSERT INTO ${tables.docs} (rowid, id, url, title, title_key, locale, locale_key, slug, slug_key, popularity, summary, body, exact_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertText = (partition: number) => {
      const { fts } = this.#fullText(partition);
      return this.#statement(`text\u0000${partition}`, () => `INSERT INTO ${fts} (rowid, title, summary, body, title_stems, text_stems) VALUES (?, ?, ?, ?, ?, ?)`);
    };
    const insertTitle = (partition: number) => {
      const { titles } = this.#fullText(partition);
      return this.#statement(`title\u0000${partition}`, () => `INSERT INTO ${titles} (rowid, title, title_stems) VALUES (?, ?, ?)`);
    };
    // A few statements per document for its autocomplete prefixes (see filedPrefixes), each within SQLite's bound on
    // bound parameters.
    const insertPrefixes = (count: number) =>
      this.#statement(`prefixes\u0000${count}`, () =>
        `INSERT OR IGNORE INTO ${tables.prefixes} (prefix, place, doc) VALUES ${Array.from({ length: count }, () => '(?, ?, ?)').join(', ')}`,
      );
    const filePrefixes = (rowid: bigint, prefixes: readonly (readonly [string, number])[]) => {
      for (let from = 0; from < prefixes.length; from += PREFIX_ROWS_PER_STATEMENT) {
        const rows = prefixes.slice(from, from + PREFIX_ROWS_PER_STATEMENT);
        insertPrefixes(rows.length).run(rows.flatMap(([prefix, place]) => [prefix, place, rowid]));
      }
    };

    const results: BulkItemResult[] = [];
    const latest = new Map<string, number>();
    documents.forEach((document, position) => {
      const problem = validateDocument(document);
      const id = typeof document?.id === 'string' ? document.id : String(document?.id);
      results.push(problem === undefined ? { id, ok: true } : { id, ok: false, error: { type: 'invalid_document', reason: problem } });
      if (problem === undefined) latest.set(document.id, position);
    });
    const failed = (position: number, error: unknown) => {
      const id = results[position]?.id ?? '';
      results[position] = { id, ok: false, error: { type: 'engine_error', reason: error instanceof Error ? error.message : String(error) } };
    };
    const replaced: { position: number; rowid: bigint }[] = [];
    for (const [id, position] of latest) {
      const rowid = this.#rowidOf(id);
      if (rowid !== undefined) replaced.push({ position, rowid });
    }
    replaced.sort((a, b) => (a.rowid < b.rowid ? -1 : 1));
    for (const { position, rowid } of replaced) {
      try {
        this.#remove(rowid);
      } catch (error) {
        failed(position, error);
        latest.delete(results[position]?.id ?? '');
      }
    }
    const next = new Map<string, bigint>();
    const inserts = [...latest.values()]
      .map((position) => {
        const document = documents[position] as IndexedDocument;
        return { position, partition: localePartition(document.locale.toLowerCase()), bucket: rankBucket(document.popularity) };
      })
      .sort((a, b) => a.partition - b.partition || a.bucket - b.bucket || a.position - b.position);
    for (const { position, partition, bucket } of inserts) {
      const document = documents[position] as IndexedDocument;
      const block = `${partition}:${bucket}`;
      let rowid = next.get(block);
      try {
        if (rowid === undefined) {
          const [start, end] = rowidBlock(partition, bucket);
          const last = lastInBucket.get(start, end) as bigint | null;
          rowid = last === null ? start : last + 1n;
        }
        const title = withoutControlCharacters(document.title);
        const summary = withoutControlCharacters(document.summary);
        const body = withoutControlCharacters(document.body);
        const titleKey = foldPhrase(title);
        // Control characters separate words as the spaces replacing them do: the analysis of either text is the same.
        const analysis = document.analysis ?? analyzeDocument(document);
        const terms = [analysis.title, analysis.summary, analysis.body] as const;
        // A refused statement writes nothing; the documents row is the first, and only what follows it needs undoing.
        insertDoc.run(rowid, document.id, document.url, title, titleKey, document.locale, document.locale.toLowerCase(), document.slug, document.slug.toLowerCase(), document.popularity, summary, storedBody(body), analysis.exactKey);
        try {
          insertText(partition).run(rowid, ...terms, analysis.titleStems, analysis.textStems);
          insertTitle(partition).run(rowid, terms[0], analysis.titleStems);
          filePrefixes(rowid, filedPrefixes(title));
        } catch (error) {
          // A document is written whole or not at all: the rows written before the one SQLite refused are taken out
          // again, so that none is left half-written and its rowid is free for the next document. (A savepoint per
          // document would do the same at the cost of journalling every page each document touches.)
          this.#discard(rowid, title);
          throw error;
        }
        this.#changes?.entering(terms);
        this.#added++;
        next.set(block, rowid + 1n);
      } catch (error) {
        failed(position, error);
      }
    }
    return results;
  }

  /** Deletes the documents of these ids; an id the index does not hold (or holds no longer) is not deleted. */
  delete(ids: readonly string[]): DeleteItemResult[] {
    return ids.map((id) => {
      const rowid = typeof id === 'string' ? this.#rowidOf(id) : undefined;
      if (rowid === undefined) return { id, deleted: false };
      this.#remove(rowid);
      return { id, deleted: true };
    });
  }

  /** Removes the rows of a document under `rowid` whose title is `title` (none of them need exist). */
  #discard(rowid: bigint, title: string): void {
    const tables = tablesOf(this.#index);
    // A document's full-text rows are in the tables of its rowid's partition, which a document of it created.
    const partition = partitionOf(Number(rowid));
    const { fts, titles } = this.#fullText(partition);
    const deletePrefixes = this.#statement('unprefix', () => `DELETE FROM ${tables.prefixes} WHERE prefix = ? AND place = ? AND doc = ?`);
    for (const [prefix, place] of filedPrefixes(title)) deletePrefixes.run(prefix, place, rowid);
    this.#statement('delete', () => `DELETE FROM ${tables.docs} WHERE rowid = ?`).run(rowid);
    this.#statement(`untext\u0000${partition}`, () => `DELETE FROM ${fts} WHERE rowid = ?`).run(rowid);
    this.#statement(`untitle\u0000${partition}`, () => `DELETE FROM ${titles} WHERE rowid = ?`).run(rowid);
  }

  /** Removes every row of a document the index holds. */
  #remove(rowid: bigint): void {
    const tables = tablesOf(this.#index);
    const titleOf = this.#statement('title-of', () => `SELECT title FROM ${tables.docs} WHERE rowid = ?`).pluck();
    const textOf = this.#statement('text-of', () => `SELECT title, summary, body FROM ${tables.docs} WHERE rowid = ?`).raw();
    const columns = this.#changes === undefined ? undefined : (textOf.get(rowid) as [string, string, string | Buffer] | undefined);
    const text = columns?.map((column) => termsOf(bodyText(column)).join(' '));
    // A live index has read the title with the rest of the text; a build reads it alone.
    const title = columns === undefined ? (titleOf.get(rowid) as string | undefined) : columns[0];
    this.#discard(rowid, title ?? '');
    if (text !== undefined) this.#changes?.leaving(text);
    this.#added--;
  }
}
