import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { get, nginxForTests } from '../src/edge/test-support/edge-harness.js';
import type { RunningFront } from '../src/server/front-command.js';
import { adminAt, eventually, startThreeLayers, type EdgeAndOrigin } from './support/stack.js';

const { nginx, skip } = nginxForTests();

/** The freshness bound of issue 18, which a rename keeps too. */
const WITHIN_MS = 3_000;

/**
 * A renamed post through every layer: the real origin (its slug history, purge and search outboxes), a real front and
 * the real nginx edge. Old links — in a reader's bookmarks, a feed reader, a client's open tab — keep working.
 */
describe('a renamed post through the origin, the front and the edge', { skip }, () => {
  let stack: EdgeAndOrigin;
  let front: RunningFront;

  const admin = (method: string, path: string, body?: unknown) => adminAt(stack.origin.url, method, path, body);
  const dataRoute = (oid: string) => `/_render/data/${front.buildId}/en-US/plog/${oid}.json`;
  const layers = () => [
    ['front', front.url],
    ['edge', stack.edge.url],
  ] as const;

  /** Whether `path` answers 301 to `location` at both layers. */
  const movesEverywhere = async (path: string, location: string) => {
    for (const [, base] of layers()) {
      const answer = await get(`${base}${path}`);
      if (answer.status !== 301 || answer.headers.location !== location) return false;
    }
    return true;
  };
  const servesEverywhere = async (path: string, text: string) => {
    for (const [, base] of layers()) {
      const answer = await get(`${base}${path}`);
      if (answer.status !== 200 || !answer.body.includes(text)) return false;
    }
    return true;
  };
  const searchFinds = async (word: string, url: string) => {
    const answer = await get(`${front.url}/api/v1/search?q=${encodeURIComponent(word)}&size=100`);
    return answer.status === 200 && (JSON.parse(answer.body) as { documents: { url: string }[] }).documents.some((document) => document.url === url);
  };

  before(async () => {
    ({ stack, front } = await startThreeLayers(nginx!, { SEARCH_RATE_LIMIT: '100000/minute' }));
  });

  after(async () => {
    await front?.close();
    await stack?.close();
  });

  it('answers the old page and data route 301 at the front and the edge within the bound, the new ones 200, and moves the feed and search', async () => {
    const body = { title: 'Pangolin field notes', format: 'markdown', body: '# Scales\n\nThe pangolin rolls up.', categories: ['Web'], pub_date: '2026-11-20' };
    assert.equal((await admin('PUT', '/api/v1/plog/pangolin-notes', body)).status, 201);
    await eventually('the post on every layer', () => servesEverywhere('/plog/pangolin-notes', 'The pangolin rolls up'), WITHIN_MS);
    await eventually('the post in search', () => searchFinds('pangolin', '/plog/pangolin-notes'), 10_000);
    // Cached at both layers before the rename: what the rename must purge.
    for (const path of ['/plog/pangolin-notes', dataRoute('pangolin-notes'), '/feed.xml']) {
      for (const [, base] of layers()) await get(`${base}${path}`);
    }
    assert.equal((await get(`${front.url}/plog/pangolin-notes`)).headers['x-middleware-cache'], 'hit');
    assert.equal((await get(`${stack.edge.url}/plog/pangolin-notes`)).headers['x-cache'], 'HIT');
    assert.equal((await get(`${front.url}${dataRoute('pangolin-notes')}`)).headers['x-middleware-cache'], 'hit');

    const started = performance.now();
    const renamed = await admin('POST', '/api/v1/plog/pangolin-notes/rename', { to: 'pangolins' });
    assert.equal(renamed.status, 200);
    await eventually('the old page moved', () => movesEverywhere('/plog/pangolin-notes', '/plog/pangolins'), WITHIN_MS);
    assert.equal((await get(`${stack.edge.url}/plog/pangolin-notes`)).headers['x-cache'], 'HIT', "the edge's refresh stored the 301 in place of the page");
    await eventually('the old data route moved', () => movesEverywhere(dataRoute('pangolin-notes'), dataRoute('pangolins')), WITHIN_MS);
    await eventually('the new page served', () => servesEverywhere('/plog/pangolins', 'The pangolin rolls up'), WITHIN_MS);
    await eventually(
      'the feed at the new address',
      async () => {
        for (const [, base] of layers()) {
          const feed = await get(`${base}/feed.xml`);
          if (!feed.body.includes('/plog/pangolins"') || feed.body.includes('/plog/pangolin-notes')) return false;
        }
        return true;
      },
      WITHIN_MS,
    );
    assert.ok(performance.now() - started < WITHIN_MS + 500, 'every surface within the bound');
    await eventually('search at the new address', () => searchFinds('pangolin', '/plog/pangolins'), 10_000);
    assert.equal(await searchFinds('pangolin', '/plog/pangolin-notes'), false);

    // A client following the old data route (a reader's open tab) reads the post at its new address.
    const followed = await fetch(`${stack.edge.url}${dataRoute('pangolin-notes')}`);
    assert.equal(followed.status, 200);
    assert.equal(((await followed.json()) as { post: { oid: string } }).post.oid, 'pangolins');
  });

  it('serves the old address again, and moves the new one, when the post is renamed back', async () => {
    assert.equal((await admin('POST', '/api/v1/plog/pangolins/rename', { to: 'pangolin-notes' })).status, 200);
    await eventually('the old address live again', () => servesEverywhere('/plog/pangolin-notes', 'The pangolin rolls up'), WITHIN_MS);
    await eventually('the second address moved', () => movesEverywhere('/plog/pangolins', '/plog/pangolin-notes'), WITHIN_MS);
  });
});
