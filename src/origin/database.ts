import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrateSchema, useWriteAheadLog } from '../sqlite-schema.js';
import { seedDemoContent } from './seed.js';

export type OriginDatabase = Database.Database;

/**
 * Schema steps, applied in order; `PRAGMA user_version` records how many have run, so each runs exactly once per file.
 * Append new steps; never edit a released one.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE posts (
     oid TEXT PRIMARY KEY,
     title TEXT NOT NULL,
     summary TEXT NOT NULL,
     body_html TEXT NOT NULL,
     pub_date TEXT NOT NULL,
     categories TEXT NOT NULL,
     updated_at TEXT NOT NULL
   ) WITHOUT ROWID;
   -- Covers the list query, so listing never reads the (large) bodies.
   CREATE INDEX posts_listing ON posts (pub_date DESC, oid, title, categories);
   CREATE TABLE comments (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     oid TEXT NOT NULL REFERENCES posts (oid) ON DELETE CASCADE,
     name TEXT NOT NULL,
     comment TEXT NOT NULL,
     approved INTEGER NOT NULL DEFAULT 0,
     add_date TEXT NOT NULL
   );
   CREATE INDEX comments_by_post ON comments (oid, approved, add_date);
   CREATE TABLE purge_jobs (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     pathnames TEXT NOT NULL,
     created_at TEXT NOT NULL,
     fronts_done INTEGER NOT NULL DEFAULT 0,
     cdn_attempts INTEGER NOT NULL DEFAULT 0,
     cdn_next_at INTEGER NOT NULL DEFAULT 0
   );
   CREATE TABLE purge_deliveries (
     job_id INTEGER NOT NULL REFERENCES purge_jobs (id) ON DELETE CASCADE,
     route TEXT NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_at INTEGER NOT NULL DEFAULT 0,
     delivered INTEGER NOT NULL DEFAULT 0,
     last_error TEXT,
     PRIMARY KEY (job_id, route)
   ) WITHOUT ROWID;
   CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`,
  // The edge is purged per URL, not per job: a URL that fails is retried on its own (the others of its batch are not
  // refreshed again), and a URL confirmed by many jobs is refreshed once. Jobs the fronts had confirmed move over.
  `CREATE TABLE cdn_purges (
     url TEXT PRIMARY KEY,
     queued_at INTEGER NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_at INTEGER NOT NULL DEFAULT 0,
     last_error TEXT
   ) WITHOUT ROWID;
   CREATE INDEX cdn_purges_due ON cdn_purges (next_at);
   INSERT INTO cdn_purges (url, queued_at)
     SELECT DISTINCT p.value, CAST(strftime('%s', 'now') AS INTEGER) * 1000
       FROM purge_jobs j, json_each(j.pathnames) p WHERE j.fronts_done = 1;
   DELETE FROM purge_jobs WHERE fronts_done = 1;
   ALTER TABLE purge_jobs DROP COLUMN fronts_done;
   ALTER TABLE purge_jobs DROP COLUMN cdn_attempts;
   ALTER TABLE purge_jobs DROP COLUMN cdn_next_at;`,
  // Search follows content: a job names a post whose search document must be brought in line with the post as it is
  // when the job is delivered (indexed when it exists, removed when it does not).
  `CREATE TABLE search_jobs (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     oid TEXT NOT NULL,
     created_at TEXT NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_at INTEGER NOT NULL DEFAULT 0,
     last_error TEXT
   );
   CREATE INDEX search_jobs_due ON search_jobs (next_at, id);`,
  // Pending comments are paged by id; approved ones, however many, are not in this index, so a page reads only its rows.
  `CREATE INDEX comments_pending ON comments (id) WHERE approved = 0;`,
  // Purges by surrogate key: a job names the keys of the pages its change alters beside their pathnames (a job from
  // before keeps its pathnames alone). A front's answer to a delivery, the cache keys it purged, is kept as a report
  // its delivery rows point to; once every front has confirmed every job of that delivery, the report's URLs go to the
  // edge step with the jobs' pathnames.
  `ALTER TABLE purge_jobs ADD COLUMN keys TEXT NOT NULL DEFAULT '[]';
   CREATE TABLE purge_reports (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     urls TEXT NOT NULL
   );
   ALTER TABLE purge_deliveries ADD COLUMN report_id INTEGER REFERENCES purge_reports (id);
   CREATE INDEX purge_deliveries_report ON purge_deliveries (report_id) WHERE report_id IS NOT NULL;`,
  // The editor's desk: accounts and their sessions. A password is kept as its scrypt string (parameters, salt, hash) so
  // the cost can be raised later; a session as a hash of its id, so a copy of the file opens no session.
  `CREATE TABLE desk_users (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     name TEXT NOT NULL UNIQUE,
     password_hash TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE TABLE desk_sessions (
     id_hash TEXT PRIMARY KEY,
     user_id INTEGER NOT NULL REFERENCES desk_users (id) ON DELETE CASCADE,
     csrf_token TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     last_seen_at INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE INDEX desk_sessions_user ON desk_sessions (user_id);`,
  // Posts in Markdown: a post keeps its source as written and how to read it; body_html is what that renders to,
  // sanitised. A post from before has no source of its own (NULL: its body_html is what its editor wrote) and
  // rendering 0, so the origin sanitises it from that source when it opens the file (ContentStore.refreshRenderings).
  `ALTER TABLE posts ADD COLUMN format TEXT NOT NULL DEFAULT 'html';
   ALTER TABLE posts ADD COLUMN source TEXT;
   ALTER TABLE posts ADD COLUMN rendering INTEGER NOT NULL DEFAULT 0;`,
  // Addresses that change and revisions (src/origin/revisions/). A renamed post leaves a redirect from each slug it had
  // to the one it has, always one hop (a chain is collapsed when it grows). Every save keeps a revision numbered per
  // post; a post from before starts with its current content as revision 1, saved by 'import'.
  `CREATE TABLE post_redirects (
     old_oid TEXT PRIMARY KEY,
     new_oid TEXT NOT NULL,
     created_at TEXT NOT NULL
   ) WITHOUT ROWID;
   CREATE INDEX post_redirects_target ON post_redirects (new_oid);
   CREATE TABLE post_revisions (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     oid TEXT NOT NULL REFERENCES posts (oid) ON DELETE CASCADE,
     n INTEGER NOT NULL,
     title TEXT NOT NULL,
     format TEXT NOT NULL,
     source TEXT NOT NULL,
     summary TEXT NOT NULL,
     categories TEXT NOT NULL,
     pub_date TEXT NOT NULL,
     state TEXT,
     saved_at TEXT NOT NULL,
     saved_by TEXT NOT NULL,
     restored_from INTEGER,
     UNIQUE (oid, n)
   );
   INSERT INTO post_revisions (oid, n, title, format, source, summary, categories, pub_date, saved_at, saved_by)
     SELECT oid, 1, title, format, coalesce(source, body_html), summary, categories, pub_date, updated_at, 'import' FROM posts;`,
  // Moderation: the rule list, and what the rules made of each pending comment (the hold rule that flagged it, and
  // the address it came from, personal data kept only while the comment is pending and for a bounded time). Approving
  // a comment forgets both, whichever path approves it; deleting it (or its post) deletes them.
  `CREATE TABLE moderation_rules (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     kind TEXT NOT NULL CHECK (kind IN ('word', 'link', 'address')),
     pattern TEXT NOT NULL,
     action TEXT NOT NULL CHECK (action IN ('hold', 'drop')),
     note TEXT NOT NULL DEFAULT '',
     created_at INTEGER NOT NULL,
     UNIQUE (kind, pattern)
   );
   CREATE TABLE comment_moderation (
     comment_id INTEGER PRIMARY KEY REFERENCES comments (id) ON DELETE CASCADE,
     address TEXT,
     flag TEXT,
     received_at INTEGER NOT NULL
   );
   CREATE INDEX comment_moderation_addresses ON comment_moderation (received_at) WHERE address IS NOT NULL;
   CREATE TRIGGER comment_moderation_approved AFTER UPDATE OF approved ON comments WHEN NEW.approved = 1
   BEGIN DELETE FROM comment_moderation WHERE comment_id = NEW.id; END;`,
  // Search insights: per day and normalised query, what the fronts counted (no reader is named anywhere). Bounded in
  // queries per day and in days kept (src/origin/insights/).
  `CREATE TABLE search_insights (
     day TEXT NOT NULL,
     query TEXT NOT NULL,
     searches INTEGER NOT NULL DEFAULT 0,
     no_results INTEGER NOT NULL DEFAULT 0,
     clicks INTEGER NOT NULL DEFAULT 0,
     results INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (day, query)
   ) WITHOUT ROWID;
   CREATE TABLE search_insight_opens (
     day TEXT NOT NULL,
     query TEXT NOT NULL,
     url TEXT NOT NULL,
     opens INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (day, query, url),
     FOREIGN KEY (day, query) REFERENCES search_insights (day, query) ON DELETE CASCADE
   ) WITHOUT ROWID;`,
  // Drafts and scheduled posts (publication.ts): every post from before is published. The listing index gains the
  // state columns so a reader's list still reads no body; the scheduler finds the next due post by its own index. A
  // purge job may name pages to render once at each front after they purged it (a publication's warm-up).
  `ALTER TABLE posts ADD COLUMN state TEXT NOT NULL DEFAULT 'published' CHECK (state IN ('draft', 'scheduled', 'published'));
   ALTER TABLE posts ADD COLUMN publish_at TEXT;
   DROP INDEX posts_listing;
   CREATE INDEX posts_listing ON posts (pub_date DESC, oid, title, categories, state, publish_at);
   CREATE INDEX posts_scheduled ON posts (publish_at) WHERE state = 'scheduled';
   ALTER TABLE purge_jobs ADD COLUMN warm TEXT NOT NULL DEFAULT '[]';`,
  // Uploaded images (src/origin/images): one row per upload, named by its hash; its files are under DATA_DIR/images.
  // widths and formats are JSON arrays (ascending; best format first); width and height are the widest files'.
  `CREATE TABLE images (
     hash TEXT PRIMARY KEY,
     type TEXT NOT NULL,
     widths TEXT NOT NULL,
     formats TEXT NOT NULL,
     width INTEGER NOT NULL,
     height INTEGER NOT NULL,
     bytes INTEGER NOT NULL,
     created_at INTEGER NOT NULL
   ) WITHOUT ROWID;`,
];

export interface OpenOriginDatabaseOptions {
  /**
   * Seed the demo content when the database is new (once per file: deleting every post later does not reseed).
   * @default true
   */
  seed?: boolean;
}

/** Runs every migration the file has not seen yet (see migrateSchema). */
export function migrate(db: OriginDatabase): number {
  return migrateSchema(db, MIGRATIONS, 'origin database');
}

/** Opens (creating when needed) the origin's SQLite file in WAL mode, migrates it and seeds it on first use. */
export function openOriginDatabase(file: string, options: OpenOriginDatabaseOptions = {}): OriginDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  // First, so that a command opening the file while the origin creates it waits for it rather than fail.
  db.pragma('busy_timeout = 5000');
  useWriteAheadLog(db);
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  if (options.seed ?? true) {
    // Immediate, and asked again inside: two processes opening a new file at once seed it once.
    db.transaction(() => {
      if (db.prepare(`SELECT value FROM meta WHERE key = 'seeded'`).get() !== undefined) return;
      seedDemoContent(db);
      db.prepare(`INSERT INTO meta (key, value) VALUES ('seeded', ?)`).run(new Date().toISOString());
    }).immediate();
  }
  return db;
}
