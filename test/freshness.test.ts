import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from '../src/config.js';
import { silentLogger } from '../src/log.js';
import { nginxForTests, type RunningEdge } from '../src/edge/test-support/edge-harness.js';
import { ensureSearchIndex } from '../src/search/index.js';
import { startFront, type RunningFront } from '../src/server/front-command.js';
import type { RunningOrigin } from '../src/server/origin-command.js';
import { chromiumSkip, launchChromium } from './support/chromium.js';
import { adminAt, eventually, startEdgeAndOrigin, type EdgeAndOrigin } from './support/stack.js';
import { staleSurfaces, untilFresh, warm, type Layers, type PostState } from './support/surfaces.js';

const { nginx, skip } = nginxForTests();
const noChromium = chromiumSkip('the reader of the freshness tests');

/** The freshness bound of issue 18: every surface shows a committed change within this time. */
const FRESH_WITHIN_MS = 3_000;

const postBody = (title: string, words: string) => ({
  title,
  body: `<p>${words} in the body.</p><h2 id="more">More</h2><p>Second section.</p>`,
  summary: `About ${title}`,
  categories: ['Web'],
  pub_date: '2026-11-21',
});

/**
 * One change, every surface: the real origin (its purge and search outboxes), a real front and the real nginx edge,
 * with search on the embedded engine at the same address for the origin's updates and the front's searches.
 */
describe('freshness after a change, through every layer', { skip }, () => {
  const logger = silentLogger();
  let stack: EdgeAndOrigin;
  let edge: RunningEdge;
  let origin: RunningOrigin;
  let front: RunningFront;
  let config: Config;
  const builds: string[] = [];

  const admin = (method: string, path: string, body?: unknown) => adminAt(origin.url, method, path, body);
  const layers = (): Layers => ({ frontUrl: front.url, edgeUrl: edge.url, buildId: front.buildId, oldBuildIds: builds.filter((id) => id !== front.buildId) });

  /** Creates a post and waits until every surface shows it, so that every cache holds it before the change. */
  async function published(state: PostState, words: string): Promise<void> {
    assert.equal((await admin('PUT', `/api/v1/plog/${state.oid}`, postBody(state.title ?? '', words))).status, 201);
    await untilFresh(layers(), state, FRESH_WITHIN_MS);
    await warm(layers(), state);
  }

  async function restartFront(banner: string): Promise<void> {
    await front.close();
    front = await startFront({ config, logger, clientBuild: { banner } });
    builds.push(front.buildId);
  }

  before(async () => {
    stack = await startEdgeAndOrigin(nginx!, { SEARCH_RATE_LIMIT: '100000/minute' });
    ({ edge, origin, config } = stack);
    await ensureSearchIndex({ config, logger });
    front = await startFront({ config, logger });
    builds.push(front.buildId);
  });

  after(async () => {
    await front?.close();
    await stack?.close();
  });

  it('shows an edit on every surface within the bound', async () => {
    const before: PostState = { oid: 'fresh-edit', title: 'Marmoset field notes', shows: ['Lanternfish'], searchWord: 'marmoset', titlePrefix: 'Marmoset f' };
    await published(before, 'Lanternfish');
    const started = performance.now();
    assert.equal((await admin('PUT', '/api/v1/plog/fresh-edit', postBody('Quokkabelle field notes', 'Driftwood'))).status, 200);
    const after: PostState = {
      oid: 'fresh-edit',
      title: 'Quokkabelle field notes',
      shows: ['Driftwood'],
      hides: ['Marmoset', 'Lanternfish'],
      searchWord: 'quokkabelle',
      goneWords: ['marmoset', 'lanternfish'],
      titlePrefix: 'Quokkabelle',
      goneTitlePrefixes: ['Marmoset f'],
    };
    await untilFresh(layers(), after, FRESH_WITHIN_MS, started);
  });

  it('takes a deleted post off every surface within the bound', async () => {
    await published({ oid: 'fresh-delete', title: 'Pangolin almanac', shows: ['Saltmarsh'], searchWord: 'pangolin', titlePrefix: 'Pangolin a' }, 'Saltmarsh');
    const started = performance.now();
    assert.equal((await admin('DELETE', '/api/v1/plog/fresh-delete')).status, 204);
    const gone: PostState = { oid: 'fresh-delete', hides: ['Pangolin almanac', 'Saltmarsh'], goneWords: ['pangolin', 'saltmarsh'], goneTitlePrefixes: ['Pangolin a'] };
    await untilFresh(layers(), gone, FRESH_WITHIN_MS, started);
  });

  it('shows an approved comment on the post at every layer within the bound', async () => {
    const state: PostState = { oid: 'fresh-comment', title: 'Axolotl diary', shows: ['Brackish'], searchWord: 'axolotl' };
    await published(state, 'Brackish');
    const submitted = await fetch(`${origin.url}/api/v1/plog/fresh-comment/comments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Reader', comment: 'Periwinkle remark' }),
    });
    assert.equal(submitted.status, 201);
    const { id } = (await submitted.json()) as { id: number };
    assert.deepEqual(await staleSurfaces(layers(), { ...state, shows: ['Brackish'], hides: ['Periwinkle remark'] }), [], 'a pending comment shows nowhere');
    const started = performance.now();
    assert.equal((await admin('POST', `/api/v1/comments/${id}/approve`)).status, 200);
    await untilFresh(layers(), { ...state, shows: ['Brackish', 'Periwinkle remark'] }, FRESH_WITHIN_MS, started);
  });

  it('shows a reader in Chromium the edited post when they click through to it again, through the edge', { skip: noChromium }, async () => {
    const state: PostState = { oid: 'fresh-reader', title: 'Heron logbook', shows: ['Mudflat'], searchWord: 'heron' };
    await published(state, 'Mudflat');
    const chromium = await launchChromium();
    try {
      const page = await chromium.context.newPage();
      await page.goto(`${edge.url}/`);
      await page.waitForFunction(() => document.documentElement.dataset.navigation === 'client');
      const link = page.locator('main a[href="/plog/fresh-reader"]').first();
      await link.click();
      await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Heron logbook');
      await page.goBack();
      await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Latest posts');

      assert.equal((await admin('PUT', '/api/v1/plog/fresh-reader', postBody('Egret logbook', 'Estuary'))).status, 200);
      await untilFresh(layers(), { ...state, title: 'Egret logbook', shows: ['Estuary'], hides: ['Mudflat'], searchWord: 'egret' }, FRESH_WITHIN_MS);
      // The same link, in the same document: the browser already holds this data route from the first click.
      await page.locator('main a[href="/plog/fresh-reader"]').first().click();
      await page.waitForFunction(() => document.querySelector('main h1')?.textContent !== 'Latest posts');
      assert.equal(await page.locator('main h1').textContent(), 'Egret logbook');
      assert.match((await page.locator('main').textContent()) ?? '', /Estuary/);
    } finally {
      await chromium.close();
    }
  });

  it('keeps the bound after the front restarts with a new build id between warming and the change', async () => {
    const before: PostState = { oid: 'fresh-rebuild', title: 'Narwhal ledger', shows: ['Kelpie'], searchWord: 'narwhal', titlePrefix: 'Narwhal l' };
    await published(before, 'Kelpie');
    const oldBuild = front.buildId;
    await restartFront(`rebuild ${Date.now()}`);
    assert.notEqual(front.buildId, oldBuild);
    const started = performance.now();
    assert.equal((await admin('PUT', '/api/v1/plog/fresh-rebuild', postBody('Ibex ledger', 'Sorrel'))).status, 200);
    const after: PostState = {
      oid: 'fresh-rebuild',
      title: 'Ibex ledger',
      shows: ['Sorrel'],
      hides: ['Narwhal', 'Kelpie'],
      searchWord: 'ibex',
      goneWords: ['narwhal'],
      titlePrefix: 'Ibex l',
      goneTitlePrefixes: ['Narwhal l'],
    };
    await untilFresh(layers(), after, FRESH_WITHIN_MS, started);
    assert.ok(layers().oldBuildIds?.includes(oldBuild), 'the old build data routes were checked');
  });

  it('brings search up to date once a search engine that was unavailable during the change is back', async () => {
    const before: PostState = { oid: 'fresh-outage', title: 'Okapi register', shows: ['Gannet'], searchWord: 'okapi', titlePrefix: 'Okapi r' };
    await published(before, 'Gannet');
    // Another writer holds the search database's write lock (as a long index run can): the origin cannot write.
    const blocker = new Database(join(stack.dir.path, 'search.sqlite'));
    blocker.pragma('busy_timeout = 5000');
    blocker.exec('BEGIN IMMEDIATE');
    let released = false;
    try {
      assert.equal((await admin('PUT', '/api/v1/plog/fresh-outage', postBody('Tapir register', 'Heron'))).status, 200);
      const after: PostState = {
        oid: 'fresh-outage',
        title: 'Tapir register',
        shows: ['Heron'],
        hides: ['Okapi', 'Gannet'],
        searchWord: 'tapir',
        goneWords: ['okapi'],
        titlePrefix: 'Tapir r',
        goneTitlePrefixes: ['Okapi r'],
      };
      // Pages are fresh while search still waits: the write went through and the purge did not wait for search.
      await eventually('pages fresh during the outage', async () => {
        const stale = await staleSurfaces(layers(), after);
        return stale.length > 0 && stale.every((name) => name.startsWith('search') || name.startsWith('autocomplete'));
      }, FRESH_WITHIN_MS);
      await eventually('search jobs retried', async () => {
        const row = new Database(join(stack.dir.path, 'origin.sqlite'), { readonly: true });
        try {
          return ((row.prepare('SELECT max(attempts) FROM search_jobs').pluck().get() as number | null) ?? 0) >= 1;
        } finally {
          row.close();
        }
      }, FRESH_WITHIN_MS * 3);
      blocker.exec('ROLLBACK');
      released = true;
      const started = performance.now();
      // Retries back off (at most 300 ms here); the bound counts from the engine's return.
      await untilFresh(layers(), after, FRESH_WITHIN_MS, started);
      assert.equal(origin.searchOutbox.pendingJobs(), 0);
    } finally {
      if (!released) blocker.exec('ROLLBACK');
      blocker.close();
    }
  });
});
