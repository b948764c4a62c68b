import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freshEverywhere, heldEverywhere, postBody, startFleetStack, type FleetStack } from './support/fleet-stack.js';
import { adminAt, eventually, PURGE_SECRET } from './support/stack.js';

/** One sample of a front's `/metrics` (its `server="front"` series has labels, hence the brace). */
async function sample(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${PURGE_SECRET}` } })).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{`));
  assert.ok(line, `${url}/metrics has ${name}`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe("a fleet front's own /metrics", () => {
  let fleet: FleetStack;

  before(async () => {
    fleet = await startFleetStack();
    await fleet.addFront(2);
  });
  after(async () => fleet.close());

  it("shows its stream reader's applied count, lag and connection, summed over its workers, when it is a --workers 2 front", async () => {
    const [front] = fleet.fronts;
    assert.ok(front);
    await eventually('both workers report', async () => (await sample(front.url, 'sitestack_fleet_connected')) === 1, 5_000);
    const applied = await sample(front.url, 'sitestack_fleet_applied_total');
    assert.equal((await adminAt(fleet.origin.url, 'PUT', '/api/v1/plog/front-metrics', postBody('Heron index'))).status, 201);
    await freshEverywhere(fleet.fronts, 'front-metrics', 'Heron index', 3_000);
    await heldEverywhere(fleet.fronts, 'front-metrics');
    await eventually('the purge is delivered', async () => fleet.origin.outbox?.pendingJobs() === 0, 5_000);
    // Each of the two workers applies each entry: the summed count grows by two per entry.
    const grown = (await sample(front.url, 'sitestack_fleet_applied_total')) - applied;
    assert.ok(grown >= 2 && grown % 2 === 0, `applied grew by ${grown}`);
    assert.equal(await sample(front.url, 'sitestack_fleet_lag_entries'), 0);
    assert.equal(await sample(front.url, 'sitestack_fleet_connected'), 1, 'min over the workers, not their sum');
    assert.equal(await sample(front.url, 'sitestack_fleet_skipped_total'), 0);
  });
});
