import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, TEST_REFRESH_SECRET as EDGE_REFRESH_SECRET } from '../../src/edge/test-support/edge-harness.js';
import { createLiveUpdater, runIndexer, SqliteEngine } from '../../src/search/index.js';
import { writeSyntheticBuild } from '../corpus/synthetic.js';
import { staleSurfaces, type Layers, type PostState } from '../../test/support/surfaces.js';
import { spawnServer, type BenchResult, type BenchSuite } from '../lib.js';
import { edgeStackEnv, requireNginx, spawnBenchEdge } from '../nginx.js';

const CHANGES = 50;
/** Posts edited in turn; each change gives one of them a new title and body words no earlier state had. */
const POSTS = 10;
const ADMIN_TOKEN = 'bench-admin-token';
const FRESH_BOUND_MS = 3_000;
const LIVE_JOBS = 50;
/** Query-string variants a stranger requests through the edge before the second round of edits (issue 32). */
const VARIANTS = 10_000;
/** The origin's edge refreshes of one edit are over once none has been made for this long. */
const QUIET_MS = 300;
/** Issue 32: an edit costs "at most a few dozen edge requests", whatever variants strangers requested. */
const EDGE_REQUESTS_BOUND = 60;

function percentile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

interface ChangeTiming {
  /** Until the post's page at the front shows the change: the purge alone. */
  frontPage: number;
  /** Until every surface shows it. */
  everySurface: number;
  /** The surfaces that were fresh last. */
  last: string[];
}

/** Edits a post and polls every surface until each shows the edit; the clock starts when the write is answered. */
async function timeChange(layers: Layers, originUrl: string, oid: string, n: number): Promise<ChangeTiming> {
  const word = `freshword${n}x${Date.now().toString(36)}`;
  const title = `Zebu ${word} notes`;
  const response = await fetch(`${originUrl}/api/v1/plog/${oid}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title, body: `<p>The ${word} body.</p>`, summary: 'Bench', categories: ['Web'], pub_date: '2026-11-22' }),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`PUT ${oid}: ${response.status}`);
  const started = performance.now();
  const state: PostState = { oid, title, shows: [word], searchWord: word, titlePrefix: title.slice(0, 12) };
  let frontPage: number | undefined;
  let stale: string[] = [];
  for (;;) {
    const before = stale;
    stale = await staleSurfaces(layers, state);
    const elapsed = performance.now() - started;
    if (frontPage === undefined && !stale.includes('front page')) frontPage = elapsed;
    if (stale.length === 0) return { frontPage: frontPage ?? elapsed, everySurface: elapsed, last: before };
    if (elapsed > 30_000) throw new Error(`change ${n} not fresh after 30 s: ${stale.join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Readers: `connections` loops, each asking the paths in turn until stopped. */
function startReaders(base: string, paths: readonly string[], connections: number): { stop(): Promise<{ requests: number; failures: number; seconds: number }> } {
  let running = true;
  let requests = 0;
  let failures = 0;
  const started = performance.now();
  const loops = Array.from({ length: connections }, async (_, offset) => {
    for (let i = offset; running; i++) {
      try {
        const response = await fetch(`${base}${paths[i % paths.length] ?? '/'}`);
        await response.arrayBuffer();
        if (response.status >= 500) failures++;
      } catch {
        failures++;
      }
      requests++;
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return { requests, failures, seconds: (performance.now() - started) / 1000 };
    },
  };
}

/**
 * A pass-through proxy in front of the edge that counts what goes through it: the origin's `CDN_BASE_URL`, so that it
 * counts the edge requests (refreshes) edits cause. It sends the edge's own host, which the edge keys its cache on.
 */
async function startEdgeCounter(edgePort: number): Promise<{ url: string; count(): number; quiet(): Promise<void>; close(): Promise<void> }> {
  let count = 0;
  let lastAt = performance.now();
  const server = createServer((req, res) => {
    count++;
    lastAt = performance.now();
    const upstream = request({ host: '127.0.0.1', port: edgePort, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${edgePort}` } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => count,
    async quiet() {
      while (performance.now() - lastAt < QUIET_MS) await new Promise((resolve) => setTimeout(resolve, 50));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Requests `VARIANTS` query-string variants of the pages through the edge, 16 at a time; resolves with their statuses. */
async function requestVariants(edgeUrl: string, pages: readonly string[]): Promise<string> {
  let next = 0;
  const statuses = new Map<number, number>();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < VARIANTS) {
        const n = next++;
        const response = await fetch(`${edgeUrl}${pages[n % pages.length] ?? '/'}?j=${n}`, { redirect: 'manual' });
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    }),
  );
  return [...statuses].map(([status, count]) => `${count}× ${status}`).join(', ');
}

interface Round {
  timings: ChangeTiming[];
  /** Edge requests each edit caused, counted until the origin made none for `QUIET_MS`. */
  edgeRequests: number[];
}

async function editRound(layers: Layers, originUrl: string, oids: readonly string[], counter: Awaited<ReturnType<typeof startEdgeCounter>>, first: number): Promise<Round> {
  const round: Round = { timings: [], edgeRequests: [] };
  await counter.quiet();
  for (let n = first; n < first + CHANGES; n++) {
    const before = counter.count();
    round.timings.push(await timeChange(layers, originUrl, oids[n % oids.length] as string, n));
    await counter.quiet();
    round.edgeRequests.push(counter.count() - before);
  }
  return round;
}

/** The rows of one round of edits; `label` tells the rounds apart. */
function roundResults(round: Round, label: string, note: string): BenchResult[] {
  const every = round.timings.map((timing) => timing.everySurface);
  const front = round.timings.map((timing) => timing.frontPage);
  const lastCounts = new Map<string, number>();
  for (const timing of round.timings) for (const name of timing.last) lastCounts.set(name, (lastCounts.get(name) ?? 0) + 1);
  const lastMost = [...lastCounts].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([name, count]) => `${name} (${count})`).join(', ');
  const frontName = `${label}front page fresh, p50`;
  const requests = round.edgeRequests;
  return [
    { name: frontName, value: percentile(front, 0.5), unit: 'ms', note: `p99 ${percentile(front, 0.99).toFixed(0)} ms: the purge alone` },
    { name: `${label}every surface fresh, p50`, value: percentile(every, 0.5), unit: 'ms', baseline: frontName, target: { max: FRESH_BOUND_MS } },
    { name: `${label}every surface fresh, p99`, value: percentile(every, 0.99), unit: 'ms', target: { max: FRESH_BOUND_MS }, note: `${CHANGES} edits under reader load; last fresh most often: ${lastMost}; ${note}` },
    {
      name: `${label}edge requests per edit, p50`,
      value: percentile(requests, 0.5),
      unit: 'requests',
      target: { max: EDGE_REQUESTS_BOUND },
      note: `max ${Math.max(...requests)}, ${requests.reduce((a, b) => a + b, 0)} in all: the origin's refreshes (3 codings per page, 1 per data route)`,
    },
  ];
}

/** What one live search job costs on a large index: the write, the spelling upkeep and the refresh. */
async function measureLiveJobs(dir: string): Promise<{ jobs: number[]; fullRunMs: number; documents: number }> {
  const documents = Number(process.env.SEARCH_BENCH_DOCUMENTS ?? 50_000);
  const root = join(dir, 'build');
  await writeSyntheticBuild(root, { documents });
  const engine = new SqliteEngine({ path: join(dir, 'live.sqlite') });
  try {
    const run = await runIndexer({ engine, root });
    const update = createLiveUpdater({ engine, popularityOf: () => 0.3 });
    const jobs: number[] = [];
    for (let n = 0; n < LIVE_JOBS; n++) {
      const oid = `bench-live-${n % 10}`;
      const started = performance.now();
      await update([
        {
          oid,
          post: { oid, title: `Live update ${n} of zebu${n}`, summary: 'Bench', body_html: `<p>Word${n} and a paragraph of text about caching pages.</p>`, pub_date: null },
        },
      ]);
      jobs.push(performance.now() - started);
    }
    return { jobs, fullRunMs: run.elapsedMs, documents: run.documents };
  } finally {
    await engine.close();
  }
}

/**
 * Issue 18's freshness figures: origin and front (`bench/servers/stack.ts`) behind the real nginx edge, with readers
 * loading every surface of the edited posts, and 50 edits timed from the write's answer until the last surface shows
 * them; then (issue 32) 10,000 query-string variants requested through the edge and 50 more edits, each counted in
 * edge requests; then the cost of one live search job on a synthetic index, beside the full index run it replaces.
 */
export const freshnessSuite: BenchSuite = {
  name: 'freshness',
  description: 'time from a committed change until every surface shows it, under reader load, before and after 10,000 URL variants; one live search job',
  async run(): Promise<BenchResult[]> {
    const nginx = requireNginx('freshness');
    const dir = mkdtempSync(join(tmpdir(), 'sitestack-bench-freshness-'));
    const [frontPort, originPort, edgePort] = [await freePort(), await freePort(), await freePort()];
    const edgeUrl = `http://127.0.0.1:${edgePort}`;
    const counter = await startEdgeCounter(edgePort);
    const stack = await spawnServer(
      'servers/stack.ts',
      [],
      edgeStackEnv({ dataDir: join(dir, 'data'), frontPort, originPort, adminToken: ADMIN_TOKEN, cdnBaseUrl: counter.url, refreshSecret: EDGE_REFRESH_SECRET }),
    );
    const { edge, ready } = spawnBenchEdge(nginx, join(dir, 'edge'), { edge: edgePort, front: frontPort }, EDGE_REFRESH_SECRET);
    const rounds: Round[] = [];
    let flooded = '';
    let reading = { requests: 0, failures: 0, seconds: 1 };
    let live: Awaited<ReturnType<typeof measureLiveJobs>>;
    try {
      await ready();
      const originUrl = `http://127.0.0.1:${originPort}`;
      const listing = (await (await fetch(`${originUrl}/api/v1/plog/`)).json()) as { groups: { posts: { oid: string }[] }[] };
      const oids = listing.groups.flatMap((group) => group.posts.map((post) => post.oid)).slice(0, POSTS);
      const buildId = /"buildId":"([^"]+)"/.exec(await (await fetch(`${stack.url}/`)).text())?.[1];
      if (buildId === undefined) throw new Error('no build id in the home page');
      const layers: Layers = { frontUrl: stack.url, edgeUrl, buildId };
      const paths = oids.flatMap((oid) => [`/plog/${oid}`, `/_render/data/${buildId}/en-US/plog/${oid}.json`]);
      const readerPaths = [...paths, '/', '/plog', '/api/v1/search?q=notes', '/api/search/autocomplete?q=Zebu'];
      // Readers at the edge (pages, data routes, search, autocomplete) for the whole time the changes are made.
      const readers = startReaders(edgeUrl, readerPaths, 8);
      try {
        rounds.push(await editRound(layers, originUrl, oids, counter, 0));
        flooded = await requestVariants(edgeUrl, ['/', '/plog', ...oids.map((oid) => `/plog/${oid}`)]);
        rounds.push(await editRound(layers, originUrl, oids, counter, CHANGES));
      } finally {
        reading = await readers.stop();
      }
    } finally {
      await edge.stop();
      await stack.stop();
      await counter.close();
    }
    try {
      live = await measureLiveJobs(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const FULL = `full index run, ${live.documents.toLocaleString('en-US')} documents`;
    const readers = `readers ${Math.round(reading.requests / reading.seconds)} req/s, ${reading.failures} failed`;
    return [
      ...roundResults(rounds[0]!, '', readers),
      ...roundResults(rounds[1]!, `after ${VARIANTS.toLocaleString('en-US')} variants: `, `the variants got ${flooded}`),
      { name: FULL, value: live.fullRunMs, unit: 'ms', note: 'what search needed before for a change to show' },
      { name: 'one live search job, p50', value: percentile(live.jobs, 0.5), unit: 'ms', baseline: FULL, note: `p99 ${percentile(live.jobs, 0.99).toFixed(1)} ms: write, spelling upkeep, refresh` },
    ];
  },
};
