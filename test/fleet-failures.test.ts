import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freshEverywhere, heldEverywhere, page, postBody, startFleetStack, type FleetStack } from './support/fleet-stack.js';
import { adminAt, eventually } from './support/stack.js';

/** The fleet's Redis failing under two front processes: killed, restarted empty, paused. Its data survives a kill (append-only file). */
describe('a fleet whose Redis fails', () => {
  let fleet: FleetStack;
  const edit = async (oid: string, title: string, status = 200) => assert.equal((await adminAt(fleet.origin.url, 'PUT', `/api/v1/plog/${oid}`, postBody(title))).status, status);
  const published = async (oid: string, title: string) => {
    await edit(oid, title, 201);
    // The publication's own purge applied first, so that it cannot remove what the next reads store.
    await eventually('the publication is purged everywhere', async () => fleet.origin.outbox?.pendingJobs() === 0, 5_000);
    await freshEverywhere(fleet.fronts, oid, title, 3_000);
    await heldEverywhere(fleet.fronts, oid);
  };

  before(async () => {
    fleet = await startFleetStack({ persistentRedis: true });
    await fleet.addFront();
    await fleet.addFront();
  });
  after(async () => fleet.close());

  it('answers pages while Redis is down, and brings edits to every front within 3 s of its return when Redis is killed', async () => {
    await published('outage', 'Bittern log');
    await fleet.redis.kill();
    try {
      for (const front of fleet.fronts) {
        const answer = await page(front, 'outage');
        assert.equal(answer.status, 200);
        assert.equal(answer.headers['x-middleware-cache'], 'hit', 'answered from memory');
      }
      await edit('outage', 'Bittern ledger');
      // The origin keeps the purge (SQLite) and retries: nothing reaches the fronts while Redis is away.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(fleet.origin.outbox?.pendingJobs(), 1);
    } finally {
      await fleet.redis.start();
    }
    const tookMs = await freshEverywhere(fleet.fronts, 'outage', 'Bittern ledger', 3_000);
    assert.ok(tookMs <= 3_000, `fresh ${tookMs} ms after Redis returned`);
    await eventually('the outbox is empty', async () => fleet.origin.outbox?.pendingJobs() === 0, 3_000);
  });

  it('keeps answering within bounded time and catches up after resuming when Redis is paused', async () => {
    await published('paused-redis', 'Avocet chart');
    fleet.redis.pause();
    try {
      for (const front of fleet.fronts) assert.equal((await page(front, 'paused-redis')).status, 200);
      await edit('paused-redis', 'Avocet atlas');
    } finally {
      fleet.redis.resume();
    }
    await freshEverywhere(fleet.fronts, 'paused-redis', 'Avocet atlas', 5_000);
  });

  it('empties every front once, so no page older than the restart is served, when Redis restarts empty', async () => {
    await published('restart-edited', 'Dunlin roster');
    await published('restart-untouched', 'Curlew roster');
    await fleet.redis.kill();
    await edit('restart-edited', 'Dunlin census');
    await fleet.redis.restartEmpty();
    const tookMs = await freshEverywhere(fleet.fronts, 'restart-edited', 'Dunlin census', 3_000);
    assert.ok(tookMs <= 3_000);
    // A page no purge named is rendered again too: the fronts emptied their caches rather than trust them, and the
    // second tier went with Redis's data. The first front renders it; the others may take that render from the tier.
    const [first, ...others] = fleet.fronts;
    assert.equal((await page(first!, 'restart-untouched')).headers['x-middleware-cache'], 'miss');
    for (const front of others) assert.match(String((await page(front, 'restart-untouched')).headers['x-middleware-cache']), /^(miss|hit)$/);
    await edit('restart-edited', 'Dunlin tally');
    await freshEverywhere(fleet.fronts, 'restart-edited', 'Dunlin tally', 2_000);
  });
});
