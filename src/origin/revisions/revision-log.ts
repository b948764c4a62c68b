import { BOUND_LIMIT } from '../../sqlite-limit.js';
import type { OriginDatabase } from '../database.js';
import type { PostFormat } from '../markdown/index.js';
import type { PostInput } from '../validation.js';

/** Who made a save, and why, as its revision records it. */
export interface SaveContext {
  /** The desk user's name, or `api` for the bearer-token API. */
  by: string;
  /** The revision a restore brought back. @default none (an ordinary save) */
  restoredFrom?: number;
}

/** What a save answers when its caller names nobody: the bearer-token API. */
export const API_SAVE: SaveContext = { by: 'api' };

/** A revision as the list shows it: who saved what, when, and how long its source is. */
export interface RevisionSummary {
  /** Numbered per post from 1, in save order; a restore is a new number. */
  n: number;
  title: string;
  format: PostFormat;
  /** Characters of the source. */
  size: number;
  categories: string[];
  pub_date: string;
  /** The post's state when saved, when posts have one. */
  state: string | null;
  saved_at: string;
  saved_by: string;
  restored_from: number | null;
}

/** A whole revision: its summary and the source as it was saved. */
export interface Revision extends RevisionSummary {
  body: string;
  summary: string;
}

export interface RevisionLogOptions {
  /**
   * Revisions kept per post: a save beyond it drops the oldest. An editor reaches back through a post's recent history;
   * without a bound a post saved every few seconds by the editor's preview-and-save loop would grow without end.
   * @default 100
   */
  keep?: number;
  /** @default () => new Date() */
  now?: () => Date;
}

export const REVISION_DEFAULTS = { keep: 100 } as const;

interface SummaryRow extends Omit<RevisionSummary, 'categories' | 'format'> {
  format: string;
  categories: string;
}

type RevisionRow = SummaryRow & Pick<Revision, 'body' | 'summary'>;

const SUMMARY_COLUMNS = `n, title, format, length(source) AS size, categories, pub_date, state, saved_at, saved_by, restored_from`;

function fromRow<T extends { categories: string; format: string }>(row: T): Omit<T, 'categories' | 'format'> & { categories: string[]; format: PostFormat } {
  return { ...row, format: row.format as PostFormat, categories: JSON.parse(row.categories) as string[] };
}

/**
 * The revisions of every post: one per save, written in the save's own transaction (ContentStore.write calls record),
 * so a committed save always has its revision. They follow their post when it is renamed and go with it when deleted.
 */
export class RevisionLog {
  private readonly keep: number;
  private readonly now: () => Date;
  private readonly statements;

  constructor(db: OriginDatabase, options: RevisionLogOptions = {}) {
    this.keep = options.keep ?? REVISION_DEFAULTS.keep;
    this.now = options.now ?? (() => new Date());
    this.statements = {
      last: db.prepare<[string], number>(`SELECT coalesce(max(n), 0) FROM post_revisions WHERE oid = ?`).pluck(),
      insert: db.prepare(
        `INSERT INTO post_revisions (oid, n, title, format, source, summary, categories, pub_date, state, saved_at, saved_by, restored_from)
         VALUES (@oid, @n, @title, @format, @source, @summary, @categories, @pub_date, @state, @saved_at, @saved_by, @restored_from)`,
      ),
      prune: db.prepare<[string, number]>(`DELETE FROM post_revisions WHERE oid = ? AND n <= ?`),
      page: db.prepare<[string, number, number], SummaryRow>(
        `SELECT ${SUMMARY_COLUMNS} FROM post_revisions WHERE oid = ? AND n < ? ORDER BY n DESC ${BOUND_LIMIT}`,
      ),
      one: db.prepare<[string, number], RevisionRow>(
        `SELECT ${SUMMARY_COLUMNS}, source AS body, summary FROM post_revisions WHERE oid = ? AND n = ?`,
      ),
    };
  }

  /** Keeps `input` as the post's next revision and drops those beyond the bound. Callers hold the save's transaction. */
  record(oid: string, input: PostInput, save: SaveContext): number {
    const n = this.statements.last.get(oid)! + 1;
    this.statements.insert.run({
      oid,
      n,
      title: input.title,
      format: input.format ?? 'html',
      source: input.body,
      summary: input.summary,
      categories: JSON.stringify(input.categories),
      pub_date: input.pub_date,
      // A post's state belongs to the desk's states; a revision keeps it when the input has one.
      state: 'state' in input && typeof input.state === 'string' ? input.state : null,
      saved_at: this.now().toISOString(),
      saved_by: save.by,
      restored_from: save.restoredFrom ?? null,
    });
    this.statements.prune.run(oid, n - this.keep);
    return n;
  }

  /** Up to `limit` revisions numbered below `before`, newest first, and whether older ones follow. */
  list(oid: string, page: { before: number; limit: number }): { items: RevisionSummary[]; more: boolean } {
    const rows = this.statements.page.all(oid, page.before, page.limit + 1);
    return { items: rows.slice(0, page.limit).map((row) => fromRow(row)), more: rows.length > page.limit };
  }

  get(oid: string, n: number): Revision | undefined {
    const row = this.statements.one.get(oid, n);
    return row === undefined ? undefined : fromRow(row);
  }
}
