import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { fleetKeys } from '../src/fleet/index.js';
import { sendFresh } from '../src/server/test-support/child-processes.js';
import { FLEET_TEST_ENV, freshEverywhere, heldEverywhere, page, postBody, startFleetStack, type FleetStack } from './support/fleet-stack.js';
import { startRedisCluster, type RedisCluster } from './support/redis-server.js';
import { adminAt, eventually, PURGE_SECRET } from './support/stack.js';

/** A fleet whose REDIS_URL names a Redis Cluster of three real primaries, by a node that does not hold the fleet's slot. */
describe('a fleet on a Redis Cluster', () => {
  let cluster: RedisCluster;
  let fleet: FleetStack;
  let owner: number;
  const keys = fleetKeys(FLEET_TEST_ENV.FLEET_PREFIX);
  const edit = async (oid: string, title: string, status = 200) => assert.equal((await adminAt(fleet.origin.url, 'PUT', `/api/v1/plog/${oid}`, postBody(title))).status, status);

  before(async () => {
    cluster = await startRedisCluster(3);
    owner = await cluster.nodeOf(keys.stream);
    const seed = cluster.ports.find((port) => port !== owner);
    fleet = await startFleetStack({ redisUrl: `redis+cluster://127.0.0.1:${seed}` });
    await fleet.addFront();
    await fleet.addFront();
  });
  after(async () => {
    await fleet?.close();
    await cluster?.stop();
  });

  it('brings edits to every front, with the fleet’s keys on the node that owns their slot', async () => {
    await edit('cluster', 'Gannet notes', 201);
    await eventually('the publication is purged everywhere', async () => fleet.origin.outbox?.pendingJobs() === 0, 5_000);
    await freshEverywhere(fleet.fronts, 'cluster', 'Gannet notes', 3_000);
    await heldEverywhere(fleet.fronts, 'cluster');
    await edit('cluster', 'Gannet ledger');
    await freshEverywhere(fleet.fronts, 'cluster', 'Gannet ledger', 1_000);
    assert.equal(await fleet.alive(), 2);
    const node = new Redis({ port: owner, host: '127.0.0.1' });
    try {
      assert.equal(await node.exists(keys.stream), 1, 'the stream lives on the slot’s owner');
      assert.ok((await node.dbsize()) > 3, 'the fleet and its shared tier keep their keys there');
    } finally {
      node.disconnect();
    }
  });

  it('answers a new front’s first request from the shared tier in the Cluster', async () => {
    await edit('cluster', 'Gannet atlas');
    await freshEverywhere(fleet.fronts, 'cluster', 'Gannet atlas', 1_000);
    await heldEverywhere(fleet.fronts, 'cluster');
    // The bounds on the tier's connection at start and on a lookup raised above the tests' own: on a loaded machine a
    // new process's first round trips can outlast them, and what is checked here is what the tier holds.
    const late = await fleet.addFront(1, { REDIS_TIMEOUT_MS: '5000', FLEET_TIER_LOOKUP_TIMEOUT_MS: '2000' });
    const answer = await page(late, 'cluster');
    const metrics = await sendFresh(`${late.url}/metrics`, 'GET', undefined, { authorization: `Bearer ${PURGE_SECRET}` });
    assert.equal(answer.headers['x-middleware-cache'], 'hit', metrics.body.split('\n').filter((line) => line.startsWith('sitestack_tier_')).join('\n'));
    assert.match(answer.body, /Gannet atlas/);
  });
});
