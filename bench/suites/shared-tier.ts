import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import type { SharedCopy } from '@sitestack/page-cache';
import { FLEET_DEFAULTS, fleetKeys, PurgeStreamWriter, RedisSharedTier, SHARED_TIER_DEFAULTS, type ResolvedFleetOptions } from '../../src/fleet/index.js';
import { silentLogger } from '../../src/log.js';
import { startRedisServer } from '../../test/support/redis-server.js';
import { percentile, type BenchResult, type BenchSuite } from '../lib.js';

/** Pages of a typical size held while lookups are timed and Redis's memory is read. */
const PAGES = 2_000;
/** A page's stored bodies (its br and gzip copies of a ~40 KB page) and its head. */
const BODY_BYTES = 12_000;
const HEAD_BYTES = 700;
/** Copies one surrogate key names in the wide purge: the 18,745 keys of next-shared-cache #612's 10 s tag purge. */
const WIDE = 18_745;
/** Lookups, stores and purges issued at once while filling the tier. */
const CONCURRENCY = 64;

function page(index: number, bodyBytes: number, keys: string[]): SharedCopy {
  const path = `/plog/post-${index}`;
  return { head: JSON.stringify({ v: 1, pad: 'h'.repeat(HEAD_BYTES) }), body: randomBytes(bodyBytes), targets: [path, `${path}/`, '/'], keys };
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? Number.NaN);
}

async function inBatches(count: number, each: (index: number) => Promise<void>): Promise<void> {
  for (let start = 0; start < count; start += CONCURRENCY) {
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count - start) }, (_, offset) => each(start + offset)));
  }
}

export const sharedTierSuite: BenchSuite = {
  name: 'shared-tier',
  description: 'the fleet\'s shared second tier in Redis: lookup times, Redis memory per cached page, and a purge by a key that names 18,745 pages',
  async run(): Promise<BenchResult[]> {
    if (spawnSync('redis-server', ['--version']).status !== 0) return [{ name: 'shared tier skipped', value: 0, unit: '', note: 'redis-server is not installed' }];
    const server = await startRedisServer();
    const admin = new Redis(server.url);
    const options: ResolvedFleetOptions = { ...FLEET_DEFAULTS, prefix: 'tier-bench', applyWaitMs: 0 };
    const logger = silentLogger();
    const tier = new RedisSharedTier({ url: server.url, options, tier: { ...SHARED_TIER_DEFAULTS, maxBytes: 1024 * 1024 * 1024 }, logger });
    const writer = new PurgeStreamWriter({ redis: admin, keys: fleetKeys(options.prefix), options, logger });
    const results: BenchResult[] = [];
    try {
      await tier.ready(5_000);
      const store = async (key: string, copy: SharedCopy) => {
        const answer = await tier.lookup(key, true);
        if (answer.role !== 'lead') throw new Error(`${key}: ${answer.role}`);
        tier.store(key, copy, answer.ticket);
      };
      const before = await usedMemory(admin);
      await inBatches(PAGES, (index) => store(`/plog/post-${index}`, page(index, BODY_BYTES, [`post:${index}`, 'posts', 'category:web', 'author:1'])));
      await tier.settled();
      const held = await tier.size();
      const perPage = ((await usedMemory(admin)) - before) / held.copies;
      results.push({ name: 'Redis memory per cached page', value: Math.round(perPage), unit: 'bytes', note: `${held.copies} pages of ${BODY_BYTES} body + ${HEAD_BYTES} head bytes; used_memory delta` });
      results.push({ name: 'overhead beyond head and body', value: Math.round(perPage - BODY_BYTES - HEAD_BYTES - 20), unit: 'bytes', note: 'hash, index sets, recency entry per page' });

      const timed = async (what: (index: number) => Promise<unknown>) => {
        const samples: number[] = [];
        for (let index = 0; index < PAGES; index++) {
          const started = performance.now();
          await what(index);
          samples.push(performance.now() - started);
        }
        return samples;
      };
      const found = await timed(async (index) => {
        if ((await tier.lookup(`/plog/post-${index}`, true)).role !== 'found') throw new Error('not found');
      });
      results.push({ name: 'lookup of a held page, p50', value: percentile(found, 0.5), unit: 'ms' });
      results.push({ name: 'lookup of a held page, p99', value: percentile(found, 0.99), unit: 'ms', target: { max: SHARED_TIER_DEFAULTS.lookupTimeoutMs }, note: `${PAGES} sequential lookups, ${BODY_BYTES}-byte bodies` });
      const led = await timed(async (index) => {
        const answer = await tier.lookup(`/absent/${index}`, true);
        if (answer.role === 'lead') tier.release(`/absent/${index}`, answer.ticket);
      });
      results.push({ name: 'lookup that leads a render, p50', value: percentile(led, 0.5), unit: 'ms' });
      const purges = await timed((index) => writer.deliver({ pathnames: [`/plog/post-${index}`], keys: [] }));
      results.push({ name: 'purge of one page (tier and stream), p50', value: percentile(purges, 0.5), unit: 'ms', note: 'PurgeStreamWriter.deliver with no front to wait for' });

      await inBatches(WIDE, (index) => store(`/wide/${index}`, page(index, 200, ['wide', `wide:${index}`])));
      await tier.settled();
      const started = performance.now();
      await writer.deliver({ pathnames: [], keys: ['wide'] });
      const wideMs = performance.now() - started;
      const left = await tier.size();
      if (left.copies !== 0) throw new Error(`${left.copies} copies left after the wide purge`);
      results.push({ name: `purge by one key naming ${WIDE} pages`, value: wideMs, unit: 'ms', target: { max: 1_000 }, note: 'one script: every copy, its index entries and the stream entry (next-shared-cache #612: 10 s)' });
    } finally {
      await tier.close();
      admin.disconnect();
      await server.stop();
    }
    return results;
  },
};
