import { generatedTrace, generatedTraces } from '../eviction/generated-traces.js';
import { REPLAYED, countingTable, hitRatio, scanSurvival, type Replayed } from '../eviction/replay.js';
import { benchTraces, type Trace } from '../eviction/traces.js';
import type { BenchResult, BenchSuite } from '../lib.js';

const SIZES = [1_000, 2_000];
const POPULAR = 100;
const SCAN = 10_000;
/** The option values that claim to keep popular pages through a scan: the bench holds them to it. */
const SCAN_RESISTANT: readonly Replayed[] = ['s3-fifo', 'w-tinylfu'];

const percent = (ratio: number) => Math.round(ratio * 1000) / 10;
const entries = (size: number) => `${size.toLocaleString('en')} entries`;

/** Hit ratio of every policy on one trace at each size, each beside LRU's. */
function hitRatios(trace: Trace): BenchResult[] {
  const results: BenchResult[] = [];
  for (const size of SIZES) {
    const lruName = `hit ratio, ${trace.name}, ${entries(size)}, lru`;
    let lru = 0;
    for (const eviction of REPLAYED) {
      const value = percent(hitRatio(eviction, size, trace.keys));
      if (eviction === 'lru') lru = value;
      results.push({
        name: `hit ratio, ${trace.name}, ${entries(size)}, ${eviction}`,
        value,
        unit: '%',
        ...(eviction === 'lru' || lru === 0 ? {} : { baseline: lruName }),
        ...(eviction === 'lru' && size === SIZES[0] ? { note: `${trace.keys.length.toLocaleString('en')} requests; ${trace.note}` } : {}),
      });
    }
  }
  return results;
}

/** How many of the most popular pages of a Zipf warm-up each policy still holds after a flood of one-off URLs. */
function scanResults(): BenchResult[] {
  const warmup = generatedTrace('warm-up', { requests: 100_000, scanEvery: 0, scanLength: 0, loopShare: 0, loopLength: 1 }, 7);
  const results: BenchResult[] = [];
  for (const size of SIZES) {
    for (const eviction of REPLAYED) {
      const { before, after } = scanSurvival(eviction, size, warmup.keys, POPULAR, SCAN);
      results.push({
        name: `popular pages kept through a scan, ${entries(size)}, ${eviction}`,
        value: after,
        unit: `of ${POPULAR}`,
        ...(SCAN_RESISTANT.includes(eviction) ? { target: { min: 90 } } : {}),
        note: `the ${POPULAR} pages asked for most in a warm-up of ${warmup.keys.length.toLocaleString('en')} requests (${warmup.note}); ${before} held before ${SCAN.toLocaleString('en')} one-off URLs`,
      });
    }
  }
  return results;
}

/** In-process cost of a hit through each policy's table: the part of a page cache hit the policy decides. */
function hitCosts(): BenchResult[] {
  const keys = Array.from({ length: 1_000 }, (_, i) => `GET /plog/post-${i}?page=2`);
  const rounds = 2_000;
  const best = new Map<Replayed, number>();
  for (let pass = 0; pass < 5; pass++) {
    for (const eviction of REPLAYED) {
      const table = countingTable<string>(eviction, keys.length);
      for (const key of keys) table.set(key, { held: true });
      const start = process.hrtime.bigint();
      for (let round = 0; round < rounds; round++) for (let i = 0; i < keys.length; i++) table.get(keys[(i * 7919) % keys.length]!);
      const nanos = Number(process.hrtime.bigint() - start) / (rounds * keys.length);
      best.set(eviction, Math.min(best.get(eviction) ?? Infinity, nanos));
    }
  }
  return REPLAYED.map((eviction) => ({
    name: `table hit, ${eviction}`,
    value: Math.round(best.get(eviction)! * 10) / 10,
    unit: 'ns',
    ...(eviction === 'lru' ? { note: `get of a held key among ${keys.length.toLocaleString('en')}, best of 5 passes of ${rounds.toLocaleString('en')} rounds; a page cache hit costs ~30 µs of CPU` } : { baseline: 'table hit, lru' }),
  }));
}

export const pageCacheEvictionSuite: BenchSuite = {
  name: 'page-cache',
  description: 'page cache eviction: hit ratios of LRU, W-TinyLFU, S3-FIFO and SIEVE on public and generated traces, popular pages through a scan',
  run(): Promise<BenchResult[]> {
    const traces = [...benchTraces(process.env.BENCH_TRACES), ...generatedTraces()];
    return Promise.resolve([...traces.flatMap(hitRatios), ...scanResults(), ...hitCosts()]);
  },
};
