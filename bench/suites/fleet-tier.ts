import { spawnSync } from 'node:child_process';
import { whenReady } from '../../src/fleet/index.js';
import { demoPosts } from '../../src/origin/index.js';
import { seededRandom } from '../../src/seeded-random.js';
import { sendFresh } from '../../src/server/test-support/child-processes.js';
import { startFleetStack, type FleetStack, type FrontProcess } from '../../test/support/fleet-stack.js';
import { PURGE_SECRET } from '../../test/support/stack.js';
import { zipfSampler } from '../eviction/generated-traces.js';
import { load, type BenchResult, type BenchSuite } from '../lib.js';
import { edit } from './fleet.js';

/** Fronts reading one page while it changes, and changes timed. */
const FRONTS = 4;
const CHANGES = 10;
/** Readers per front asking for the page until they see the change, as a busy page's readers do. */
const READERS = 3;
/** A new front's first requests: Zipf over the posts' pages, the same seeded sequence for both fronts compared. */
const FIRST_REQUESTS = 2_000;
/** Posts added to the demo site's, so that the pages asked for are many more than a front's first requests repeat. */
const EXTRA_POSTS = 400;
const ZIPF_EXPONENT = 0.9;
const POLL_MS = 5;

const tierEnv = (on: boolean) => ({ FLEET_SECOND_TIER: on ? 'on' : 'off' });

/** The renders a front made so far: its page cache's misses, from its /metrics. */
async function misses(front: FrontProcess): Promise<number> {
  const answer = await sendFresh(`${front.url}/metrics`, 'GET', undefined, { authorization: `Bearer ${PURGE_SECRET}` });
  const line = /^sitestack_page_cache_misses_total\{[^}]*\} (\d+)$/m.exec(answer.body);
  if (line === null) throw new Error(`no misses counter at ${front.url}/metrics (${answer.status})`);
  return Number(line[1]);
}

async function totalMisses(fronts: readonly FrontProcess[]): Promise<number> {
  return (await Promise.all(fronts.map(misses))).reduce((sum, count) => sum + count, 0);
}

/** Renders of the page across the fleet per change, while `READERS` readers on every front wait for the change. */
async function rendersPerChange(on: boolean): Promise<number[]> {
  const fleet = await startFleetStack({ env: tierEnv(on) });
  try {
    for (let n = 0; n < FRONTS; n++) await fleet.addFront();
    const oid = 'tier-bench';
    await edit(fleet, oid, 'Tier bench start');
    while ((fleet.origin.outbox?.pendingJobs() ?? 0) > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    for (const front of fleet.fronts) await sendFresh(`${front.url}/plog/${oid}`);
    const renders: number[] = [];
    for (let change = 0; change < CHANGES; change++) {
      const before = await totalMisses(fleet.fronts);
      const title = `Tier bench ${change} ${Date.now().toString(36)}`;
      await edit(fleet, oid, title);
      const started = performance.now();
      await Promise.all(
        fleet.fronts.flatMap((front) =>
          Array.from({ length: READERS }, async () => {
            while (!(await sendFresh(`${front.url}/plog/${oid}`)).body.includes(title)) {
              if (performance.now() - started > 10_000) throw new Error(`change ${change} not fresh at ${front.url} within 10 s`);
              await new Promise((resolve) => setTimeout(resolve, POLL_MS));
            }
          }),
        ),
      );
      renders.push((await totalMisses(fleet.fronts)) - before);
    }
    return renders;
  } finally {
    await fleet.close();
  }
}

interface NewFronts {
  warm: number;
  cold: number;
  bytesPerPage: number;
  pages: number;
  hitsWithTier: number;
  hitsWithout: number;
}

/** A fleet's front reads the popular pages; then a new front with the tier and one without take the same first requests. */
async function newFronts(): Promise<NewFronts> {
  const fleet = await startFleetStack({ env: tierEnv(true) });
  try {
    const extra = Array.from({ length: EXTRA_POSTS }, (_, n) => `tier-page-${n}`);
    for (let at = 0; at < extra.length; at += 8) await Promise.all(extra.slice(at, at + 8).map((oid) => edit(fleet, oid, `Tier page ${oid}`)));
    const paths = [...demoPosts().map((post) => post.oid), ...extra].map((oid) => `/plog/${oid}`);
    const page = zipfSampler(paths.length, ZIPF_EXPONENT, seededRandom(37));
    const sequence = Array.from({ length: FIRST_REQUESTS }, () => paths[page()] ?? '/');
    const memoryBefore = await usedMemory(fleet);
    const first = await fleet.addFront();
    const popular = [...new Set(sequence)];
    for (const path of popular) await sendFresh(`${first.url}${path}`);
    const bytesPerPage = ((await usedMemory(fleet)) - memoryBefore) / popular.length;
    const ratio = async (front: FrontProcess) => {
      let hits = 0;
      for (const path of sequence) if ((await sendFresh(`${front.url}${path}`)).headers['x-middleware-cache'] === 'hit') hits++;
      return hits / sequence.length;
    };
    const warmFront = await fleet.addFront();
    const warm = await ratio(warmFront);
    const coldFront = await fleet.addFront(1, tierEnv(false));
    const cold = await ratio(coldFront);
    const hot = sequence[0] ?? '/';
    const hitsWithTier = (await load(`${warmFront.url}${hot}`, { connections: 10, durationSeconds: 5 })).requestsPerSecond;
    const hitsWithout = (await load(`${coldFront.url}${hot}`, { connections: 10, durationSeconds: 5 })).requestsPerSecond;
    return { warm, cold, bytesPerPage, pages: popular.length, hitsWithTier, hitsWithout };
  } finally {
    await fleet.close();
  }
}

async function usedMemory(fleet: FleetStack): Promise<number> {
  await whenReady(fleet.client, 5_000);
  const info = await fleet.client.info('memory');
  return Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? Number.NaN);
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

export const fleetTierSuite: BenchSuite = {
  name: 'fleet-tier',
  description: "the fleet's shared second tier in Redis: renders per change, a new front's first requests, Redis memory per page, hits beside it",
  async run(): Promise<BenchResult[]> {
    if (spawnSync('redis-server', ['--version']).status !== 0) {
      return [{ name: 'fleet-tier skipped', value: 0, unit: '', note: 'redis-server is not installed (apt-get install redis-server)' }];
    }
    const readers = `${FRONTS} fronts, ${READERS} readers each, ${CHANGES} changes`;
    const without = await rendersPerChange(false);
    const withTier = await rendersPerChange(true);
    const fronts = await newFronts();
    const first = `first ${FIRST_REQUESTS.toLocaleString('en')} requests, Zipf ${ZIPF_EXPONENT} over ${fronts.pages} pages`;
    return [
      { name: 'renders per change, without the second tier', value: mean(without), unit: 'renders', note: readers },
      { name: 'renders per change, with the second tier', value: mean(withTier), unit: 'renders', target: { max: 1.5 }, note: `max ${Math.max(...withTier)}` },
      { name: "a new front's hit ratio, cold", value: fronts.cold * 100, unit: '%', note: first },
      { name: "a new front's hit ratio, warmed from the second tier", value: fronts.warm * 100, unit: '%' },
      { name: 'Redis memory per cached page', value: fronts.bytesPerPage / 1024, unit: 'KiB', note: 'used_memory grown by storing the pages, over the pages stored' },
      { name: 'hits, front without the second tier', value: fronts.hitsWithout, unit: 'req/s', note: '10 connections, one page' },
      { name: 'hits, front with the second tier', value: fronts.hitsWithTier, unit: 'req/s', baseline: 'hits, front without the second tier', target: { minRatio: 0.9 } },
    ];
  },
};
