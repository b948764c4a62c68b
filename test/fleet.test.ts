import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Writable } from 'node:stream';
import { silentLogger } from '../src/log.js';
import { fleetCommand } from '../src/server/fleet-command.js';
import { freshEverywhere, heldEverywhere, page, postBody, startFleetStack, type FleetStack } from './support/fleet-stack.js';
import { ADMIN_TOKEN, adminAt, eventually } from './support/stack.js';

describe('a fleet of fronts over a Redis stream', () => {
  let fleet: FleetStack;
  const edit = async (oid: string, title: string, status = 200) => {
    assert.equal((await adminAt(fleet.origin.url, 'PUT', `/api/v1/plog/${oid}`, postBody(title))).status, status);
    // A publication's own purge applied first, so that it cannot remove what the next reads store.
    if (status === 201) await eventually('the publication is purged everywhere', async () => fleet.origin.outbox?.pendingJobs() === 0, 5_000);
  };

  before(async () => {
    fleet = await startFleetStack();
    await fleet.addFront();
    await Promise.all([fleet.addFront(), fleet.addFront()]);
  });
  after(async () => fleet.close());

  it('brings an edit to every front via the stream when three fronts run', async () => {
    await edit('fleet-one', 'Marmot almanac', 201);
    await freshEverywhere(fleet.fronts, 'fleet-one', 'Marmot almanac', 3_000);
    await heldEverywhere(fleet.fronts, 'fleet-one');
    await edit('fleet-one', 'Marmot ledger');
    const tookMs = await freshEverywhere(fleet.fronts, 'fleet-one', 'Marmot ledger', 2_000);
    assert.ok(tookMs < 2_000);
    await eventually('the outbox counts the purge delivered', async () => fleet.origin.outbox?.pendingJobs() === 0, 3_000);
  });

  it('lists the fronts alive with their lag in `sitestack fleet --json`', async () => {
    let output = '';
    const out = new Writable({ write: (chunk: Buffer, _encoding, done) => ((output += chunk.toString()), done()) });
    assert.equal(await fleetCommand.run({ args: ['--json'], config: fleet.config, logger: silentLogger(), out }), 0);
    const { fronts } = JSON.parse(output) as { fronts: { address: string; lag: number; lastId: string; heartbeatAgeMs: number }[] };
    assert.deepEqual(fronts.map((front) => front.address).sort(), fleet.fronts.map((front) => front.url).sort());
    for (const front of fronts) {
      assert.equal(front.lag, 0);
      assert.match(front.lastId, /^\d+-\d+$/);
      assert.ok(front.heartbeatAgeMs < 1_000);
    }
    output = '';
    assert.equal(await fleetCommand.run({ args: [], config: fleet.config, logger: silentLogger(), out }), 0);
    assert.match(output, /^front +address +last applied +lag +heartbeat/);
    assert.equal(output.trim().split('\n').length, 1 + fleet.fronts.length + 1, 'the fronts, then the shared tier\'s size');
  });

  it('shows the fleet in the origin’s /metrics and Redis in /readyz of the origin and the fronts', async () => {
    const metrics = await fetch(`${fleet.origin.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const text = await metrics.text();
    assert.match(text, new RegExp(`^sitestack_fleet_fronts\\{[^}]*\\} ${fleet.fronts.length}$`, 'm'));
    assert.match(text, /^sitestack_fleet_max_lag_entries\{[^}]*\} 0$/m);
    assert.match(text, /^sitestack_fleet_redis_up\{[^}]*\} 1$/m);
    for (const url of [fleet.origin.url, ...fleet.fronts.map((front) => front.url)]) {
      const ready = (await (await fetch(`${url}/readyz`)).json()) as { checks: Record<string, { ok: boolean; critical: boolean }> };
      assert.equal(ready.checks['redis']?.ok, true, url);
      assert.equal(ready.checks['redis']?.critical, false, url);
    }
  });

  it('serves fresh pages within 1 s of resuming when a front was paused through three edits', async () => {
    const paused = fleet.fronts[0]!;
    await edit('fleet-pause', 'Pika notes 0', 201);
    await freshEverywhere(fleet.fronts, 'fleet-pause', 'Pika notes 0', 3_000);
    paused.pause();
    try {
      for (const round of [1, 2, 3]) {
        await edit('fleet-pause', `Pika notes ${round}`);
        await freshEverywhere(fleet.fronts.slice(1), 'fleet-pause', `Pika notes ${round}`, 5_000);
      }
    } finally {
      paused.resume();
    }
    const tookMs = await freshEverywhere([paused], 'fleet-pause', 'Pika notes 3', 1_000);
    assert.ok(tookMs <= 1_000, `fresh ${tookMs} ms after resuming`);
  });

  it('starts with an empty memory, answers from the second tier, and applies later edits when a front joins after edits', async () => {
    await edit('fleet-late', 'Ibis diary', 201);
    await freshEverywhere(fleet.fronts, 'fleet-late', 'Ibis diary', 3_000);
    const late = await fleet.addFront();
    assert.equal((await page(late, 'fleet-late')).headers['x-middleware-cache'], 'hit', 'the copy another front rendered');
    assert.match((await page(late, 'fleet-late')).body, /Ibis diary/);
    await edit('fleet-late', 'Ibis journal');
    await freshEverywhere(fleet.fronts, 'fleet-late', 'Ibis journal', 2_000);
  });

  it('makes each worker of a --workers front a member that applies edits to its own cache', async () => {
    const before = await fleet.alive();
    const workers = await fleet.addFront(2);
    assert.equal(await fleet.alive(), before + 2);
    await edit('fleet-workers', 'Gannet roll', 201);
    // Fresh connections reach either worker: enough of them that both caches hold the page.
    for (let request = 0; request < 8; request++) assert.match((await page(workers, 'fleet-workers')).body, /Gannet roll/);
    await edit('fleet-workers', 'Gannet muster');
    await eventually('both workers serve the edit', async () => {
      const answers = await Promise.all(Array.from({ length: 8 }, () => page(workers, 'fleet-workers')));
      return answers.every((answer) => answer.body.includes('Gannet muster'));
    }, 2_000);
  });

  it('skips hostile stream entries and keeps every front answering and applying edits', async () => {
    const stream = '{fleet-e2e}:purges';
    await fleet.client.xadd(stream, '*', 'pathnames', 'not json');
    await fleet.client.xadd(stream, '*', 'keys', JSON.stringify(['a b']));
    await fleet.client.xadd(stream, '*', 'pathnames', JSON.stringify([`/${'z'.repeat(2 * 1024 * 1024)}`]));
    await fleet.client.xadd(stream, '*', 'garbage', '\u0000\uffff');
    await edit('fleet-one', 'Marmot register');
    await freshEverywhere(fleet.fronts, 'fleet-one', 'Marmot register', 2_000);
    for (const front of fleet.fronts) assert.equal(front.child.exitCode, null, 'no front crashed');
  });
});
