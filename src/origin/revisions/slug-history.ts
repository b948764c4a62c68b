import type { OriginDatabase } from '../database.js';

/** What renaming a post did. */
export type RenameOutcome =
  /** `formerSlugs`: the slugs that led to `from` and now lead to `to` (their pages change too). */
  | { status: 'renamed'; from: string; to: string; formerSlugs: string[] }
  | { status: 'not-found' }
  /** Another live post has the slug. */
  | { status: 'taken' };

/** A column that refers to a post by its oid, which a rename rewrites. */
interface PostReference {
  table: string;
  column: string;
}

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The addresses posts had. A post's slug is its oid; renaming it moves the post and everything that refers to it (its
 * comments, its revisions: every column with a foreign key to `posts`, whoever added it) and leaves a redirect from the
 * old slug. The table keeps three rules, which the rename and the write path maintain:
 * - one hop: every redirect leads to a live post, never to another redirect (a→b then b→c makes a→c);
 * - no redirect from a live post's slug: a post saved or renamed to an old slug takes it over (c→a back removes a→c);
 * - no cycle, which follows from the two above.
 * Callers hold the write's transaction.
 */
export class SlugHistory {
  private readonly statements;
  private readonly references: { column: PostReference; update: { run(to: string, from: string): unknown } }[];

  constructor(private readonly db: OriginDatabase) {
    this.statements = {
      target: db.prepare<[string], string>(`SELECT new_oid FROM post_redirects WHERE old_oid = ?`).pluck(),
      pointingTo: db.prepare<[string], string>(`SELECT old_oid FROM post_redirects WHERE new_oid = ? ORDER BY old_oid`).pluck(),
      repoint: db.prepare<[string, string]>(`UPDATE post_redirects SET new_oid = ? WHERE new_oid = ?`),
      insert: db.prepare<[string, string, string]>(`INSERT INTO post_redirects (old_oid, new_oid, created_at) VALUES (?, ?, ?)`),
      remove: db.prepare<[string]>(`DELETE FROM post_redirects WHERE old_oid = ?`),
      removeTo: db.prepare<[string]>(`DELETE FROM post_redirects WHERE new_oid = ?`),
      exists: db.prepare<[string], number>(`SELECT 1 FROM posts WHERE oid = ?`).pluck(),
      move: db.prepare<[string, string]>(`UPDATE posts SET oid = ? WHERE oid = ?`),
    };
    // Read once the schema is complete (after migrations): tables added later by any part of the origin follow too.
    const columns = db
      .prepare<[], PostReference>(
        `SELECT m.name AS "table", f."from" AS "column" FROM sqlite_master m, pragma_foreign_key_list(m.name) f
          WHERE m.type = 'table' AND f."table" = 'posts' AND (f."to" IS NULL OR f."to" = 'oid') ORDER BY m.name`,
      )
      .all();
    this.references = columns.map((column) => ({
      column,
      update: db.prepare<[string, string]>(`UPDATE ${quoteName(column.table)} SET ${quoteName(column.column)} = ? WHERE ${quoteName(column.column)} = ?`),
    }));
  }

  /** The live slug an old one leads to, or undefined when `oid` is not an old slug. */
  movedTo(oid: string): string | undefined {
    return this.statements.target.get(oid);
  }

  /** The old slugs leading to `oid`. */
  formerSlugs(oid: string): string[] {
    return this.statements.pointingTo.all(oid);
  }

  /** A post is saved at `oid`: it is live there, so no redirect may take readers away from it. */
  takeOver(oid: string): void {
    this.statements.remove.run(oid);
  }

  /** The post at `oid` is deleted: its old slugs would lead to nothing, so they lead nowhere (404) from now on. */
  forget(oid: string): void {
    this.statements.removeTo.run(oid);
  }

  /** Moves the post at `from` to `to` (see the class's rules). */
  move(from: string, to: string, now: Date): RenameOutcome {
    if (this.statements.exists.get(from) === undefined) return { status: 'not-found' };
    if (from === to) return { status: 'renamed', from, to, formerSlugs: [] };
    if (this.statements.exists.get(to) !== undefined) return { status: 'taken' };
    const formerSlugs = this.formerSlugs(from);
    // The children are rewritten after their post in one transaction; the foreign keys are checked at its commit.
    this.db.pragma('defer_foreign_keys = ON');
    this.statements.move.run(to, from);
    for (const reference of this.references) reference.update.run(to, from);
    this.statements.remove.run(to);
    this.statements.repoint.run(to, from);
    this.statements.insert.run(from, to, now.toISOString());
    return { status: 'renamed', from, to, formerSlugs: formerSlugs.filter((slug) => slug !== to) };
  }
}
