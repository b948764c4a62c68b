import { BOUND_LIMIT } from '../sqlite-limit.js';
import type { OriginDatabase } from './database.js';
import { imageLookup } from './images/index.js';
import { renderPostBody, RENDERING_VERSION, type ImageResolver, type PostFormat } from './markdown/index.js';
import { groupByMonth, purgeForComments, purgeForPost, type PostGroup, type PostSummary, type PurgeTargets } from './policy.js';
import type { CommentInput, PostInput } from './validation.js';

/** A post as readers get it: `body_html` is rendered from the source and sanitised. */
export interface Post {
  oid: string;
  title: string;
  body_html: string;
  summary: string;
  pub_date: string;
  categories: string[];
}

/** A post as `GET /api/v1/plog/<oid>` answers it: what readers get, with the source an editor wrote and its format. */
export interface PostWithSource extends Post {
  format: PostFormat;
  /** The source as written (Markdown or HTML); `body_html` is what it renders to. */
  body: string;
}

export interface PublicComment {
  id: number;
  name: string;
  comment: string;
  add_date: string;
}

export interface PostPage {
  post: PostWithSource;
  comments: { count: number; items: PublicComment[] };
}

export interface PendingComment extends PublicComment {
  oid: string;
}

interface PostRow extends Omit<PostWithSource, 'categories'> {
  categories: string;
}

interface RenderingRow {
  oid: string;
  format: PostFormat;
  body: string;
  body_html: string;
  categories: string;
}

interface SummaryRow extends Omit<PostSummary, 'categories'> {
  categories: string;
}

function toPost(row: PostRow): PostWithSource {
  return { ...row, categories: JSON.parse(row.categories) as string[] };
}

/**
 * The origin's content store. Every write that can change a page enqueues the affected pathnames and keys in the purge outbox,
 * and every write to a post its search job, inside the write's own transaction, so a committed change always has its
 * purge and its search update recorded.
 */
export class ContentStore {
  private readonly statements;
  private readonly now: () => Date;
  private readonly images: ImageResolver;

  constructor(private readonly db: OriginDatabase, options: { now?: () => Date } = {}) {
    this.now = options.now ?? (() => new Date());
    this.images = imageLookup(db);
    this.statements = {
      list: db.prepare<[], SummaryRow>(
        `SELECT p.oid, p.title, p.pub_date, p.categories,
                (SELECT count(*) FROM comments c WHERE c.oid = p.oid AND c.approved = 1) AS comments
           FROM posts p ORDER BY p.pub_date DESC, p.oid`,
      ),
      // Categories are a JSON array per post: a category's page reads the whole list, as the archive does.
      listInCategory: db.prepare<[string], SummaryRow>(
        `SELECT p.oid, p.title, p.pub_date, p.categories,
                (SELECT count(*) FROM comments c WHERE c.oid = p.oid AND c.approved = 1) AS comments
           FROM posts p WHERE EXISTS (SELECT 1 FROM json_each(p.categories) WHERE value = ?)
          ORDER BY p.pub_date DESC, p.oid`,
      ),
      // A post from before formats has no source of its own: its HTML as stored is what its editor wrote.
      post: db.prepare<[string], PostRow>(
        `SELECT oid, title, format, coalesce(source, body_html) AS body, body_html, summary, pub_date, categories FROM posts WHERE oid = ?`,
      ),
      outdated: db.prepare<[number], RenderingRow>(
        `SELECT oid, format, coalesce(source, body_html) AS body, body_html, categories FROM posts WHERE rendering < ?`,
      ),
      rerender: db.prepare<[string, string, number, string]>(`UPDATE posts SET source = ?, body_html = ?, rendering = ? WHERE oid = ?`),
      approvedComments: db.prepare<[string], PublicComment>(
        `SELECT id, name, comment, add_date FROM comments WHERE oid = ? AND approved = 1 ORDER BY add_date, id`,
      ),
      pendingComments: db.prepare<[number, number], PendingComment>(
        `SELECT id, oid, name, comment, add_date FROM comments WHERE approved = 0 AND id > ? ORDER BY id ${BOUND_LIMIT}`,
      ),
      exists: db.prepare<[string], { one: number }>(`SELECT 1 AS one FROM posts WHERE oid = ?`),
      categories: db.prepare<[string], string>(`SELECT categories FROM posts WHERE oid = ?`).pluck(),
      upsert: db.prepare(
        `INSERT INTO posts (oid, title, summary, format, source, body_html, rendering, pub_date, categories, updated_at)
         VALUES (@oid, @title, @summary, @format, @source, @body_html, @rendering, @pub_date, @categories, @updated_at)
         ON CONFLICT (oid) DO UPDATE SET title = excluded.title, summary = excluded.summary, format = excluded.format,
           source = excluded.source, body_html = excluded.body_html, rendering = excluded.rendering,
           pub_date = excluded.pub_date, categories = excluded.categories, updated_at = excluded.updated_at`,
      ),
      deletePost: db.prepare<[string]>(`DELETE FROM posts WHERE oid = ?`),
      insertComment: db.prepare<[string, string, string, string]>(
        `INSERT INTO comments (oid, name, comment, approved, add_date) VALUES (?, ?, ?, 0, ?)`,
      ),
      comment: db.prepare<[number], { oid: string; approved: number }>(`SELECT oid, approved FROM comments WHERE id = ?`),
      approve: db.prepare<[number]>(`UPDATE comments SET approved = 1 WHERE id = ?`),
      deleteComment: db.prepare<[number]>(`DELETE FROM comments WHERE id = ?`),
      enqueue: db.prepare<[string, string, string]>(`INSERT INTO purge_jobs (pathnames, keys, created_at) VALUES (?, ?, ?)`),
      enqueueSearch: db.prepare<[string, string]>(`INSERT INTO search_jobs (oid, created_at) VALUES (?, ?)`),
    };
  }

  /** Every post, or those in `category` (none for an unknown one), newest first, by month. */
  listGroups(category?: string): PostGroup[] {
    const rows = category === undefined ? this.statements.list.all() : this.statements.listInCategory.all(category);
    return groupByMonth(rows.map((row) => ({ ...row, categories: JSON.parse(row.categories) as string[] })));
  }

  getPost(oid: string): PostPage | undefined {
    const row = this.statements.post.get(oid);
    if (row === undefined) return undefined;
    const items = this.statements.approvedComments.all(oid);
    return { post: toPost(row), comments: { count: items.length, items } };
  }

  /**
   * Up to `limit` pending comments with ids above `afterId`, oldest first, and whether more follow. Ids only grow, so
   * paging by the last id seen neither repeats nor skips a comment when others arrive, are approved or are deleted.
   */
  pendingComments(page: { afterId: number; limit: number }): { items: PendingComment[]; more: boolean } {
    const rows = this.statements.pendingComments.all(page.afterId, page.limit + 1);
    return { items: rows.slice(0, page.limit), more: rows.length > page.limit };
  }

  /**
   * Creates or replaces a post with `input`, or with what it makes of the post it replaces (none: a new one), in one
   * transaction; answers whether it was created. An error thrown by `input` writes nothing.
   */
  putPost(oid: string, input: PostInput | ((current: PostWithSource | undefined) => PostInput)): { created: boolean } {
    return this.db.transaction(() => {
      const row = this.statements.post.get(oid);
      const current = row === undefined ? undefined : toPost(row);
      this.write(oid, typeof input === 'function' ? input(current) : input, current?.categories ?? []);
      return { created: current === undefined };
    })();
  }

  /**
   * Replaces an existing post with what `edit` makes of it, read and written in one transaction so no other write
   * comes between; answers false when there is no such post. An error thrown by `edit` writes nothing.
   */
  patchPost(oid: string, edit: (current: PostWithSource) => PostInput): boolean {
    return this.db.transaction(() => {
      const row = this.statements.post.get(oid);
      if (row === undefined) return false;
      const current = toPost(row);
      this.write(oid, edit(current), current.categories);
      return true;
    })();
  }

  /**
   * Renders again, from its source, every post an older rendering made (RENDERING_VERSION), so a stricter sanitiser
   * reaches the posts stored before it; a post whose HTML changes gets its purge and search jobs, as an edit does.
   * Answers how many changed.
   */
  refreshRenderings(): number {
    return this.db.transaction(() => {
      let changed = 0;
      for (const row of this.statements.outdated.all(RENDERING_VERSION)) {
        const html = renderPostBody(row.format, row.body, this.images);
        this.statements.rerender.run(row.body, html, RENDERING_VERSION, row.oid);
        if (html === row.body_html) continue;
        changed++;
        this.enqueuePurge(purgeForPost(row.oid, JSON.parse(row.categories) as string[]));
        this.enqueueSearch(row.oid);
      }
      return changed;
    })();
  }

  /**
   * Stores a post, its source and the HTML readers get of it (rendered once here, not per request), with its purge and
   * search jobs; `before`: its categories until now. Callers hold a transaction.
   */
  private write(oid: string, input: PostInput, before: readonly string[]): void {
    this.statements.upsert.run({
      oid,
      title: input.title,
      summary: input.summary,
      format: input.format ?? 'html',
      source: input.body,
      body_html: renderPostBody(input.format ?? 'html', input.body, this.images),
      rendering: RENDERING_VERSION,
      pub_date: input.pub_date,
      categories: JSON.stringify(input.categories),
      updated_at: this.now().toISOString(),
    });
    this.enqueuePurge(purgeForPost(oid, [...before, ...input.categories]));
    this.enqueueSearch(oid);
  }

  deletePost(oid: string): boolean {
    return this.db.transaction(() => {
      const categories = this.categoriesOf(oid);
      if (categories === undefined) return false;
      this.statements.deletePost.run(oid);
      this.enqueuePurge(purgeForPost(oid, categories));
      this.enqueueSearch(oid);
      return true;
    })();
  }

  /** Stores a pending comment; undefined when the post does not exist. Pending comments change no page: no purge. */
  addComment(oid: string, input: CommentInput): number | undefined {
    return this.db.transaction(() => {
      if (this.statements.exists.get(oid) === undefined) return undefined;
      return Number(this.statements.insertComment.run(oid, input.name, input.comment, this.now().toISOString()).lastInsertRowid);
    })();
  }

  approveComment(id: number): boolean {
    return this.db.transaction(() => {
      const comment = this.statements.comment.get(id);
      if (comment === undefined) return false;
      if (comment.approved === 0) {
        this.statements.approve.run(id);
        this.enqueuePurge(purgeForComments(comment.oid, this.categoriesOf(comment.oid) ?? []));
      }
      return true;
    })();
  }

  deleteComment(id: number): boolean {
    return this.db.transaction(() => {
      const comment = this.statements.comment.get(id);
      if (comment === undefined) return false;
      this.statements.deleteComment.run(id);
      if (comment.approved === 1) this.enqueuePurge(purgeForComments(comment.oid, this.categoriesOf(comment.oid) ?? []));
      return true;
    })();
  }

  /** Comments are not part of a post's search document, so only post writes reach search. */
  private enqueueSearch(oid: string): void {
    this.statements.enqueueSearch.run(oid, this.now().toISOString());
  }

  /** The post's categories; undefined when there is no such post. */
  private categoriesOf(oid: string): string[] | undefined {
    const categories = this.statements.categories.get(oid);
    return categories === undefined ? undefined : (JSON.parse(categories) as string[]);
  }

  private enqueuePurge({ pathnames, keys }: PurgeTargets): void {
    this.statements.enqueue.run(JSON.stringify(pathnames), JSON.stringify(keys), this.now().toISOString());
  }
}
