import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freshEverywhere, heldEverywhere, page, postBody, startFleetStack, type FleetStack } from './support/fleet-stack.js';
import { startRedisSentinel, startRedisServer, type RedisSentinel, type RedisServer } from './support/redis-server.js';
import { adminAt, eventually } from './support/stack.js';

/** A fleet whose REDIS_URL names a Sentinel: a primary, its replica and one sentinel, all real redis-server processes. */
describe('a fleet behind Redis Sentinel', () => {
  let primary: RedisServer;
  let replica: RedisServer;
  let sentinel: RedisSentinel;
  let fleet: FleetStack;
  const edit = async (oid: string, title: string, status = 200) => assert.equal((await adminAt(fleet.origin.url, 'PUT', `/api/v1/plog/${oid}`, postBody(title))).status, status);

  before(async () => {
    primary = await startRedisServer();
    replica = await startRedisServer({ replicaOf: primary.port });
    sentinel = await startRedisSentinel(primary.port);
    fleet = await startFleetStack({ redisUrl: sentinel.url });
    await fleet.addFront();
    await fleet.addFront();
  });
  after(async () => {
    await fleet?.close();
    await sentinel?.stop();
    await replica?.stop();
    await primary?.stop();
  });

  it('brings edits to every front through the primary the sentinel names', async () => {
    await edit('sentinel', 'Shearwater notes', 201);
    await eventually('the publication is purged everywhere', async () => fleet.origin.outbox?.pendingJobs() === 0, 5_000);
    await freshEverywhere(fleet.fronts, 'sentinel', 'Shearwater notes', 3_000);
    await heldEverywhere(fleet.fronts, 'sentinel');
    await edit('sentinel', 'Shearwater ledger');
    await freshEverywhere(fleet.fronts, 'sentinel', 'Shearwater ledger', 1_000);
    assert.equal(await fleet.alive(), 2);
  });

  it('follows the failover to the promoted replica: pages answered throughout, edits fresh everywhere again after it', async () => {
    await heldEverywhere(fleet.fronts, 'sentinel');
    await primary.kill();
    for (const front of fleet.fronts) assert.equal((await page(front, 'sentinel')).headers['x-middleware-cache'], 'hit', 'answered from memory');
    await eventually('the sentinel promotes the replica', async () => (await sentinel.primaryPort()) === replica.port, 15_000);
    await edit('sentinel', 'Shearwater atlas');
    await freshEverywhere(fleet.fronts, 'sentinel', 'Shearwater atlas', 10_000);
    await eventually('the outbox is empty', async () => fleet.origin.outbox?.pendingJobs() === 0, 5_000);
    await eventually('both fronts announce themselves on the new primary', async () => (await fleet.alive().catch(() => 0)) === 2, 5_000);
  });
});
