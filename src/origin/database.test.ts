import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, openOriginDatabase } from './database.js';
import { demoPosts } from './seed.js';

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sitestack-origin-db-'));
  dirs.push(dir);
  return join(dir, 'nested', 'origin.sqlite');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('openOriginDatabase', () => {
  it('creates the file in WAL mode at the latest schema version when it is new', () => {
    const db = openOriginDatabase(tempFile());
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.length);
    db.close();
  });

  it('seeds at least 30 posts over several months with approved and pending comments on first open', () => {
    const db = openOriginDatabase(tempFile());
    const posts = db.prepare(`SELECT count(*) AS n, count(DISTINCT substr(pub_date, 1, 7)) AS months FROM posts`).get() as { n: number; months: number };
    assert.ok(posts.n >= 30, `${posts.n} posts`);
    assert.ok(posts.months >= 4, `${posts.months} months`);
    const comments = db.prepare(`SELECT sum(approved) AS approved, sum(1 - approved) AS pending FROM comments`).get() as { approved: number; pending: number };
    assert.ok(comments.approved > 0 && comments.pending > 0);
    assert.equal(db.prepare(`SELECT count(*) AS n FROM purge_jobs`).pluck().get(), 0);
    db.close();
  });

  it('does not seed again when every post was deleted before a reopen', () => {
    const file = tempFile();
    const first = openOriginDatabase(file);
    first.exec('DELETE FROM posts');
    first.close();
    const again = openOriginDatabase(file);
    assert.equal(again.prepare('SELECT count(*) FROM posts').pluck().get(), 0);
    again.close();
  });

  it('moves the jobs every front had confirmed to the per-URL edge purges when upgrading from schema 1', () => {
    const file = tempFile();
    mkdirSync(dirname(file), { recursive: true });
    const old = new Database(file);
    old.exec(MIGRATIONS[0] ?? '');
    old.pragma('user_version = 1');
    const job = old.prepare(`INSERT INTO purge_jobs (pathnames, created_at, fronts_done, cdn_attempts) VALUES (?, '2026-11-20', ?, ?)`);
    job.run(JSON.stringify(['/plog/a', '/', '/plog']), 1, 4);
    job.run(JSON.stringify(['/plog/b', '/', '/plog']), 1, 0);
    const waiting = Number(job.run(JSON.stringify(['/plog/c', '/', '/plog']), 0, 0).lastInsertRowid);
    old.prepare(`INSERT INTO purge_deliveries (job_id, route, attempts) VALUES (?, 'http://front/__purge__', 2)`).run(waiting);
    old.close();

    const db = openOriginDatabase(file, { seed: false });
    try {
      assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.length);
      const urls = db.prepare(`SELECT url, attempts, next_at AS nextAt FROM cdn_purges ORDER BY url`).all() as { url: string; attempts: number; nextAt: number }[];
      assert.deepEqual(urls.map((row) => row.url), ['/', '/plog', '/plog/a', '/plog/b']);
      assert.ok(urls.every((row) => row.attempts === 0 && row.nextAt === 0), 'due at once');
      assert.deepEqual(db.prepare(`SELECT id, pathnames FROM purge_jobs`).all(), [{ id: waiting, pathnames: JSON.stringify(['/plog/c', '/', '/plog']) }]);
      assert.equal(db.prepare(`SELECT attempts FROM purge_deliveries WHERE job_id = ?`).pluck().get(waiting), 2);
    } finally {
      db.close();
    }
  });

  it('keeps the waiting purge jobs and their deliveries, with no keys, when upgrading from before keys (schema 4)', () => {
    const file = tempFile();
    mkdirSync(dirname(file), { recursive: true });
    const old = new Database(file);
    old.pragma('foreign_keys = ON');
    for (const step of MIGRATIONS.slice(0, 4)) old.exec(step);
    old.pragma('user_version = 4');
    const waiting = Number(old.prepare(`INSERT INTO purge_jobs (pathnames, created_at) VALUES (?, '2026-11-20')`).run(JSON.stringify(['/plog/c', '/', '/plog'])).lastInsertRowid);
    old.prepare(`INSERT INTO purge_deliveries (job_id, route, attempts, delivered) VALUES (?, 'http://front-a/__purge__', 1, 1)`).run(waiting);
    old.prepare(`INSERT INTO purge_deliveries (job_id, route, attempts, last_error) VALUES (?, 'http://front-b/__purge__', 3, '503')`).run(waiting);
    old.close();

    const db = openOriginDatabase(file, { seed: false });
    try {
      assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.length);
      assert.deepEqual(db.prepare(`SELECT id, pathnames, keys FROM purge_jobs`).all(), [{ id: waiting, pathnames: JSON.stringify(['/plog/c', '/', '/plog']), keys: '[]' }]);
      assert.deepEqual(db.prepare(`SELECT route, attempts, delivered, report_id AS report FROM purge_deliveries ORDER BY route`).all(), [
        { route: 'http://front-a/__purge__', attempts: 1, delivered: 1, report: null },
        { route: 'http://front-b/__purge__', attempts: 3, delivered: 0, report: null },
      ]);
      assert.equal(db.prepare(`SELECT count(*) FROM purge_reports`).pluck().get(), 0);
      assert.deepEqual(db.pragma('foreign_key_check'), []);
    } finally {
      db.close();
    }
  });

  it('refuses a file whose schema is newer than this code', () => {
    const file = tempFile();
    const db = openOriginDatabase(file, { seed: false });
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    assert.throws(() => openOriginDatabase(file), /newer than this sitestack/);
  });
});

describe('demoPosts', () => {
  it('is deterministic and gives every post sections with heading ids', () => {
    const posts = demoPosts();
    assert.deepEqual(posts, demoPosts());
    assert.equal(new Set(posts.map((post) => post.oid)).size, posts.length);
    for (const post of posts) assert.match(post.body_html, /<h2 id="[a-z0-9-]+">[^<]+<\/h2>\n<p>/);
  });
});
