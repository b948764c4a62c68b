import { seededRandom } from '../../src/seeded-random.js';
import type { Trace } from './traces.js';

/** Draws page ranks 0…pages−1 with Zipf's law: rank r is asked for in proportion to 1/(r+1)^exponent. */
export function zipfSampler(pages: number, exponent: number, random: () => number): () => number {
  const cumulative = new Float64Array(pages);
  let total = 0;
  for (let rank = 0; rank < pages; rank++) cumulative[rank] = total += 1 / (rank + 1) ** exponent;
  return () => {
    const target = random() * total;
    let low = 0;
    let high = pages - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

/** Popular pages take the keys 0…pages−1 by rank; one-off and loop keys are numbered above every page. */
const PAGES = 50_000;
const ONE_OFF_BASE = 1_000_000;
const LOOP_BASE = 500_000;
const EXPONENT = 0.9;

export interface GeneratedTraceShape {
  requests: number;
  /** Every `scanEvery` requests, `scanLength` one-off keys in a row (0: no scans). */
  scanEvery: number;
  scanLength: number;
  /** Share of requests that walk a loop of `loopLength` keys in order (0: no loop). */
  loopShare: number;
  loopLength: number;
}

/** A seeded trace of Zipf-distributed page requests with scans of one-off keys and a loop mixed in. */
export function generatedTrace(name: string, shape: GeneratedTraceShape, seed: number): Trace {
  const random = seededRandom(seed);
  const page = zipfSampler(PAGES, EXPONENT, random);
  const keys = new Uint32Array(shape.requests);
  let oneOff = ONE_OFF_BASE;
  let loopStep = 0;
  for (let i = 0; i < keys.length; i++) {
    if (shape.scanEvery > 0 && i % shape.scanEvery >= shape.scanEvery - shape.scanLength) keys[i] = oneOff++;
    else if (random() < shape.loopShare) keys[i] = LOOP_BASE + (loopStep++ % shape.loopLength);
    else keys[i] = page();
  }
  const parts = shape.loopShare < 1 ? [`Zipf ${EXPONENT} over ${PAGES.toLocaleString('en')} pages`] : [];
  if (shape.scanEvery > 0) parts.push(`a scan of ${shape.scanLength.toLocaleString('en')} one-off keys every ${shape.scanEvery.toLocaleString('en')} requests`);
  if (shape.loopShare === 1) parts.push(`a loop of ${shape.loopLength.toLocaleString('en')} keys, walked in order`);
  else if (shape.loopShare > 0) parts.push(`${Math.round(shape.loopShare * 100)}% of requests walking a loop of ${shape.loopLength.toLocaleString('en')} keys`);
  return { name, keys, note: `seed ${seed}: ${parts.join(', ')}` };
}

/** The generated traces of the bench: Zipf alone, with scans, with a loop, and a bare loop larger than either cache. */
export function generatedTraces(): Trace[] {
  const requests = 200_000;
  return [
    generatedTrace('zipf', { requests, scanEvery: 0, scanLength: 0, loopShare: 0, loopLength: 1 }, 1),
    generatedTrace('zipf+scans', { requests, scanEvery: 20_000, scanLength: 5_000, loopShare: 0, loopLength: 1 }, 2),
    generatedTrace('zipf+loop', { requests, scanEvery: 0, scanLength: 0, loopShare: 0.3, loopLength: 2_500 }, 3),
    generatedTrace('loop', { requests: 50_000, scanEvery: 0, scanLength: 0, loopShare: 1, loopLength: 2_500 }, 4),
  ];
}
