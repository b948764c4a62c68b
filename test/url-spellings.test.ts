import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Config } from '../src/config.js';
import { EDGE_CACHE_SETTINGS } from '../src/edge/index.js';
import { nginxForTests, type RunningEdge } from '../src/edge/test-support/edge-harness.js';
import { silentLogger } from '../src/log.js';
import { spellingOf, spellingParts } from '../src/renderer/test-support/url-spellings.js';
import { startFront, type RunningFront } from '../src/server/front-command.js';
import type { RunningOrigin } from '../src/server/origin-command.js';
import { reached, rawGet } from './support/raw-get.js';
import { adminAt, eventually, startEdgeAndOrigin, type EdgeAndOrigin } from './support/stack.js';
import { untilFresh, warm, type Layers } from './support/surfaces.js';

const { nginx, skip } = nginxForTests();

/** Issue 32's bound: after a change, no URL anyone can form serves older content than this, at any layer. */
const FRESH_WITHIN_MS = 3_000;
/** "A few dozen edge requests" per edit, whatever variants strangers asked for before. */
const EDGE_REQUESTS_PER_EDIT = 60;
const FLOOD_VARIANTS = 10_000;

const post = (title: string, words: string) => ({ title, body: `<p>${words} in the body.</p>`, summary: `About ${title}`, categories: ['Web'], pub_date: '2026-11-21' });

/** The spellings issue 32 found stale, and more of the kind, of the post `oid`'s page. */
function issueSpellings(oid: string): string[] {
  return [
    `/plog/${oid}?`,
    `/plog/./${oid}`,
    `/plog/x/../${oid}`,
    `/plog/%2E/${oid}`,
    `//plog/../plog/${oid}`,
    `/plog/${oid}?#`,
    `/plog/${oid}#frag`,
    `/plog/%2e/${oid}`,
    `/pl%6fg/%${oid.charCodeAt(0).toString(16)}${oid.slice(1)}`,
    `/plog/${oid}/`,
    `/plog/${oid}?j=1`,
    `/plog/${oid}?&&p=&p=1&p=1`,
    `/_render/data/../../plog/${oid}?p=1`,
  ];
}

describe('one URL per page, through the real edge and front', { skip }, () => {
  const logger = silentLogger();
  let stack: EdgeAndOrigin;
  let edge: RunningEdge;
  let origin: RunningOrigin;
  let front: RunningFront;
  let config: Config;
  const admin = (method: string, path: string, body?: unknown) => adminAt(origin.url, method, path, body);
  const bases = () => [['front', front.url], ['edge', edge.url]] as const;

  before(async () => {
    stack = await startEdgeAndOrigin(nginx!);
    ({ edge, origin, config } = stack);
    front = await startFront({ config, logger });
  });

  after(async () => {
    await front?.close();
    await stack?.close();
  });

  /** Whether what a reader of `target` at `base` ends up with shows no content older than `title` (or the deletion). */
  async function showsOnly(base: string, target: string, title: string | undefined, old: string): Promise<boolean> {
    const { first, last } = await reached(base, target);
    // nginx refuses some spellings itself (a `%` starting no escape, `..` above the root): nothing is served.
    if (first.status === 400) return true;
    if (last.body.includes(old)) return false;
    return title === undefined ? last.status === 404 : last.status === 200 && last.body.includes(title);
  }

  /** Polls every spelling at both layers until each shows only `title` (undefined: the post is gone). */
  async function untilEverySpelling(targets: readonly string[], title: string | undefined, old: string): Promise<void> {
    const started = performance.now();
    let stale: string[] = [];
    while (performance.now() - started <= FRESH_WITHIN_MS) {
      stale = [];
      for (const [layer, base] of bases()) for (const target of targets) if (!(await showsOnly(base, target, title, old))) stale.push(`${layer} ${target}`);
      if (stale.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.fail(`old content after ${FRESH_WITHIN_MS} ms under: ${stale.join(', ')}`);
  }

  async function warmSpellings(targets: readonly string[]): Promise<void> {
    for (let round = 0; round < 2; round++) for (const [, base] of bases()) for (const target of targets) await reached(base, target);
  }

  it('answers every spelling of the issue with a 301 to the page that neither layer stores', async () => {
    assert.equal((await admin('PUT', '/api/v1/plog/spelled', post('Spelled many ways', 'Quillwort'))).status, 201);
    for (const [layer, base] of bases()) {
      for (const target of issueSpellings('spelled')) {
        for (let round = 0; round < 2; round++) {
          const answer = await rawGet(base, target);
          assert.equal(answer.status, 301, `${layer} ${target}`);
          assert.equal(answer.headers.location, '/plog/spelled', `${layer} ${target}`);
          assert.equal(answer.body, '');
          assert.notEqual(answer.headers['x-cache'], 'HIT', `${layer} ${target}: a redirect is never stored`);
        }
      }
    }
    assert.equal((await rawGet(edge.url, '/plog/spelled')).status, 200);
  });

  it('serves no old content under any spelling of the issue within 3 s when the post is edited, then deleted', async () => {
    // An absolute-form target too: nginx reduces it to its path (so the edge serves the page's own copy), the front redirects.
    const targets = ['/plog/edited-spelled', 'http://127.0.0.1/plog/edited-spelled', ...issueSpellings('edited-spelled')];
    assert.equal((await admin('PUT', '/api/v1/plog/edited-spelled', post('Tamarin first', 'Wolfsbane'))).status, 201);
    await eventually('the post at the edge', () => showsOnly(edge.url, '/plog/edited-spelled', 'Tamarin first', 'never'), FRESH_WITHIN_MS);
    await warmSpellings(targets);
    assert.equal((await admin('PUT', '/api/v1/plog/edited-spelled', post('Tamarin second', 'Hornbeam'))).status, 200);
    await untilEverySpelling(targets, 'Tamarin second', 'Wolfsbane');
    await warmSpellings(targets);
    assert.equal((await admin('DELETE', '/api/v1/plog/edited-spelled')).status, 204);
    await untilEverySpelling(targets, undefined, 'Tamarin second');
  });

  it('serves no old content under generated spellings when the post is edited', async () => {
    const oid = 'generated-spelled';
    const targets = fc.sample(spellingParts, { numRuns: 40, seed: 32 }).map((parts) => spellingOf(`/plog/${oid}`, parts));
    assert.equal((await admin('PUT', `/api/v1/plog/${oid}`, post('Axolotl before', 'Sorrel'))).status, 201);
    await eventually('the post at the edge', () => showsOnly(edge.url, `/plog/${oid}`, 'Axolotl before', 'never'), FRESH_WITHIN_MS);
    await warmSpellings(targets);
    assert.equal((await admin('PUT', `/api/v1/plog/${oid}`, post('Axolotl after', 'Bracken'))).status, 200);
    await untilEverySpelling(targets, 'Axolotl after', 'Sorrel');
    await fc.assert(
      fc.asyncProperty(spellingParts, async (parts) => {
        const target = spellingOf(`/plog/${oid}`, parts);
        for (const [layer, base] of bases()) assert.ok(await showsOnly(base, target, 'Axolotl after', 'Sorrel'), `${layer} ${target}`);
      }),
      { numRuns: 30 },
    );
  });

  it('never renders a data route spelled with dot segments as the page, nor keeps it, whatever its Host', async () => {
    assert.equal((await admin('PUT', '/api/v1/plog/poisoned', post('Kept clean', 'Saxifrage'))).status, 201);
    const data = `/_render/data/${front.buildId}/en-US/plog/poisoned.json`;
    const attempts: [string, string][] = [
      ['/_render/data/../../plog/poisoned?p=1', '/plog/poisoned'],
      ['/_render/data/%2e%2e/%2E%2E/plog/poisoned', '/plog/poisoned'],
      ['/_render/data/../../robots.txt?p=1', '/robots.txt'],
      [`/plog/..${data}?p=1`, data],
    ];
    for (const [layer, base] of bases()) {
      for (const [target, location] of attempts) {
        for (let round = 0; round < 2; round++) {
          const answer = await rawGet(base, target, { host: 'evil.example' });
          assert.equal(answer.status, 301, `${layer} ${target}`);
          assert.equal(answer.headers.location, location, `${layer} ${target}`);
          assert.notEqual(answer.headers['x-cache'], 'HIT', `${layer} ${target}`);
        }
      }
      for (const clean of ['/plog/poisoned', '/robots.txt', data]) {
        const answer = await rawGet(base, clean);
        assert.equal(answer.status, 200, `${layer} ${clean}`);
        assert.doesNotMatch(answer.body, /evil\.example/, `${layer} ${clean}`);
      }
    }
  });

  it('keeps one copy of the search page whatever its query, at the front and the edge', async () => {
    const first = await rawGet(edge.url, '/en-US/search?q=first');
    assert.equal(first.status, 200);
    const second = await rawGet(edge.url, '/en-US/search?q=second&sort=new');
    assert.equal(second.headers['x-cache'], 'HIT');
    assert.equal(second.body, first.body);
    await rawGet(front.url, '/en-US/search?q=third');
    assert.equal((await rawGet(front.url, '/en-US/search?q=fourth')).headers['x-middleware-cache'], 'hit');
    const spelled = await rawGet(edge.url, '/en-US/./search?q=first');
    assert.deepEqual([spelled.status, spelled.headers.location], [301, '/en-US/search?q=first'], 'the query goes along with the redirect');
  });

  it('bounds the edge requests of an edit by the pages it touches after 10,000 query-string variants', async () => {
    const oid = 'flooded';
    assert.equal((await admin('PUT', `/api/v1/plog/${oid}`, post('Flood before', 'Mistletoe'))).status, 201);
    const layers: Layers = { frontUrl: front.url, edgeUrl: edge.url, buildId: front.buildId };
    await untilFresh(layers, { oid, title: 'Flood before' }, FRESH_WITHIN_MS);
    let next = 0;
    const statuses = new Map<number, number>();
    const flood = async () => {
      while (next < FLOOD_VARIANTS) {
        const n = next++;
        const answer = await fetch(`${edge.url}${n % 2 === 0 ? '/' : `/plog/${oid}`}?j=${n}`, { redirect: 'manual' });
        await answer.arrayBuffer();
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
    };
    const entriesBefore = front.pageCache.size;
    await Promise.all(Array.from({ length: 16 }, flood));
    assert.deepEqual([...statuses], [[301, FLOOD_VARIANTS]]);
    assert.ok(front.pageCache.size <= entriesBefore + 2, `the front keeps no variant: ${entriesBefore} → ${front.pageCache.size} entries`);

    // The origin's refreshes are the edge requests an edit causes: each carries the bypass header.
    const realFetch = globalThis.fetch;
    let refreshes = 0;
    globalThis.fetch = (input, init) => {
      if (new Headers(init?.headers).has(EDGE_CACHE_SETTINGS.bypassHeader)) refreshes++;
      return realFetch(input, init);
    };
    try {
      for (let edit = 1; edit <= 3; edit++) {
        await warm(layers, { oid, title: edit === 1 ? 'Flood before' : `Flood edit ${edit - 1}` });
        const counted = refreshes;
        assert.equal((await admin('PUT', `/api/v1/plog/${oid}`, post(`Flood edit ${edit}`, `Edit${edit}word`))).status, 200);
        await untilFresh(layers, { oid, title: `Flood edit ${edit}`, shows: [`Edit${edit}word`] }, FRESH_WITHIN_MS);
        await eventually('the edge refreshes done', async () => origin.outbox?.pendingJobs() === 0 && origin.outbox.pendingCdnUrls() === 0, 5_000);
        const made = refreshes - counted;
        assert.ok(made > 0 && made <= EDGE_REQUESTS_PER_EDIT, `edit ${edit} made ${made} edge requests`);
      }
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
