import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { capturedLogger } from '../test-support/captured-logger.js';
import { waitFor } from '../test-support/wait-for.js';
import { silentLogger } from '../log.js';
import { openOriginDatabase, type OriginDatabase } from './database.js';
import { PublicationScheduler } from './publication-scheduler.js';
import { ContentStore } from './store.js';

const post = { title: 'Osprey', body: '<p>Diving</p>', summary: '', categories: [], pub_date: '2026-11-01' };
let db: OriginDatabase;
let scheduler: PublicationScheduler | undefined;

beforeEach(() => {
  db = openOriginDatabase(':memory:', { seed: false });
});
afterEach(async () => {
  await scheduler?.stop();
  scheduler = undefined;
  db.close();
});

describe('publication scheduler', () => {
  it('announces at start what came due while the origin was down', async () => {
    let clock = Date.parse('2026-12-01T12:00:00Z');
    const store = new ContentStore(db, { now: () => new Date(clock) });
    store.putPost('osprey', { ...post, state: 'scheduled', publish_at: '2026-12-01T12:00:20.000Z' });
    clock += 3_600_000;
    const announced: string[][] = [];
    scheduler = new PublicationScheduler({ store, logger: silentLogger(), now: () => clock, onPublished: (oids) => announced.push([...oids]) });
    scheduler.start();
    await waitFor('the start sweep', () => announced.length === 1);
    assert.deepEqual(announced, [['osprey']]);
    assert.equal(store.getPostForEditor('osprey')?.post.state, 'published');
  });

  it('wakes at a post\'s time, however long before the next sweep, and follows a reschedule', async () => {
    const store = new ContentStore(db);
    const announced: number[] = [];
    scheduler = new PublicationScheduler({ store, logger: silentLogger(), sweepMs: 60_000, onPublished: () => announced.push(Date.now()) });
    scheduler.start();
    const at = Date.now() + 150;
    store.putPost('osprey', { ...post, state: 'scheduled', publish_at: new Date(at + 10_000).toISOString() });
    scheduler.notify();
    assert.equal(store.setState('osprey', 'scheduled', new Date(at).toISOString()), true);
    scheduler.notify();
    await waitFor('the publication', () => announced.length === 1, 2_000);
    const late = (announced[0] ?? 0) - at;
    assert.ok(late >= 0 && late < 500, `announced ${late} ms after its time`);
  });

  it('logs a failed sweep and sweeps again later, never throwing', async () => {
    const { logger, lines } = capturedLogger();
    let calls = 0;
    const store = {
      publishDue: () => {
        calls++;
        throw new Error('database is locked');
      },
      nextPublication: () => undefined,
    };
    scheduler = new PublicationScheduler({ store, logger, sweepMs: 20, onPublished: () => undefined });
    scheduler.start();
    await waitFor('a second sweep', () => calls >= 2);
    assert.ok(lines.some((line) => line.level === 50 && line.msg.startsWith('publishing scheduled posts failed')));
  });
});
