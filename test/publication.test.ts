import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { get, nginxForTests } from '../src/edge/test-support/edge-harness.js';
import { runContentBuild } from '../src/search/index.js';
import type { RunningFront } from '../src/server/front-command.js';
import { adminAt, eventually, startThreeLayers, type EdgeAndOrigin } from './support/stack.js';
import { listingsWrong } from './support/listing-surfaces.js';
import { staleSurfaces, untilFresh, type Layers, type PostState } from './support/surfaces.js';

const { nginx, skip } = nginxForTests();

/** The bound of issue 35: a publication or an unpublication shows on every surface within this time. */
const VISIBLE_WITHIN_MS = 3_000;

const postBody = (title: string, words: string, extra: Record<string, unknown>) => ({
  title,
  format: 'markdown',
  body: `${words} in the body.\n\n## More\n\nSecond section.`,
  summary: `About ${title}`,
  categories: ['Almanac'],
  pub_date: '2026-11-21',
  ...extra,
});

/**
 * Drafts and scheduled posts through every layer: the real origin (its scheduler and outboxes), a real front and the
 * real nginx edge, search on the embedded engine.
 */
describe('drafts and scheduled posts, through every layer', { skip }, () => {
  let stack: EdgeAndOrigin;
  let front: RunningFront;
  const originUrl = () => stack.origin.url;
  const admin = (method: string, path: string, body?: unknown) => adminAt(originUrl(), method, path, body);
  const layers = (): Layers => ({ frontUrl: front.url, edgeUrl: stack.edge.url, buildId: front.buildId });

  /** Every surface, the feed, sitemap and category page included, shows `state` (and lists the post iff `shown`). */
  async function untilEverywhere(state: PostState, shown: boolean, since: number): Promise<number> {
    await untilFresh(layers(), state, VISIBLE_WITHIN_MS, since);
    await eventually('the feed, the sitemap and the category page', async () => (await listingsWrong(layers(), state.oid, 'Almanac', shown)).length === 0, Math.max(0, since + VISIBLE_WITHIN_MS - performance.now()));
    return performance.now() - since;
  }

  const hidden = (oid: string, title: string, word: string): PostState => ({
    oid,
    hides: [title, word],
    goneWords: [word.toLowerCase()],
    goneTitlePrefixes: [title.slice(0, 8)],
  });
  const shownState = (oid: string, title: string, word: string): PostState => ({ oid, title, shows: [word], searchWord: title.split(' ')[0]?.toLowerCase() ?? '', titlePrefix: title.slice(0, 8) });

  before(async () => {
    ({ stack, front } = await startThreeLayers(nginx!, { SEARCH_RATE_LIMIT: '100000/minute' }));
  });

  after(async () => {
    await front?.close();
    await stack?.close();
  });

  it('keeps a draft off every surface, the content build included, while the editor reads it', async () => {
    assert.equal((await admin('PUT', '/api/v1/plog/desk-draft', postBody('Nightjar ledger', 'Moorland', { state: 'draft' }))).status, 201);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(await staleSurfaces(layers(), { ...hidden('desk-draft', 'Nightjar ledger', 'Moorland'), title: undefined }), []);
    assert.deepEqual(await listingsWrong(layers(), 'desk-draft', 'Almanac', false), []);
    assert.equal((await get(`${front.url}/plog/desk-draft`)).status, 404);
    assert.equal(((await (await admin('GET', '/api/v1/plog/desk-draft')).json()) as { post: { state: string } }).post.state, 'draft');
    const out = join(stack.dir.path, 'content-build');
    const report = await runContentBuild({ apiBase: originUrl(), out });
    const listed = (await (await fetch(`${originUrl()}/api/v1/plog/`)).json()) as { groups: { posts: { oid: string }[] }[] };
    const published = listed.groups[0]?.posts[0]?.oid ?? '';
    assert.equal(report.posts, listed.groups.flatMap((group) => group.posts).length);
    assert.equal(existsSync(join(out, 'en-us', 'plog', published)), true, 'a published post is in the content build');
    assert.equal(existsSync(join(out, 'en-us', 'plog', 'desk-draft')), false, 'the content build leaves the draft out');
  });

  it('shows a scheduled post on every surface within the bound of its time, its first page view at the front a hit', async () => {
    const at = Date.now() + 2_000;
    const put = await admin('PUT', '/api/v1/plog/desk-scheduled', postBody('Whimbrel calendar', 'Estuary', { state: 'scheduled', publish_at: new Date(at).toISOString() }));
    assert.equal(put.status, 201);
    // A second one, not read by the polling below, for the first page view after its publication.
    assert.equal((await admin('PUT', '/api/v1/plog/desk-first-view', postBody('Dunlin timetable', 'Saltings', { state: 'scheduled', publish_at: new Date(at).toISOString() }))).status, 201);
    assert.deepEqual(await staleSurfaces(layers(), { ...hidden('desk-scheduled', 'Whimbrel calendar', 'Estuary'), title: undefined }), [], 'invisible before its time');
    assert.deepEqual(await listingsWrong(layers(), 'desk-scheduled', 'Almanac', false), []);
    while (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, 20));
    const since = performance.now() - (Date.now() - at);
    const took = await untilEverywhere(shownState('desk-scheduled', 'Whimbrel calendar', 'Estuary'), true, since);
    assert.ok(took <= VISIBLE_WITHIN_MS, `visible ${Math.round(took)} ms after its time`);
    await eventually('the purges and the warm-up', async () => stack.origin.outbox?.pendingJobs() === 0, VISIBLE_WITHIN_MS);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const first = await get(`${front.url}/plog/desk-first-view`);
    assert.equal(first.status, 200);
    assert.equal(first.headers['x-middleware-cache'], 'hit', 'the publication rendered the page once at the front');
    assert.ok(first.body.includes('Dunlin timetable'));
    const data = await get(`${front.url}/_render/data/${front.buildId}/en-US/plog/desk-first-view.json`);
    assert.equal(data.headers['x-middleware-cache'], 'hit', 'and its data route');
  });

  it('hides an unpublished post on every surface within the bound', async () => {
    assert.equal((await admin('PUT', '/api/v1/plog/desk-unpublish', postBody('Godwit register', 'Mudbank', {}))).status, 201);
    await untilEverywhere(shownState('desk-unpublish', 'Godwit register', 'Mudbank'), true, performance.now());
    const since = performance.now();
    const patched = await fetch(`${originUrl()}/api/v1/plog/desk-unpublish`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer e2e-admin-token', 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ state: 'draft' }),
    });
    assert.equal(patched.status, 200);
    await untilEverywhere({ ...hidden('desk-unpublish', 'Godwit register', 'Mudbank'), title: undefined }, false, since);
  });
});
