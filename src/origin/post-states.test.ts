import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { openOriginDatabase, type OriginDatabase } from './database.js';
import { ContentStore } from './store.js';
import type { PostInput } from './validation.js';
import type { PostState } from './publication.js';

const START = Date.parse('2026-12-01T12:00:00.000Z');
let clock = START;
let db: OriginDatabase;
let store: ContentStore;

const iso = (ms: number) => new Date(ms).toISOString();
const post = (extra: Partial<PostInput> = {}): PostInput => ({
  title: 'Kestrel notes',
  body: '<p>Hovering</p>',
  summary: 'Birds',
  categories: ['Birds'],
  pub_date: '2026-11-01T00:00:00.000Z',
  ...extra,
});

/** What every reader-facing read says of `oid`: page, list, category list, and whether a comment is taken. */
function readerSees(oid: string): { page: boolean; list: boolean; category: boolean } {
  const listed = (groups: ReturnType<ContentStore['listGroups']>) => groups.some((group) => group.posts.some((item) => item.oid === oid));
  return { page: store.getPost(oid) !== undefined, list: listed(store.listGroups()), category: listed(store.listGroups('Birds')) };
}

const jobs = () => ({
  purges: db.prepare(`SELECT pathnames, warm FROM purge_jobs ORDER BY id`).all() as { pathnames: string; warm: string }[],
  searches: db.prepare(`SELECT oid FROM search_jobs ORDER BY id`).pluck().all() as string[],
});
const clearJobs = () => db.exec('DELETE FROM purge_jobs; DELETE FROM search_jobs');

beforeEach(() => {
  clock = START;
  db = openOriginDatabase(':memory:', { seed: false });
  store = new ContentStore(db, { now: () => new Date(clock) });
});
afterEach(() => db.close());

describe('post states in the content store', () => {
  it('hides a draft from every reader read, and shows it to the editor', () => {
    store.putPost('kestrel', post({ state: 'draft' }));
    assert.deepEqual(readerSees('kestrel'), { page: false, list: false, category: false });
    assert.equal(store.addComment('kestrel', { name: 'Reader', comment: 'First!' }), undefined, 'a comment on a draft is refused as on no post');
    const editor = store.getPostForEditor('kestrel');
    assert.equal(editor?.post.state, 'draft');
    assert.equal(editor?.post.publish_at, null);
    assert.equal(editor?.post.body, '<p>Hovering</p>');
    assert.deepEqual(store.listForEditor().map((item) => [item.oid, item.state]), [['kestrel', 'draft']]);
  });

  it('purges nothing and updates no search while a draft is saved again and again, or deleted', () => {
    store.putPost('kestrel', post({ state: 'draft' }));
    store.patchPost('kestrel', (current) => ({ ...post({ state: 'draft' }), title: `${current.title} again` }));
    assert.equal(store.deletePost('kestrel'), true);
    assert.equal(store.getPostForEditor('kestrel'), undefined);
    assert.deepEqual(jobs(), { purges: [], searches: [] });
  });

  it('publishes a draft with its jobs and its pages to warm, dated the moment it appears', () => {
    store.putPost('kestrel', post({ state: 'draft' }));
    clock += 5_000;
    assert.equal(store.setState('kestrel', 'published'), true);
    assert.deepEqual(readerSees('kestrel'), { page: true, list: true, category: true });
    assert.equal(store.getPost('kestrel')?.post.pub_date, iso(clock));
    const { purges, searches } = jobs();
    assert.equal(purges.length, 1);
    assert.deepEqual(JSON.parse(purges[0]?.warm ?? '[]'), JSON.parse(purges[0]?.pathnames ?? '[]'));
    assert.ok((JSON.parse(purges[0]?.warm ?? '[]') as string[]).includes('/plog/kestrel'));
    assert.deepEqual(searches, ['kestrel']);
  });

  it('unpublishes with a purge and a search removal, and warms nothing', () => {
    store.putPost('kestrel', post());
    clearJobs();
    assert.equal(store.setState('kestrel', 'draft'), true);
    assert.deepEqual(readerSees('kestrel'), { page: false, list: false, category: false });
    const { purges, searches } = jobs();
    assert.equal(purges.length, 1);
    assert.equal(purges[0]?.warm, '[]');
    assert.deepEqual(searches, ['kestrel']);
    assert.equal(store.getPostForEditor('kestrel')?.post.pub_date, '2026-11-01T00:00:00.000Z', 'unpublishing keeps the date');
  });

  it('shows a scheduled post at its time, announced by the sweep, surviving a restart across it', () => {
    store.putPost('kestrel', post({ state: 'scheduled', publish_at: iso(START + 20_000) }));
    assert.equal(store.getPostForEditor('kestrel')?.post.pub_date, iso(START + 20_000));
    assert.equal(store.nextPublication(), START + 20_000);
    assert.deepEqual(jobs(), { purges: [], searches: [] });
    clock = START + 19_999;
    assert.deepEqual(store.publishDue(), []);
    assert.equal(readerSees('kestrel').page, false);
    // The origin is down across the time: a new store on the same file announces it when it runs.
    clock = START + 3_600_000;
    const restarted = new ContentStore(db, { now: () => new Date(clock) });
    assert.deepEqual(readerSees('kestrel'), { page: true, list: true, category: true }, 'reads follow the clock before the sweep');
    assert.deepEqual(restarted.publishDue(), ['kestrel']);
    assert.equal(jobs().purges.length, 1);
    assert.deepEqual(jobs().searches, ['kestrel']);
    assert.deepEqual(restarted.publishDue(), [], 'announced once');
    assert.equal(restarted.getPostForEditor('kestrel')?.post.state, 'published');
    assert.equal(restarted.getPostForEditor('kestrel')?.post.pub_date, iso(START + 20_000), 'dated by its time, not by the sweep');
    assert.equal(restarted.nextPublication(), undefined);
  });

  it('reschedules and cancels a schedule without a job, and publishes a time already past at once', () => {
    store.putPost('kestrel', post({ state: 'scheduled', publish_at: iso(START + 20_000) }));
    assert.equal(store.setState('kestrel', 'scheduled', iso(START + 60_000)), true);
    assert.equal(store.nextPublication(), START + 60_000);
    assert.equal(store.setState('kestrel', 'draft'), true);
    assert.equal(store.nextPublication(), undefined);
    assert.deepEqual(jobs(), { purges: [], searches: [] });
    assert.equal(store.setState('kestrel', 'scheduled', '2020-01-01T00:00:00+02:00'), true);
    assert.equal(store.getPostForEditor('kestrel')?.post.state, 'published');
    assert.equal(store.getPostForEditor('kestrel')?.post.pub_date, '2019-12-31T22:00:00.000Z');
    assert.equal(jobs().purges.length, 1);
  });

  it('refuses a state change of a post that does not exist, and a bad time, writing nothing', () => {
    assert.equal(store.setState('nothing-here', 'published'), false);
    store.putPost('kestrel', post({ state: 'draft' }));
    const before = JSON.stringify(db.prepare('SELECT * FROM posts').all());
    for (const [state, at] of [['scheduled', undefined], ['scheduled', 'next tuesday'], ['scheduled', '2026-12-01'], ['draft', iso(START)], ['published', iso(START)]] as const) {
      assert.throws(() => store.setState('kestrel', state, at), /publish_at/);
    }
    for (const state of ['bogus', 'Published', '', 'scheduled\u0000']) {
      assert.throws(() => store.setState('kestrel', state as PostState, iso(START + 1_000)), /state/);
    }
    assert.equal(JSON.stringify(db.prepare('SELECT * FROM posts').all()), before);
    assert.deepEqual(jobs(), { purges: [], searches: [] });
  });

  it('keeps readers seeing a post iff it is published or scheduled and due, whatever the changes and clock moves', () => {
    type Step =
      | { kind: 'state'; state: PostState; offset: number }
      | { kind: 'put'; state: PostState; offset: number }
      | { kind: 'tick'; ms: number }
      | { kind: 'sweep' };
    const offset = fc.integer({ min: -100_000, max: 100_000 });
    const state = fc.constantFrom<PostState>('draft', 'scheduled', 'published');
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant('state' as const), state, offset }),
      fc.record({ kind: fc.constant('put' as const), state, offset }),
      fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 60_000 }) }),
      fc.constant({ kind: 'sweep' as const }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        db.exec('DELETE FROM posts');
        clock = START;
        let model: { state: PostState; at: number | null } | undefined;
        for (const s of steps) {
          if (s.kind === 'tick') clock += s.ms;
          else if (s.kind === 'sweep') store.publishDue();
          else {
            const at = s.state === 'scheduled' ? clock + s.offset : null;
            if (s.kind === 'state') {
              if (!store.setState('kestrel', s.state, at === null ? undefined : iso(at))) continue;
            } else {
              store.putPost('kestrel', post({ state: s.state, ...(at === null ? {} : { publish_at: iso(at) }) }));
            }
            model = { state: at !== null && at <= clock ? 'published' : s.state, at: at !== null && at <= clock ? null : at };
          }
          const visible = model !== undefined && (model.state === 'published' || (model.state === 'scheduled' && model.at !== null && model.at <= clock));
          assert.deepEqual(readerSees('kestrel'), { page: visible, list: visible, category: visible });
        }
      }),
      { numRuns: 200 },
    );
  });
});
