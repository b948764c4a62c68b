import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { migrate, MIGRATIONS, openOriginDatabase, type OriginDatabase } from '../database.js';
import { ContentStore } from '../store.js';
import type { PostInput } from '../validation.js';
import { RevisionLog } from './revision-log.js';

const input = (title: string): PostInput => ({ title, format: 'markdown', body: `# ${title}\n\nText.`, summary: '', categories: ['Web'], pub_date: '2026-01-02T00:00:00.000Z' });

let db: OriginDatabase;
let store: ContentStore;

beforeEach(() => {
  db = openOriginDatabase(':memory:', { seed: false });
  store = new ContentStore(db);
});
afterEach(() => db.close());

const redirects = () => db.prepare<[], { old_oid: string; new_oid: string }>(`SELECT old_oid, new_oid FROM post_redirects ORDER BY old_oid`).all();
const livePosts = () => db.prepare<[], string>(`SELECT oid FROM posts ORDER BY oid`).pluck().all();

describe('ContentStore.renamePost', () => {
  it('moves the post, its comments and its revisions, and redirects the old slug when it is renamed', () => {
    store.putPost('a', input('A'));
    const comment = store.addComment('a', { name: 'Reader', comment: 'Nice' })!;
    store.approveComment(comment);
    db.exec('DELETE FROM purge_jobs; DELETE FROM search_jobs');
    assert.deepEqual(store.renamePost('a', 'b'), { status: 'renamed', from: 'a', to: 'b', formerSlugs: [] });
    assert.equal(store.getPost('a'), undefined);
    assert.equal(store.getPost('b')?.post.title, 'A');
    assert.equal(store.getPost('b')?.comments.count, 1);
    assert.equal(store.revisions.list('b', { before: 99, limit: 10 }).items.length, 1);
    assert.equal(store.addresses.movedTo('a'), 'b');
    const jobs = db.prepare<[], { pathnames: string }>(`SELECT pathnames FROM purge_jobs`).all();
    assert.equal(jobs.length, 1, 'one purge job for the whole rename');
    const pathnames = JSON.parse(jobs[0]!.pathnames) as string[];
    for (const path of ['/plog/a', '/plog/b', '/', '/feed.xml', '/sitemap.xml']) assert.ok(pathnames.includes(path), `${path} in ${pathnames.join(' ')}`);
    assert.deepEqual(db.prepare(`SELECT oid FROM search_jobs ORDER BY id`).pluck().all(), ['a', 'b'], 'the search document moves');
  });

  it('answers not-found when there is no post to rename, and taken when the new slug is a live post', () => {
    store.putPost('a', input('A'));
    store.putPost('b', input('B'));
    assert.deepEqual(store.renamePost('nope', 'c'), { status: 'not-found' });
    assert.deepEqual(store.renamePost('a', 'b'), { status: 'taken' });
    assert.deepEqual(livePosts(), ['a', 'b']);
    assert.deepEqual(redirects(), []);
  });

  it('collapses a chain into one hop when a renamed post is renamed again, and removes the redirect when it is renamed back', () => {
    store.putPost('a', input('A'));
    store.renamePost('a', 'b');
    assert.deepEqual(store.renamePost('b', 'c'), { status: 'renamed', from: 'b', to: 'c', formerSlugs: ['a'] });
    assert.deepEqual(redirects(), [
      { old_oid: 'a', new_oid: 'c' },
      { old_oid: 'b', new_oid: 'c' },
    ]);
    store.renamePost('c', 'a');
    assert.deepEqual(redirects(), [
      { old_oid: 'b', new_oid: 'a' },
      { old_oid: 'c', new_oid: 'a' },
    ]);
  });

  it('lets a new post take over an old slug when it is saved there, and drops redirects to a deleted post', () => {
    store.putPost('a', input('A'));
    store.renamePost('a', 'b');
    store.putPost('a', input('New A'));
    assert.equal(store.addresses.movedTo('a'), undefined);
    assert.equal(store.getPost('a')?.post.title, 'New A');
    store.renamePost('a', 'c');
    store.deletePost('b');
    assert.deepEqual(redirects(), [{ old_oid: 'a', new_oid: 'c' }]);
  });

  it('leaves every old slug one hop from the live post, with no cycle and no redirect from a live slug, whatever renames, saves and deletes happen', () => {
    const slug = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
    const step = fc.oneof(
      fc.record({ op: fc.constant('rename' as const), from: slug, to: slug }),
      fc.record({ op: fc.constant('put' as const), oid: slug }),
      fc.record({ op: fc.constant('delete' as const), oid: slug }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        db.exec('DELETE FROM posts; DELETE FROM post_redirects');
        // Where each slug a reader may hold should lead: the post it named, followed through its renames.
        const expected = new Map<string, string>();
        for (const s of steps) {
          if (s.op === 'put') {
            store.putPost(s.oid, input(s.oid));
            expected.delete(s.oid);
          } else if (s.op === 'delete') {
            if (store.deletePost(s.oid)) for (const [old, to] of expected) if (to === s.oid) expected.delete(old);
          } else {
            const outcome = store.renamePost(s.from, s.to);
            if (outcome.status === 'renamed' && s.from !== s.to) {
              for (const [old, to] of expected) if (to === s.from) expected.set(old, s.to);
              expected.delete(s.to);
              expected.set(s.from, s.to);
            }
          }
        }
        const live = new Set(livePosts());
        for (const { old_oid: old, new_oid: to } of redirects()) {
          assert.ok(live.has(to), `${old} leads to ${to}, a live post, in one hop`);
          assert.ok(!live.has(old), `${old} is a live post and has no redirect`);
        }
        assert.deepEqual(Object.fromEntries(redirects().map((row) => [row.old_oid, row.new_oid])), Object.fromEntries([...expected].sort()));
        assert.equal(db.prepare(`PRAGMA foreign_key_check`).all().length, 0);
      }),
      { numRuns: 200 },
    );
  });
});

describe('RevisionLog', () => {
  it('keeps one revision per save with who saved it, newest first, when a post is saved', () => {
    store.putPost('a', input('One'));
    store.patchPost('a', ({ publish_at: _time, ...current }) => ({ ...current, title: 'Two' }), { by: 'alice' });
    const { items, more } = store.revisions.list('a', { before: Number.MAX_SAFE_INTEGER, limit: 10 });
    assert.equal(more, false);
    assert.deepEqual(
      items.map((item) => [item.n, item.title, item.saved_by, item.size]),
      [
        [2, 'Two', 'alice', '# One\n\nText.'.length],
        [1, 'One', 'api', '# One\n\nText.'.length],
      ],
    );
    assert.equal(store.revisions.get('a', 1)?.body, '# One\n\nText.');
  });

  it('drops the oldest revisions beyond its bound when a post is saved again', () => {
    const small = new ContentStore(db, { revisions: { keep: 3 } });
    for (const title of ['1', '2', '3', '4', '5']) small.putPost('a', input(title));
    const numbers = small.revisions.list('a', { before: Number.MAX_SAFE_INTEGER, limit: 10 }).items.map((item) => item.n);
    assert.deepEqual(numbers, [5, 4, 3]);
    assert.deepEqual(
      small.revisions.list('a', { before: 5, limit: 1 }).items.map((item) => item.n),
      [4],
    );
  });

  it('starts the history of a post from before revisions with its content as revision 1 when the file is migrated', () => {
    const file = new Database(':memory:');
    const step = MIGRATIONS.findIndex((sql) => sql.includes('CREATE TABLE post_revisions'));
    for (const sql of MIGRATIONS.slice(0, step)) file.exec(sql);
    file.pragma(`user_version = ${step}`);
    file.prepare(`INSERT INTO posts (oid, title, summary, body_html, pub_date, categories, updated_at) VALUES ('old', 'Old', '', '<p>Old</p>', '2020-01-01', '[]', '2020-01-02')`).run();
    migrate(file);
    const revision = new RevisionLog(file).get('old', 1);
    assert.equal(revision?.body, '<p>Old</p>');
    assert.equal(revision?.saved_by, 'import');
    assert.equal(revision?.saved_at, '2020-01-02');
    file.close();
  });
});
