import { BOUND_LIMIT } from '../sqlite-limit.js';
import type { OriginDatabase } from './database.js';
// The library's own file, not the images' index: the index's routes read this store.
import { imageLookup } from './images/library.js';
import { renderPostBody, RENDERING_VERSION, type ImageResolver, type PostFormat } from './markdown/index.js';
import { groupByMonth, purgeForComments, purgeForPost, type PostGroup, type PostSummary, type PurgeTargets } from './policy.js';
import type { CommentInput, PostInput } from './validation.js';
import { PostStates, type EditorPost, type EditorPostSummary } from './post-states.js';
// The revisions' own files, not their index: the index's routes read this store.
import { mergePurgeTargets } from './revisions/policy.js';
import { API_SAVE, RevisionLog, type RevisionLogOptions, type SaveContext } from './revisions/revision-log.js';
import { SlugHistory, type RenameOutcome } from './revisions/slug-history.js';
import { settle, visibilityChange, VISIBLE_SQL, type PostState, type Standing, type Visibility } from './publication.js';

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

/** A post and its approved comments as its editor sees it, whatever its state. */
export interface EditorPostPage {
  post: EditorPost;
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

function toPost<T extends PostRow>(row: T): Omit<T, 'categories'> & { categories: string[] } {
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
  private readonly states: PostStates;
  /** Every save's revision (src/origin/revisions/): read here, written by the saves. */
  readonly revisions: RevisionLog;
  /** The slugs posts had: read here, changed by renamePost and the saves. */
  readonly addresses: SlugHistory;
  private readonly images: ImageResolver;

  constructor(private readonly db: OriginDatabase, options: { now?: () => Date; revisions?: RevisionLogOptions } = {}) {
    this.now = options.now ?? (() => new Date());
    this.states = new PostStates(db, this.now, (oid, categories, change) => this.announce(oid, categories, change));
    this.revisions = new RevisionLog(db, { now: this.now, ...options.revisions });
    this.addresses = new SlugHistory(db);
    // Readers' statements see only what publication.ts makes visible at `@now`: drafts and posts scheduled later are
    // not there at all, as if they did not exist.
    this.images = imageLookup(db);
    this.statements = {
      list: db.prepare<[{ now: string }], SummaryRow>(
        `SELECT p.oid, p.title, p.pub_date, p.categories,
                (SELECT count(*) FROM comments c WHERE c.oid = p.oid AND c.approved = 1) AS comments
           FROM posts p WHERE ${VISIBLE_SQL} ORDER BY p.pub_date DESC, p.oid`,
      ),
      // Categories are a JSON array per post: a category's page reads the whole list, as the archive does.
      listInCategory: db.prepare<[{ now: string; category: string }], SummaryRow>(
        `SELECT p.oid, p.title, p.pub_date, p.categories,
                (SELECT count(*) FROM comments c WHERE c.oid = p.oid AND c.approved = 1) AS comments
           FROM posts p WHERE ${VISIBLE_SQL} AND EXISTS (SELECT 1 FROM json_each(p.categories) WHERE value = @category)
          ORDER BY p.pub_date DESC, p.oid`,
      ),
      // A post from before formats has no source of its own: its HTML as stored is what its editor wrote.
      post: db.prepare<[{ oid: string; now: string }], PostRow>(
        `SELECT oid, title, format, coalesce(source, body_html) AS body, body_html, summary, pub_date, categories FROM posts
          WHERE oid = @oid AND ${VISIBLE_SQL}`,
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
      visible: db.prepare<[{ oid: string; now: string }], { one: number }>(`SELECT 1 AS one FROM posts WHERE oid = @oid AND ${VISIBLE_SQL}`),
      categories: db.prepare<[string], string>(`SELECT categories FROM posts WHERE oid = ?`).pluck(),
      upsert: db.prepare(
        `INSERT INTO posts (oid, title, summary, format, source, body_html, rendering, pub_date, categories, updated_at, state, publish_at)
         VALUES (@oid, @title, @summary, @format, @source, @body_html, @rendering, @pub_date, @categories, @updated_at, @state, @publish_at)
         ON CONFLICT (oid) DO UPDATE SET title = excluded.title, summary = excluded.summary, format = excluded.format,
           source = excluded.source, body_html = excluded.body_html, rendering = excluded.rendering,
           pub_date = excluded.pub_date, categories = excluded.categories, updated_at = excluded.updated_at,
           state = excluded.state, publish_at = excluded.publish_at`,
      ),
      deletePost: db.prepare<[string]>(`DELETE FROM posts WHERE oid = ?`),
      insertComment: db.prepare<[string, string, string, string]>(
        `INSERT INTO comments (oid, name, comment, approved, add_date) VALUES (?, ?, ?, 0, ?)`,
      ),
      comment: db.prepare<[number], { oid: string; approved: number }>(`SELECT oid, approved FROM comments WHERE id = ?`),
      approve: db.prepare<[number]>(`UPDATE comments SET approved = 1 WHERE id = ?`),
      deleteComment: db.prepare<[number]>(`DELETE FROM comments WHERE id = ?`),
      enqueue: db.prepare<[string, string, string, string]>(`INSERT INTO purge_jobs (pathnames, keys, created_at, warm) VALUES (?, ?, ?, ?)`),
      enqueueSearch: db.prepare<[string, string]>(`INSERT INTO search_jobs (oid, created_at) VALUES (?, ?)`),
    };
  }

  /** Every post readers see, or those in `category` (none for an unknown one), newest first, by month. */
  listGroups(category?: string): PostGroup[] {
    const now = this.now().toISOString();
    const rows = category === undefined ? this.statements.list.all({ now }) : this.statements.listInCategory.all({ now, category });
    return groupByMonth(rows.map((row) => ({ ...row, categories: JSON.parse(row.categories) as string[] })));
  }

  /** The post as readers get it; undefined when there is none or readers do not see it (a draft, a post scheduled later). */
  getPost(oid: string): PostPage | undefined {
    const row = this.statements.post.get({ oid, now: this.now().toISOString() });
    if (row === undefined) return undefined;
    const items = this.statements.approvedComments.all(oid);
    return { post: toPost(row), comments: { count: items.length, items } };
  }

  /** The post whatever its state, with `state` and `publish_at`, for the editor and the preview. */
  getPostForEditor(oid: string): EditorPostPage | undefined {
    const row = this.states.row(oid);
    if (row === undefined) return undefined;
    const items = this.statements.approvedComments.all(oid);
    return { post: toPost(row), comments: { count: items.length, items } };
  }

  /** Every post whatever its state, newest first, for the editor's list. */
  listForEditor(): EditorPostSummary[] {
    return this.states.list();
  }

  /**
   * Publish, Unpublish (`draft`) or Schedule (`publishAt`: ISO 8601 with a zone) without resending the body, with the
   * jobs the change needs; false when there is no such post. See publication.ts for the dates.
   */
  setState(oid: string, state: PostState, publishAt?: string): boolean {
    return this.states.set(oid, state, publishAt);
  }

  /** Announces the scheduled posts whose time has come (PublicationScheduler); answers their oids. */
  publishDue(): string[] {
    return this.states.publishDue();
  }

  /** When the next scheduled post is due (ms since the epoch); undefined when none is scheduled. */
  nextPublication(): number | undefined {
    return this.states.nextPublication();
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
  putPost(oid: string, input: PostInput | ((current: EditorPost | undefined) => PostInput), save: SaveContext = API_SAVE): { created: boolean } {
    return this.db.transaction(() => {
      const row = this.states.row(oid);
      const current = row === undefined ? undefined : toPost(row);
      this.write(oid, typeof input === 'function' ? input(current) : input, current?.categories ?? [], current, save);
      return { created: current === undefined };
    })();
  }

  /**
   * Replaces an existing post with what `edit` makes of it, read and written in one transaction so no other write
   * comes between; answers false when there is no such post. An error thrown by `edit` writes nothing.
   */
  patchPost(oid: string, edit: (current: EditorPost) => PostInput, save: SaveContext = API_SAVE): boolean {
    return this.db.transaction(() => {
      const row = this.states.row(oid);
      if (row === undefined) return false;
      const current = toPost(row);
      this.write(oid, edit(current), current.categories, current, save);
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
   * search jobs when readers see it before or after, and its revision; `before`: its categories until now, `was`: where
   * it stood (none: new). Callers hold a transaction.
   */
  private write(oid: string, input: PostInput, before: readonly string[], was: Standing | undefined, save: SaveContext): void {
    const now = this.now().toISOString();
    const standing = settle(input, now);
    this.statements.upsert.run({
      oid,
      title: input.title,
      summary: input.summary,
      format: input.format ?? 'html',
      source: input.body,
      body_html: renderPostBody(input.format ?? 'html', input.body, this.images),
      rendering: RENDERING_VERSION,
      ...standing,
      categories: JSON.stringify(input.categories),
      updated_at: now,
    });
    this.announce(oid, [...before, ...input.categories], visibilityChange(was, standing, now));
    this.revisions.record(oid, input, save);
    this.addresses.takeOver(oid);
  }

  /**
   * Moves the post at `from` to the slug `to`, with its comments and revisions; `from` redirects to it from now on
   * (src/origin/revisions/slug-history.ts). Purges both addresses, the old ones that led to `from`, and the listings,
   * feed and sitemap; the search document moves (removed at `from`, indexed at `to`).
   */
  renamePost(from: string, to: string): RenameOutcome {
    return this.db.transaction(() => {
      const outcome = this.addresses.move(from, to, this.now());
      if (outcome.status !== 'renamed' || from === to) return outcome;
      const categories = this.categoriesOf(to) ?? [];
      this.enqueuePurge(mergePurgeTargets([from, to, ...outcome.formerSlugs].map((oid) => purgeForPost(oid, categories))));
      this.enqueueSearch(from);
      this.enqueueSearch(to);
      return outcome;
    })();
  }

  /**
   * Records what a post's change does to readers: nothing for a post they see neither before nor after (a draft's
   * saves purge no page); otherwise its purge and search jobs, and, when it appears, its pages to render once at each
   * front after they purged (PurgeOutbox), so its first reader finds them cached.
   */
  private announce(oid: string, categories: readonly string[], change: Visibility): void {
    if (change === 'unseen') return;
    const targets = purgeForPost(oid, categories);
    this.enqueuePurge(targets, change === 'appears' ? targets.pathnames : []);
    this.enqueueSearch(oid);
  }

  /** Deletes a post and its comments; a draft's deletion, which no reader can tell, purges nothing. */
  deletePost(oid: string): boolean {
    return this.db.transaction(() => {
      const row = this.states.row(oid);
      if (row === undefined) return false;
      this.statements.deletePost.run(oid);
      this.addresses.forget(oid);
      this.announce(oid, JSON.parse(row.categories) as string[], visibilityChange(row, undefined, this.now().toISOString()));
      return true;
    })();
  }

  /** Stores a pending comment; undefined when the post does not exist. Pending comments change no page: no purge. */
  addComment(oid: string, input: CommentInput): number | undefined {
    return this.db.transaction(() => {
      if (this.statements.visible.get({ oid, now: this.now().toISOString() }) === undefined) return undefined;
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

  private enqueuePurge({ pathnames, keys }: PurgeTargets, warm: readonly string[] = []): void {
    this.statements.enqueue.run(JSON.stringify(pathnames), JSON.stringify(keys), this.now().toISOString(), JSON.stringify(warm));
  }
}
