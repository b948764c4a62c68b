import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, get, TEST_REFRESH_SECRET as EDGE_REFRESH_SECRET } from '../../src/edge/test-support/edge-harness.js';
import { listingsWrong } from '../../test/support/listing-surfaces.js';
import { staleSurfaces, type Layers, type PostState } from '../../test/support/surfaces.js';
import { spawnServer, type BenchResult, type BenchSuite } from '../lib.js';
import { edgeStackEnv, requireNginx, spawnBenchEdge } from '../nginx.js';

/** Samples of each figure (issue 35: p50 and p99 over 20); `PUBLICATION_BENCH_RUNS` sets fewer for a quick check. */
const RUNS = Number(process.env.PUBLICATION_BENCH_RUNS ?? 20);
const ADMIN_TOKEN = 'bench-admin-token';
/** Issue 35: a scheduled post is visible on every surface within 3 s of its time. */
const VISIBLE_BOUND_MS = 3_000;
/** How far ahead each post is scheduled: past the write, the outboxes and the polling of the one before. */
const AHEAD_MS = 1_500;
const CATEGORY = 'Almanac';

function percentile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

async function write(originUrl: string, method: 'PUT', oid: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${originUrl}/api/v1/plog/${oid}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ summary: 'Bench', categories: [CATEGORY], format: 'markdown', pub_date: '2026-11-22', ...body }),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${method} ${oid}: ${response.status}`);
}

/** Milliseconds from `since` until every surface (the feed, the sitemap and the category page too) shows `state`. */
async function untilVisible(layers: Layers, state: PostState, since: number): Promise<number> {
  for (;;) {
    const stale = [...(await staleSurfaces(layers, state)), ...(await listingsWrong(layers, state.oid, CATEGORY, true))];
    const elapsed = performance.now() - since;
    if (stale.length === 0) return elapsed;
    if (elapsed > 30_000) throw new Error(`${state.oid} not visible after 30 s: ${stale.join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

// Autocomplete is asked for the post's own word (a later word of its title): its title's start is every post's.
const visibleState = (oid: string, title: string, word: string): PostState => ({ oid, title, shows: [word], searchWord: word, titlePrefix: word });

/**
 * Issue 35's publication figures, through origin, front and the real nginx edge: a published post's edit from the
 * write's answer, and a scheduled post from its time, until every surface shows it (page and data route at the front
 * and the edge, home, archive, category page, feed, sitemap, search, autocomplete); and whether each publication's
 * first page view at the front was answered from the cache the publication warmed.
 */
export const publicationSuite: BenchSuite = {
  name: 'publication',
  description: "a published edit's save-to-visible and a scheduled post's time-to-visible on every surface; the first view after a publication",
  async run(): Promise<BenchResult[]> {
    const nginx = requireNginx('publication');
    const ports = { front: await freePort(), origin: await freePort(), edge: await freePort() };
    const edgeUrl = `http://127.0.0.1:${ports.edge}`;
    const dir = mkdtempSync(join(tmpdir(), 'sitestack-bench-publication-'));
    const env = { dataDir: join(dir, 'data'), frontPort: ports.front, originPort: ports.origin, adminToken: ADMIN_TOKEN, cdnBaseUrl: edgeUrl, refreshSecret: EDGE_REFRESH_SECRET };
    const stack = await spawnServer('servers/stack.ts', [], edgeStackEnv(env));
    const { edge, ready } = spawnBenchEdge(nginx, join(dir, 'edge'), ports, EDGE_REFRESH_SECRET);
    const edits: number[] = [];
    const scheduled: number[] = [];
    let hits = 0;
    try {
      await ready();
      const originUrl = `http://127.0.0.1:${ports.origin}`;
      const buildId = /"buildId":"([^"]+)"/.exec(await (await fetch(`${stack.url}/`)).text())?.[1];
      if (buildId === undefined) throw new Error('no build id in the home page');
      const layers: Layers = { frontUrl: stack.url, edgeUrl, buildId };
      for (let n = 0; n < RUNS; n++) {
        const word = `editword${n}x${Date.now().toString(36)}`;
        await write(originUrl, 'PUT', 'bench-edit', { title: `Gannet ${word}`, body: `The ${word} body.` });
        edits.push(await untilVisible(layers, visibleState('bench-edit', `Gannet ${word}`, word), performance.now()));
      }
      for (let n = 0; n < RUNS; n++) {
        const word = `schedword${n}x${Date.now().toString(36)}`;
        const at = Date.now() + AHEAD_MS;
        const publishAt = new Date(at).toISOString();
        await write(originUrl, 'PUT', `bench-scheduled-${n}`, { title: `Shearwater ${word}`, body: `The ${word} body.`, state: 'scheduled', publish_at: publishAt });
        // Published at the same time and read by nothing before its first view.
        await write(originUrl, 'PUT', `bench-first-${n}`, { title: `Fulmar ${word}`, body: `The ${word} body.`, state: 'scheduled', publish_at: publishAt });
        while (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, 5));
        scheduled.push(await untilVisible(layers, visibleState(`bench-scheduled-${n}`, `Shearwater ${word}`, word), performance.now() - (Date.now() - at)));
        await new Promise((resolve) => setTimeout(resolve, 200));
        if ((await get(`${stack.url}/plog/bench-first-${n}`)).headers['x-middleware-cache'] === 'hit') hits++;
      }
    } finally {
      await edge.stop();
      await stack.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    const EDIT = 'published edit, save to every surface, p50';
    return [
      { name: EDIT, value: percentile(edits, 0.5), unit: 'ms', target: { max: VISIBLE_BOUND_MS }, note: `p99 ${percentile(edits, 0.99).toFixed(0)} ms over ${RUNS}, from the PUT's answer` },
      { name: 'scheduled post, its time to every surface, p50', value: percentile(scheduled, 0.5), unit: 'ms', baseline: EDIT, target: { max: VISIBLE_BOUND_MS } },
      {
        name: 'scheduled post, its time to every surface, p99',
        value: percentile(scheduled, 0.99),
        unit: 'ms',
        target: { max: VISIBLE_BOUND_MS },
        note: `${RUNS} posts, each scheduled ${AHEAD_MS} ms ahead; every surface: page and data route at front and edge, home, archive, category, feed, sitemap, search, autocomplete`,
      },
      { name: 'first front view after a publication a cache hit', value: hits, unit: `of ${RUNS}`, target: { min: RUNS }, note: 'the outbox renders each front once after its purge' },
    ];
  },
};
