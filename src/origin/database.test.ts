import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
