import { spawnSync } from 'node:child_process';
import { sendFresh } from '../../src/server/test-support/child-processes.js';
import { compareStreamIds, fleetKeys, liveFronts, STREAM_START } from '../../src/fleet/index.js';
import { FLEET_TEST_ENV, startFleetStack, type FleetStack, type FrontProcess } from '../../test/support/fleet-stack.js';
import { ADMIN_TOKEN } from '../../test/support/stack.js';
import type { BenchResult, BenchSuite } from '../lib.js';

/** Edits timed per fleet size (issue 37: p50/p99 over at least 20). */
const EDITS = 30;
/** Fleet sizes measured, each grown from the last (on a small machine the larger fleets share its cores). */
const SIZES = [1, 2, 4, 8];
/** Between a front's answers while an edit is awaited: often enough to time it, rarely enough not to load the fronts. */
const POLL_MS = 5;
/** Issue 37's bound for four fronts, at p99. */
const P99_BOUND_4_MS = 250;

function percentile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Edits (or first publishes) the post `oid` through the origin's admin API, titled `title`. */
export async function edit(fleet: FleetStack, oid: string, title: string): Promise<void> {
  const response = await fetch(`${fleet.origin.url}/api/v1/plog/${oid}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title, body: `<p>${title}</p>`, summary: 'Bench', categories: ['Web'], pub_date: '2026-11-22' }),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`PUT ${oid}: ${response.status}`);
}

interface EditTiming {
  /** From the edit's answer until every live front announced it applied the purge (the stream alone). */
  applied: number;
  /** From the edit's answer until every front serves the new title (the purge, then each front's render). */
  fresh: number;
}

async function appliedEverywhere(fleet: FleetStack, after: string, started: number): Promise<number> {
  const keys = fleetKeys(FLEET_TEST_ENV.FLEET_PREFIX);
  for (;;) {
    const last = (await fleet.client.xrevrange(keys.stream, '+', '-', 'COUNT', 1))[0]?.[0] ?? STREAM_START;
    if (compareStreamIds(last, after) > 0) {
      const fronts = await liveFronts(fleet.client, keys, Number(FLEET_TEST_ENV.FLEET_MEMBER_TTL_MS));
      if (fronts.every((front) => compareStreamIds(front.lastId, last) >= 0)) return performance.now() - started;
    }
    if (performance.now() - started > 10_000) throw new Error('a purge was not applied everywhere within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

async function timeEdit(fleet: FleetStack, fronts: readonly FrontProcess[], oid: string, n: number): Promise<EditTiming> {
  const title = `Fleet bench ${n} ${Date.now().toString(36)}`;
  const keys = fleetKeys(FLEET_TEST_ENV.FLEET_PREFIX);
  const before = (await fleet.client.xrevrange(keys.stream, '+', '-', 'COUNT', 1))[0]?.[0] ?? STREAM_START;
  await edit(fleet, oid, title);
  const started = performance.now();
  const applied = appliedEverywhere(fleet, before, started);
  await Promise.all(
    fronts.map(async (front) => {
      for (;;) {
        const response = await fetch(`${front.url}/plog/${oid}`);
        if ((await response.text()).includes(title)) return;
        if (performance.now() - started > 10_000) throw new Error(`edit ${n} not fresh at ${front.url} within 10 s`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }),
  );
  return { fresh: performance.now() - started, applied: await applied };
}

export const fleetSuite: BenchSuite = {
  name: 'fleet',
  description: 'purges over a Redis stream: an edit answered by the origin until every front serves it, for 1, 2, 4 and 8 front processes',
  async run(): Promise<BenchResult[]> {
    if (spawnSync('redis-server', ['--version']).status !== 0) {
      return [{ name: 'fleet skipped', value: 0, unit: '', note: 'redis-server is not installed (apt-get install redis-server)' }];
    }
    const fleet = await startFleetStack();
    const results: BenchResult[] = [];
    try {
      const oid = 'fleet-bench';
      await edit(fleet, oid, 'Fleet bench start');
      for (const size of SIZES) {
        while (fleet.fronts.length < size) await fleet.addFront();
        // Every front holds the page before the first timed edit, as a warm fleet does.
        for (const front of fleet.fronts) await sendFresh(`${front.url}/plog/${oid}`);
        const timings: EditTiming[] = [];
        for (let n = 0; n < EDITS; n++) timings.push(await timeEdit(fleet, fleet.fronts, oid, size * 1_000 + n));
        const fronts = `${size} front${size === 1 ? '' : 's'}`;
        const note = `${EDITS} edits; each front polled every ${POLL_MS} ms`;
        const applied = timings.map((timing) => timing.applied);
        const fresh = timings.map((timing) => timing.fresh);
        results.push({ name: `purge applied everywhere, ${fronts}, p50`, value: percentile(applied, 0.5), unit: 'ms' });
        results.push({ name: `purge applied everywhere, ${fronts}, p99`, value: percentile(applied, 0.99), unit: 'ms', note: 'edit answered → every live front announced the entry applied' });
        results.push({ name: `purge to fresh, ${fronts}, p50`, value: percentile(fresh, 0.5), unit: 'ms' });
        results.push({ name: `purge to fresh, ${fronts}, p99`, value: percentile(fresh, 0.99), unit: 'ms', ...(size === 4 ? { target: { max: P99_BOUND_4_MS } } : {}), note });
      }
    } finally {
      await fleet.close();
    }
    return results;
  },
};
