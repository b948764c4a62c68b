import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { generatedTrace, zipfSampler } from './generated-traces.js';
import { hitRatio, scanSurvival } from './replay.js';
import { benchTraces, parseTrace, readTrace, readTraceBytes } from './traces.js';
import { seededRandom } from '../../src/seeded-random.js';

function bigEndian(keys: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(keys.length * 4);
  const view = new DataView(bytes.buffer);
  keys.forEach((key, i) => view.setUint32(i * 4, key, false));
  return bytes;
}

describe('parseTrace', () => {
  it('reads back any list of unsigned 32-bit keys written big-endian (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 0xffffffff }), { minLength: 1, maxLength: 200 }), (keys) => {
        assert.deepEqual([...parseTrace(bigEndian(keys), 't')], keys);
      }),
    );
  });

  it('refuses an empty trace and one that is not whole 4-byte keys, naming the file', () => {
    assert.throws(() => parseTrace(new Uint8Array(0), 'a.trace'), /^Error: a\.trace: empty trace$/);
    assert.throws(() => parseTrace(new Uint8Array(7), 'b.trace'), /b\.trace: 7 bytes is not a whole number of 4-byte big-endian keys/);
  });
});

describe('readTraceBytes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'traces-'));

  it('says which command is missing when xz is not installed', () => {
    const path = join(dir, 'x.trace.xz');
    writeFileSync(path, 'not xz');
    assert.throws(() => readTraceBytes(path, 'xz-that-is-not-installed'), /needs the `xz-that-is-not-installed` command \(apt-get install xz-utils\)/);
  });

  it('reports a corrupt .xz file with what xz said, and a missing file by its path', () => {
    const path = join(dir, 'corrupt.trace.xz');
    writeFileSync(path, 'ünïcode, not xz');
    assert.throws(() => readTraceBytes(path), /xz -dc .*corrupt\.trace\.xz exited with 1: .*format/i);
    assert.throws(() => readTraceBytes(join(dir, 'none.trace')), /trace .*none\.trace not found/);
  });

  it('reads extra traces named in BENCH_TRACES, raw or compressed, after the public ones', () => {
    const path = join(dir, 'mine.trace');
    writeFileSync(path, bigEndian([1, 2, 1, 2]));
    const traces = benchTraces(` ${path} ,`);
    assert.deepEqual(traces.map((trace) => trace.name), ['web07', 'web12', 'mine']);
    assert.equal(traces[0]!.keys.length, 76_118);
    assert.equal(traces[1]!.keys.length, 95_607);
    assert.deepEqual([...readTrace(path, '').keys], [1, 2, 1, 2]);
    rmSync(dir, { recursive: true });
  });
});

describe('generated traces', () => {
  it('draws every Zipf rank within range, the first most often', () => {
    const draw = zipfSampler(100, 0.9, seededRandom(5));
    const counts = new Array<number>(100).fill(0);
    for (let i = 0; i < 20_000; i++) counts[draw()]!++;
    assert.equal(counts.reduce((a, b) => a + b), 20_000);
    assert.equal(Math.max(...counts), counts[0]);
  });

  it('is the same for the same seed, with its scans of keys never asked for before', () => {
    const shape = { requests: 5_000, scanEvery: 1_000, scanLength: 200, loopShare: 0.2, loopLength: 300 };
    const one = generatedTrace('t', shape, 9);
    assert.deepEqual(one.keys, generatedTrace('t', shape, 9).keys);
    const scanned = [...one.keys.subarray(800, 1_000)];
    assert.equal(new Set(scanned).size, 200);
    assert.ok(scanned.every((key) => !one.keys.subarray(0, 800).includes(key)));
  });
});

describe('replay', () => {
  it('hits nothing in LRU under a loop one key larger than the cache, and everything once it fits', () => {
    const loop = Array.from({ length: 1_100 }, (_, i) => i % 11);
    assert.equal(hitRatio('lru', 10, loop), 0);
    assert.equal(hitRatio('lru', 11, loop), 1 - 11 / 1_100);
  });

  it('counts the popular keys of the warm-up held before and after a scan', () => {
    const warmup = Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? i % 8 : 100 + i));
    assert.deepEqual(scanSurvival('lru', 50, warmup, 4, 100), { before: 4, after: 0 });
    assert.deepEqual(scanSurvival('s3-fifo', 50, warmup, 4, 100), { before: 4, after: 4 });
  });
});
