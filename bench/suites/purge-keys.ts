import { bestOf, childJson, load, spawnServer, type BenchResult, type BenchSuite, type LoadResult, type ServerProcess } from '../lib.js';

const SECRET = 'bench';
const HOT_PATH = '/plog/hot';
const HOT_KEY = 'post:hot';
/** How far away the renderer is: it answers this long after it is asked (the origin 200 ms away). */
const RENDER_DELAY_MS = 200;
const PURGES_PER_SECOND = 10;
const CONNECTIONS = 8;
const STORM_SECONDS = 8;
/** Interleaved rounds of quiet, delete and soft: each figure is its best round, as in the other suites. */
const STORM_ROUNDS = 3;
const FRESH_ROUNDS = 20;
const SAMPLE_EVERY_MS = 100;

type Mode = 'delete' | 'soft';

interface Percentiles {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface KeyPurge {
  entries: number;
  removedPerPurge: number;
  rounds: number;
  byKey: Percentiles;
  byPathname: Percentiles;
  scanMs: number;
}

function percentile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** A latency as the notes print it. */
const ms = (value: number) => `${value < 10 ? value.toFixed(2) : Math.round(value)} ms`;

function purgeHot(server: ServerProcess): Promise<Response> {
  return fetch(`${server.url}/__purge__`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({ keys: [HOT_KEY] }),
  });
}

/** What a request for the hot page got: the cache's answer and the content version the page shows. */
async function readHot(server: ServerProcess): Promise<{ cache: string; version: number }> {
  const response = await fetch(`${server.url}${HOT_PATH}`);
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${HOT_PATH} answered ${response.status}`);
  return { cache: response.headers.get('x-middleware-cache') ?? '', version: Number(/data-version="(\d+)"/.exec(body)?.[1] ?? Number.NaN) };
}

/** Asks for the hot page until a hit shows `version` (the server's versions start at 1, and each purge adds one). */
async function untilHit(server: ServerProcess, version: number): Promise<void> {
  for (const deadline = performance.now() + 10_000; performance.now() < deadline; ) {
    const answer = await readHot(server);
    if (answer.cache === 'hit' && answer.version === version) return;
  }
  throw new Error(`${HOT_PATH} never became a hit of version ${version}`);
}

interface Storm {
  /** Stops purging; resolves with the purges sent and how old, at worst, the content the sampler got was. */
  stop(): Promise<{ purges: number; oldestContentMs: number }>;
}

/**
 * Purges the hot page's key `PURGES_PER_SECOND` times a second and samples the page every `SAMPLE_EVERY_MS`: each
 * purge stands for an edit (the server moves the version on), so a sample showing version v is as old as the time since
 * purge number v was sent (0 until then).
 */
function purgeStorm(server: ServerProcess): Storm {
  const purgeSentAt: number[] = [];
  const purges: Promise<void>[] = [];
  const failures: string[] = [];
  let oldest = 0;
  const timer = setInterval(() => {
    purgeSentAt.push(performance.now());
    purges.push(
      purgeHot(server).then(
        async (response) => {
          await response.arrayBuffer();
          if (!response.ok) failures.push(`answered ${response.status}`);
        },
        (error: unknown) => void failures.push(String(error)),
      ),
    );
  }, 1000 / PURGES_PER_SECOND);
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const { version } = await readHot(server);
      const supersededAt = purgeSentAt[version - 1];
      if (supersededAt !== undefined) oldest = Math.max(oldest, performance.now() - supersededAt);
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
    }
  })();
  return {
    async stop() {
      clearInterval(timer);
      sampling = false;
      await Promise.all([...purges, sampler]);
      if (failures.length > 0) throw new Error(`${failures.length} purges failed: ${failures[0]}`);
      return { purges: purges.length, oldestContentMs: oldest };
    },
  };
}

interface StormRun {
  load: LoadResult;
  purges: number;
  oldestContentMs: number;
  stats: { hits: number; misses: number; stale: number };
}

/** The hot page under continuous load from `CONNECTIONS` connections, with or without the purge storm. */
async function hotPageRun(mode: Mode, storm: boolean): Promise<StormRun> {
  const server = await spawnServer('servers/slow-render.ts', [mode, String(RENDER_DELAY_MS)]);
  try {
    await untilHit(server, 1);
    const running = storm ? purgeStorm(server) : undefined;
    let result: LoadResult;
    let stormEnd = { purges: 0, oldestContentMs: 0 };
    try {
      result = await load(`${server.url}${HOT_PATH}`, { connections: CONNECTIONS, durationSeconds: STORM_SECONDS, warmupSeconds: 1, exactLatency: true });
    } finally {
      if (running !== undefined) stormEnd = await running.stop();
    }
    const stats = (await (await fetch(`${server.url}/__cache__/stats`, { headers: { authorization: `Bearer ${SECRET}` } })).json()) as StormRun['stats'];
    return { load: result, ...stormEnd, stats };
  } finally {
    await server.stop();
  }
}

/**
 * Times, over `FRESH_ROUNDS` purges of the hot page, from each purge's answer until a reader asking back to back gets
 * the new content: as a hit with `soft` (the stale copy is answered while the background render runs), as the render
 * the reader waited for with `delete`.
 */
async function timeFresh(mode: Mode): Promise<number[]> {
  const server = await spawnServer('servers/slow-render.ts', [mode, String(RENDER_DELAY_MS)]);
  try {
    const samples: number[] = [];
    for (let round = 1; round <= FRESH_ROUNDS; round++) {
      await untilHit(server, round);
      const purged = await purgeHot(server);
      await purged.arrayBuffer();
      if (!purged.ok) throw new Error(`purge answered ${purged.status}`);
      const answered = performance.now();
      for (;;) {
        const { cache, version } = await readHot(server);
        if (version === round + 1 && (mode === 'delete' || cache === 'hit')) break;
        if (performance.now() - answered > 10_000) throw new Error(`${mode}: version ${round + 1} not served within 10 s`);
      }
      samples.push(performance.now() - answered);
    }
    return samples;
  } finally {
    await server.stop();
  }
}

/**
 * Issue 23's figures: purging one surrogate key in a full cache, a hot page's tail latency while its key is purged ten
 * times a second with renders 200 ms away (delete against soft, beside the quiet page), and how soon the page is fresh
 * after a soft purge.
 */
export const purgeKeysSuite: BenchSuite = {
  name: 'purge-keys',
  description: 'purge by surrogate key in a 100,000-entry cache; a hot page under a purge storm, delete against soft; freshness after a soft purge',
  async run(): Promise<BenchResult[]> {
    const keyPurge = await childJson<KeyPurge>('purge-keys.ts');
    const best: Record<'quiet' | Mode, LoadResult | undefined> = { quiet: undefined, delete: undefined, soft: undefined };
    const runs: Partial<Record<Mode, StormRun>> = {};
    for (let round = 1; round <= STORM_ROUNDS; round++) {
      const quiet = await hotPageRun('soft', false);
      best.quiet = bestOf(best.quiet, quiet.load, 'quiet');
      for (const mode of ['delete', 'soft'] as const) {
        const run = await hotPageRun(mode, true);
        best[mode] = bestOf(best[mode], run.load, mode);
        runs[mode] = run;
        console.error(`  round ${round}: ${mode} p50 ${ms(run.load.p50Ms)}, p99 ${ms(run.load.p99Ms)}, ${Math.round(run.load.requestsPerSecond)} req/s; oldest content ${Math.round(run.oldestContentMs)} ms`);
      }
      console.error(`  round ${round}: quiet p50 ${ms(quiet.load.p50Ms)}, p99 ${ms(quiet.load.p99Ms)}`);
    }
    const quiet = best.quiet!;
    const deleted = best.delete!;
    const soft = best.soft!;
    const deleteRun = runs.delete!;
    const softRun = runs.soft!;
    const freshDelete = await timeFresh('delete');
    const freshSoft = await timeFresh('soft');

    const BY_PATHNAME = `purge of 1,000 of 100,000 entries by pathname, p99 of ${keyPurge.rounds}`;
    const QUIET = 'hot page p99, no purges';
    const FRESH_DELETE = 'new content after a delete purge, p50';
    const storm = `${CONNECTIONS} connections back to back, ${PURGES_PER_SECOND} purges of ${HOT_KEY} a second, renders ${RENDER_DELAY_MS} ms away; best of ${STORM_ROUNDS} interleaved rounds of ${STORM_SECONDS} s`;
    const counts = (run: StormRun) => `last round: ${run.purges} purges, ${run.stats.hits} hits, ${run.stats.stale} stale, ${run.stats.misses} misses`;
    return [
      {
        name: BY_PATHNAME,
        value: keyPurge.byPathname.p99Ms,
        unit: 'ms',
        note: `p50 ${keyPurge.byPathname.p50Ms.toFixed(3)} ms: as many removals, found through the pathname index, in turns with the key purges`,
      },
      {
        name: `purge of one key naming 1,000 of 100,000 entries, p99 of ${keyPurge.rounds}`,
        value: keyPurge.byKey.p99Ms,
        unit: 'ms',
        baseline: BY_PATHNAME,
        target: { max: 5 },
        note: `p50 ${keyPurge.byKey.p50Ms.toFixed(3)} ms; each entry names 3 keys; every purge removes entries held since the fill, refilled through HTTP after it; createPageCache in its own process; for scale, a scan of every entry's keys for one key, removing nothing, takes ${keyPurge.scanMs.toFixed(1)} ms`,
      },
      { name: QUIET, value: quiet.p99Ms, unit: 'ms', note: `p50 ${ms(quiet.p50Ms)}, ${Math.round(quiet.requestsPerSecond)} req/s; ${CONNECTIONS} connections back to back, soft mode, best of ${STORM_ROUNDS} rounds` },
      {
        name: 'hot page p99 under a purge storm, delete',
        value: deleted.p99Ms,
        unit: 'ms',
        baseline: QUIET,
        note: `p50 ${ms(deleted.p50Ms)}, ${Math.round(deleted.requestsPerSecond)} req/s; ${storm}; ${counts(deleteRun)}`,
      },
      {
        name: 'hot page p99 under a purge storm, soft',
        value: soft.p99Ms,
        unit: 'ms',
        baseline: QUIET,
        target: { max: 3 * quiet.p99Ms },
        note: `p50 ${ms(soft.p50Ms)}, ${Math.round(soft.requestsPerSecond)} req/s; target 3 × the quiet p99; ${counts(softRun)}`,
      },
      {
        name: 'oldest content served under the storm, delete',
        value: deleteRun.oldestContentMs,
        unit: 'ms',
        note: `a sample every ${SAMPLE_EVERY_MS} ms of the last round, aged from the purge (edit) that superseded it`,
      },
      {
        name: 'oldest content served under the storm, soft',
        value: softRun.oldestContentMs,
        unit: 'ms',
        baseline: 'oldest content served under the storm, delete',
        note: 'as above; a stale copy is served for at most staleMaxMs (60 s) after its first purge',
      },
      {
        name: FRESH_DELETE,
        value: percentile(freshDelete, 0.5),
        unit: 'ms',
        note: `p99 ${percentile(freshDelete, 0.99).toFixed(0)} ms over ${FRESH_ROUNDS} purges: from the purge's answer until the reader who rendered got the new page`,
      },
      {
        name: 'fresh after a soft purge, p50',
        value: percentile(freshSoft, 0.5),
        unit: 'ms',
        baseline: FRESH_DELETE,
        target: { max: 1.5 * percentile(freshDelete, 0.5) },
        note: `p99 ${percentile(freshSoft, 0.99).toFixed(0)} ms over ${FRESH_ROUNDS} purges: from the purge's answer until a hit shows the new content, one reader asking back to back; target 1.5 × the delete figure`,
      },
    ];
  },
};
