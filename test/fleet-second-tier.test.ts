import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sendFresh } from '../src/server/test-support/child-processes.js';
import { freshEverywhere, heldEverywhere, page, postBody, startFleetStack, type FleetStack, type FrontProcess } from './support/fleet-stack.js';
import { ADMIN_TOKEN, adminAt, eventually, PURGE_SECRET } from './support/stack.js';

/** The renders a front made so far: its page cache's misses, from its /metrics. */
async function renders(front: FrontProcess): Promise<number> {
  const answer = await sendFresh(`${front.url}/metrics`, 'GET', undefined, { authorization: `Bearer ${PURGE_SECRET}` });
  return Number(/^sitestack_page_cache_misses_total\{[^}]*\} (\d+)$/m.exec(answer.body)?.[1] ?? Number.NaN);
}

/** The origin's answers to content reads (posts, comments) so far: what renders ask of it. */
async function contentReads(fleet: FleetStack): Promise<number> {
  const answer = await sendFresh(`${fleet.origin.url}/metrics`, 'GET', undefined, { authorization: `Bearer ${ADMIN_TOKEN}` });
  let total = 0;
  for (const [, count] of answer.body.matchAll(/^sitestack_http_request_duration_seconds_count\{[^}]*route="content"[^}]*\} (\d+)$/gm)) total += Number(count);
  return total;
}

const fleetRenders = async (fleet: FleetStack) => (await Promise.all(fleet.fronts.map(renders))).reduce((sum, count) => sum + count, 0);

/** Readers on every front asking for the post's page until each sees `title`. */
async function readersUntil(fleet: FleetStack, oid: string, title: string): Promise<void> {
  await Promise.all(
    fleet.fronts.flatMap((front) =>
      [0, 1, 2].map(() => eventually(`${front.url} serves '${title}'`, async () => (await page(front, oid)).body.includes(title), 3_000)),
    ),
  );
}

describe("a fleet's shared second tier in Redis", () => {
  let fleet: FleetStack;
  const publish = async (oid: string, title: string) => {
    assert.equal((await adminAt(fleet.origin.url, 'PUT', `/api/v1/plog/${oid}`, postBody(title))).status, 201);
    await eventually('the publication is purged everywhere', async () => fleet.origin.outbox?.pendingJobs() === 0, 5_000);
  };
  const edit = async (oid: string, title: string) => assert.equal((await adminAt(fleet.origin.url, 'PUT', `/api/v1/plog/${oid}`, postBody(title))).status, 200);

  before(async () => {
    fleet = await startFleetStack();
    await Promise.all([fleet.addFront(), fleet.addFront(), fleet.addFront(), fleet.addFront()]);
  });
  after(async () => fleet.close());

  it('renders a changed page once for four fronts with readers on each', async () => {
    await publish('tier-one', 'Kestrel notes');
    await readersUntil(fleet, 'tier-one', 'Kestrel notes');
    await heldEverywhere(fleet.fronts, 'tier-one');
    for (const title of ['Kestrel ledger', 'Kestrel atlas']) {
      const before = await fleetRenders(fleet);
      await edit('tier-one', title);
      await readersUntil(fleet, 'tier-one', title);
      assert.equal((await fleetRenders(fleet)) - before, 1, 'one render for the whole fleet');
    }
  });

  it('serves a page fresh, as a hit from the second tier, on the first request of a front started after the edit', async () => {
    await publish('tier-late', 'Plover diary');
    await freshEverywhere(fleet.fronts, 'tier-late', 'Plover diary', 3_000);
    await edit('tier-late', 'Plover ledger');
    await freshEverywhere(fleet.fronts, 'tier-late', 'Plover ledger', 3_000);
    // The bounds on the tier's connection at start and on a lookup raised above the tests' own: on a loaded machine a
    // new process's first round trips can outlast them, and what is checked here is what the tier holds.
    const late = await fleet.addFront(1, { REDIS_TIMEOUT_MS: '5000', FLEET_TIER_LOOKUP_TIMEOUT_MS: '2000' });
    try {
      const answer = await page(late, 'tier-late');
      assert.equal(answer.headers['x-middleware-cache'], 'hit');
      assert.match(answer.body, /Plover ledger/);
      assert.equal(await renders(late), 0);
      const metrics = await sendFresh(`${late.url}/metrics`, 'GET', undefined, { authorization: `Bearer ${PURGE_SECRET}` });
      assert.match(metrics.body, /^sitestack_tier_lookups_total\{[^}]*answer="found"[^}]*\} 1$/m);
      assert.match(metrics.body, /^sitestack_page_cache_shared_hits_total\{[^}]*\} 1$/m);
    } finally {
      await late.stop();
      fleet.fronts.splice(fleet.fronts.indexOf(late), 1);
      await eventually('the stopped front leaves the fleet', async () => (await fleet.alive()) === fleet.fronts.length, 5_000);
    }
  });

  it('renders on every front, as before, for a front with the second tier off', async () => {
    const alone = await fleet.addFront(1, { FLEET_SECOND_TIER: 'off' });
    try {
      await publish('tier-off', 'Avocet log');
      await freshEverywhere(fleet.fronts, 'tier-off', 'Avocet log', 3_000);
      const answer = await page(alone, 'tier-off');
      assert.equal(answer.headers['x-middleware-cache'], 'hit', 'the page was already rendered by its own reader');
      assert.equal(await renders(alone), 1, 'it rendered the page itself, although the tier held it');
    } finally {
      await alone.stop();
      fleet.fronts.splice(fleet.fronts.indexOf(alone), 1);
    }
  });
});

describe("a fleet's shared second tier with soft purge", () => {
  let fleet: FleetStack;

  before(async () => {
    fleet = await startFleetStack({ env: { PURGE_MODE: 'soft' } });
    await Promise.all([fleet.addFront(), fleet.addFront()]);
  });
  after(async () => fleet.close());

  it('answers the marked copy while one front renders the change, then the change everywhere, with one render of reads', async () => {
    const [first] = fleet.fronts as [FrontProcess];
    assert.equal((await adminAt(fleet.origin.url, 'PUT', '/api/v1/plog/tier-soft', postBody('Curlew notes'))).status, 201);
    await eventually('the publication is purged everywhere', async () => fleet.origin.outbox?.pendingJobs() === 0, 5_000);
    const beforeFirst = await contentReads(fleet);
    assert.match((await page(first, 'tier-soft')).body, /Curlew notes/);
    const oneRender = (await contentReads(fleet)) - beforeFirst;
    assert.ok(oneRender >= 1);
    await freshEverywhere(fleet.fronts, 'tier-soft', 'Curlew notes', 3_000);
    await heldEverywhere(fleet.fronts, 'tier-soft');
    const before = await contentReads(fleet);
    assert.equal((await adminAt(fleet.origin.url, 'PUT', '/api/v1/plog/tier-soft', postBody('Curlew ledger'))).status, 200);
    await freshEverywhere(fleet.fronts, 'tier-soft', 'Curlew ledger', 3_000);
    assert.equal((await contentReads(fleet)) - before, oneRender, 'the reads of one render for the whole fleet');
  });
});
