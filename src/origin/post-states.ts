import { ERRORS } from '../error-codes.js';
import type { OriginDatabase } from './database.js';
import type { PostFormat } from './markdown/index.js';
import { changeStanding, parsePublishAt, requireState, visibilityChange, type PostState, type Standing, type Visibility } from './publication.js';

/** A post as its editor sees it, whatever its state: what readers get, its source, and where it stands. */
export interface EditorPost extends Standing {
  oid: string;
  title: string;
  format: PostFormat;
  /** The source as written (Markdown or HTML); `body_html` is what it renders to. */
  body: string;
  body_html: string;
  summary: string;
  pub_date: string;
  categories: string[];
}

/** A post in the editor's list: every state, newest first. */
export interface EditorPostSummary extends Standing {
  oid: string;
  title: string;
  pub_date: string;
  categories: string[];
  updated_at: string;
}

export interface EditorPostRow extends Omit<EditorPost, 'categories'> {
  categories: string;
}

/**
 * Tells the content store what a change did to readers, inside the change's transaction: it records the purge and
 * search jobs (and, for a post that appears, the pages to render once at each front).
 */
export type Announce = (oid: string, categories: readonly string[], change: Visibility) => void;

/** The state columns' statements and the changes made without a body: Publish, Unpublish, Schedule, and the sweep. */
export class PostStates {
  private readonly statements;

  constructor(
    private readonly db: OriginDatabase,
    private readonly now: () => Date,
    private readonly announce: Announce,
  ) {
    this.statements = {
      post: db.prepare<[string], EditorPostRow>(
        `SELECT oid, title, format, coalesce(source, body_html) AS body, body_html, summary, pub_date, categories, state, publish_at
           FROM posts WHERE oid = ?`,
      ),
      list: db.prepare<[], Omit<EditorPostSummary, 'categories'> & { categories: string }>(
        `SELECT oid, title, pub_date, categories, state, publish_at, updated_at FROM posts ORDER BY pub_date DESC, oid`,
      ),
      set: db.prepare<[{ oid: string; state: PostState; publish_at: string | null; pub_date: string; updated_at: string }]>(
        `UPDATE posts SET state = @state, publish_at = @publish_at, pub_date = @pub_date, updated_at = @updated_at WHERE oid = @oid`,
      ),
      due: db.prepare<[string], { oid: string; categories: string }>(
        `SELECT oid, categories FROM posts WHERE state = 'scheduled' AND publish_at <= ? ORDER BY publish_at, oid`,
      ),
      // A scheduled post is dated its time already: announcing it changes its state alone.
      announced: db.prepare<[string]>(`UPDATE posts SET state = 'published', publish_at = NULL WHERE oid = ?`),
      next: db.prepare<[], string | null>(`SELECT min(publish_at) FROM posts WHERE state = 'scheduled'`).pluck(),
    };
  }

  /** The post whatever its state; undefined when there is none. */
  row(oid: string): EditorPostRow | undefined {
    return this.statements.post.get(oid);
  }

  list(): EditorPostSummary[] {
    return this.statements.list.all().map((row) => ({ ...row, categories: JSON.parse(row.categories) as string[] }));
  }

  /**
   * Moves a post to `state` without touching its body; `publishAt` (ISO 8601 with a zone) is required for `scheduled`
   * and refused otherwise. Answers false when there is no such post. A post that appears is dated now (scheduled: its
   * time); one that stays visible keeps its date; a scheduled time already past publishes at once.
   */
  set(oid: string, state: PostState, publishAt?: string): boolean {
    // A desk form's value may reach here unchecked: anything but the three names is refused, not taken for a schedule.
    requireState(state);
    if (state !== 'scheduled' && publishAt !== undefined) throw ERRORS.INVALID_INPUT('publish_at', `is only for a scheduled post, not with state "${state}"`);
    const at = publishAt === undefined ? undefined : parsePublishAt(publishAt);
    return this.db.transaction(() => {
      const current = this.statements.post.get(oid);
      if (current === undefined) return false;
      const now = this.now().toISOString();
      const next = changeStanding(current, state, at, now);
      this.statements.set.run({ oid, ...next, updated_at: now });
      this.announce(oid, JSON.parse(current.categories) as string[], visibilityChange(current, next, now));
      return true;
    })();
  }

  /**
   * Announces every scheduled post whose time has come, each with its jobs, in one transaction: run at start and by the
   * scheduler, so a time passed while the origin was down is announced when it starts. Answers their oids.
   */
  publishDue(): string[] {
    return this.db.transaction(() => {
      const due = this.statements.due.all(this.now().toISOString());
      for (const post of due) {
        this.statements.announced.run(post.oid);
        this.announce(post.oid, JSON.parse(post.categories) as string[], 'appears');
      }
      return due.map((post) => post.oid);
    })();
  }

  /** The earliest time a scheduled post waits for (ms since the epoch); undefined when none waits. */
  nextPublication(): number | undefined {
    const next = this.statements.next.get();
    return next === null || next === undefined ? undefined : Date.parse(next);
  }
}
