import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../log.js';
import { capturedLogger } from '../test-support/captured-logger.js';
import { openOriginDatabase, type OriginDatabase } from './database.js';
import { SearchOutbox, type PostChange, type SearchOutboxOptions } from './search-outbox.js';
import { ContentStore } from './store.js';
import { waitFor } from '../test-support/wait-for.js';
import { tempOriginDatabase } from './test-support/temp-database.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const database = () => tempOriginDatabase(cleanups, 'sitestack-search-outbox-');

const post = (title: string) => ({ title, summary: 'S', body: '<p>Body.</p>', pub_date: '2026-11-20', categories: ['Web'] });

/** Records what the outbox applies; `failing` makes the next calls reject, as a search engine that is down. */
function recorder() {
  const state = {
    applied: [] as { oid: string; title: string | undefined }[][],
    failing: false,
    calls: 0,
    apply: async (changes: readonly PostChange[]) => {
      state.calls++;
      if (state.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:9200');
      state.applied.push(changes.map((change) => ({ oid: change.oid, title: change.post?.title })));
    },
  };
  return state;
}

function outbox(db: OriginDatabase, apply: SearchOutboxOptions['apply'], options: Partial<SearchOutboxOptions> = {}): SearchOutbox {
  const store = new ContentStore(db);
  const worker = new SearchOutbox({
    db,
    apply,
    readPost: (oid) => store.getPost(oid)?.post,
    logger: silentLogger(),
    backoff: { baseMs: 20, maxMs: 100 },
    ...options,
  });
  cleanups.push(() => worker.stop());
  return worker;
}

describe('SearchOutbox', () => {
  it('records a search job in the same transaction as a post write, and none for comments', () => {
    const { db } = database();
    const store = new ContentStore(db);
    store.putPost('first', post('First'));
    const id = store.addComment('first', { name: 'A', comment: 'Hi' });
    assert.ok(id !== undefined);
    store.approveComment(id);
    store.deletePost('first');
    const jobs = db.prepare('SELECT oid FROM search_jobs ORDER BY id').pluck().all();
    assert.deepEqual(jobs, ['first', 'first']);
  });

  it('applies each post as it is at delivery, once, and removes its jobs when applied', async () => {
    const { db } = database();
    const store = new ContentStore(db);
    store.putPost('first', post('Old title'));
    store.putPost('first', post('New title'));
    store.putPost('second', post('Second'));
    const state = recorder();
    const worker = outbox(db, state.apply);
    worker.start();
    await waitFor('applied', () => state.applied.length > 0 && worker.pendingJobs() === 0);
    assert.deepEqual(state.applied, [[{ oid: 'first', title: 'New title' }, { oid: 'second', title: 'Second' }]]);
  });

  it('hands a deleted post over as gone', async () => {
    const { db } = database();
    const store = new ContentStore(db);
    store.putPost('gone', post('Gone'));
    store.deletePost('gone');
    const state = recorder();
    outbox(db, state.apply).start();
    await waitFor('applied', () => state.applied.length > 0);
    assert.deepEqual(state.applied[0], [{ oid: 'gone', title: undefined }]);
  });

  it('keeps the jobs while search is down and applies them, newest state, when it is back', async () => {
    const { db } = database();
    const store = new ContentStore(db);
    const state = recorder();
    state.failing = true;
    const worker = outbox(db, state.apply);
    worker.start();
    store.putPost('first', post('One'));
    worker.notify();
    await waitFor('two failed attempts', () => state.calls >= 2);
    assert.equal(worker.pendingJobs(), 1);
    const row = db.prepare('SELECT attempts, last_error FROM search_jobs').get() as { attempts: number; last_error: string };
    assert.ok(row.attempts >= 1);
    assert.match(row.last_error, /ECONNREFUSED/);
    store.putPost('first', post('Two'));
    store.putPost('second', post('Three'));
    worker.notify();
    state.failing = false;
    await waitFor('applied after the outage', () => worker.pendingJobs() === 0, 5000);
    assert.deepEqual(state.applied.flat(), [
      { oid: 'first', title: 'Two' },
      { oid: 'second', title: 'Three' },
    ]);
  });

  it('logs an outage once when it starts and once when it ends, however many retries it takes', async () => {
    const { db } = database();
    const store = new ContentStore(db);
    const { logger, lines } = capturedLogger('debug');
    const state = recorder();
    state.failing = true;
    const worker = outbox(db, state.apply, { logger });
    worker.start();
    store.putPost('first', post('One'));
    worker.notify();
    await waitFor('five failed attempts', () => state.calls >= 5);
    state.failing = false;
    await waitFor('applied', () => worker.pendingJobs() === 0);
    const atInfoOrAbove = lines.filter((line) => line.level >= 30).map((line) => line.msg);
    assert.deepEqual(atInfoOrAbove, ['search update failed; the jobs wait and are retried', 'search updates resumed']);
  });

  it('keeps a job written while its post is being applied, for the next delivery', async () => {
    const { db } = database();
    const store = new ContentStore(db);
    store.putPost('first', post('One'));
    const seen: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const worker = outbox(db, async (changes) => {
      seen.push(changes.map((change) => change.post?.title ?? '-').join(','));
      if (seen.length === 1) {
        // A write lands while the first delivery is under way: it read 'One', so 'Two' must be delivered too.
        store.putPost('first', post('Two'));
        worker.notify();
        await gate;
      }
    });
    worker.start();
    await waitFor('first delivery started', () => seen.length === 1);
    release();
    await waitFor('second delivery', () => seen.length === 2 && worker.pendingJobs() === 0);
    assert.deepEqual(seen, ['One', 'Two']);
  });

  it('never holds up a write while a delivery hangs', async () => {
    const { db } = database();
    const store = new ContentStore(db);
    store.putPost('first', post('One'));
    let calls = 0;
    let release: () => void = () => undefined;
    const worker = outbox(db, () => {
      calls++;
      return new Promise<void>((resolve) => (release = resolve));
    });
    worker.start();
    await waitFor('delivery under way', () => calls === 1);
    const started = performance.now();
    store.putPost('second', post('Two'));
    assert.ok(performance.now() - started < 1000);
    assert.equal(worker.pendingJobs(), 2);
    release();
  });

  it('lets a delivery finish within the grace at stop, and leaves one that outlasts it queued for the next start', async () => {
    const { db } = database();
    const store = new ContentStore(db);
    store.putPost('quick', post('Quick'));
    const quick = recorder();
    const first = outbox(db, async (changes) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await quick.apply(changes);
    });
    first.start();
    await waitFor('delivery under way', () => first.pendingJobs() === 1 && quick.calls === 0);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await first.stop({ graceMs: 2_000 });
    assert.equal(first.pendingJobs(), 0, 'finished within the grace');

    store.putPost('slow', post('Slow'));
    let release: () => void = () => undefined;
    let started = false;
    const second = outbox(db, () => {
      started = true;
      return new Promise<void>((resolve) => (release = resolve));
    });
    second.start();
    await waitFor('slow delivery under way', () => started);
    const stopping = performance.now();
    await second.stop({ graceMs: 50 });
    assert.ok(performance.now() - stopping < 1_000, 'stop waits no longer than the grace');
    assert.equal(second.pendingJobs(), 1, 'the job stays queued');
    db.close();
    // The delivery left behind ends after the database closed: nothing is thrown, nothing is lost.
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('delivers after a restart what an earlier run left', async () => {
    const { db, file } = database();
    const store = new ContentStore(db);
    store.putPost('first', post('Left over'));
    const down = recorder();
    down.failing = true;
    const first = outbox(db, down.apply);
    first.start();
    await waitFor('a failed attempt', () => down.calls >= 1);
    await first.stop();
    db.close();

    const reopened = openOriginDatabase(file, { seed: false });
    cleanups.push(() => {
      if (reopened.open) reopened.close();
    });
    const state = recorder();
    const second = outbox(reopened, state.apply, { now: () => Date.now() + 60_000 });
    second.start();
    await waitFor('applied after the restart', () => second.pendingJobs() === 0);
    assert.deepEqual(state.applied, [[{ oid: 'first', title: 'Left over' }]]);
  });

  it('takes jobs in batches and drains a backlog larger than one batch', async () => {
    const { db } = database();
    const store = new ContentStore(db);
    for (let i = 0; i < 25; i++) store.putPost(`post-${i}`, post(`Title ${i}`));
    const state = recorder();
    const worker = outbox(db, state.apply, { batchJobs: 10 });
    worker.start();
    await waitFor('drained', () => worker.pendingJobs() === 0);
    assert.deepEqual(state.applied.map((batch) => batch.length), [10, 10, 5]);
    assert.deepEqual(state.applied.flat().map((change) => change.oid), Array.from({ length: 25 }, (_, i) => `post-${i}`));
  });
});
