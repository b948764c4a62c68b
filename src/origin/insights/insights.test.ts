import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AccountStore } from '../desk/index.js';
import { DeskClient, TEST_SCRYPT } from '../desk/test-support/desk-client.js';
import { originAppForSuite } from '../test-support/origin-app.js';
import { normaliseQuery, type InsightEntry } from './policy.js';

const SECRET = 'insights-test-secret-0123456789';
const TOKEN = 'insights-admin-token';
const DAY = 86_400_000;

const entry = (q: string, counts: Partial<InsightEntry> = {}): InsightEntry => ({
  day: '2026-11-27', q, searches: 1, no_results: 0, clicks: 0, results: 3, opens: {}, ...counts,
});

describe('search insights on the origin', () => {
  let clock = Date.parse('2026-11-27T12:00:00Z');
  const origin = originAppForSuite({
    adminToken: TOKEN,
    now: () => new Date(clock),
    searchInsights: { secret: SECRET, maxQueriesPerDay: 50, retentionDays: 35, popularMinSearches: 2 },
    desk: { scrypt: TEST_SCRYPT },
  });
  const flush = (body: unknown, secret = SECRET) =>
    fetch(`${origin.base}/api/v1/search-insights`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const report = async (days = 7) =>
    (await (await fetch(`${origin.base}/api/v1/search-insights?days=${days}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
      totals: { searches: number; clicks: number };
      top: { query: string; searches: number; clicks: number; top_opened: string | null }[];
      no_results: { query: string; no_results: number }[];
    };
  const rows = () => origin.db.prepare(`SELECT count(*) FROM search_insights`).pluck().get() as number;

  it('normalises a query to NFKC lower case, trimmed and capped when it is counted', () => {
    assert.equal(normaliseQuery('  ＲＥＡＣＴ\t Hooks  '), 'react hooks');
    fc.assert(fc.property(fc.string({ maxLength: 400 }), (text) => {
      const normal = normaliseQuery(text);
      return [...normal].length <= 100 && normal === normaliseQuery(normal) && normal === normal.trim();
    }));
  });

  it('adds the fronts’ counts together and reports the top queries and click-through when they flush', async () => {
    assert.equal((await flush({ entries: [entry('React', { searches: 3, clicks: 2, opens: { '/plog/react': 2 } }), entry('vue')] })).status, 200);
    assert.equal((await flush({ entries: [entry('react', { searches: 2, clicks: 1, opens: { '/plog/react': 1, '/plog/hooks': 1 } })] })).status, 200);
    const answer = await report();
    assert.deepEqual(answer.top[0], { query: 'react', searches: 5, no_results: 0, clicks: 3, top_opened: '/plog/react' });
    assert.equal(answer.totals.searches, 6);
  });

  it('refuses a flush without PURGE_SECRET, with a wrong one, or with a malformed body', async () => {
    const none = await fetch(`${origin.base}/api/v1/search-insights`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"entries":[]}' });
    assert.equal(none.status, 401);
    assert.equal((await flush({ entries: [] }, 'wrong-secret-0123456789')).status, 403);
    const before = rows();
    for (const body of [
      null, [], { entries: 'x' }, { entries: [null] }, { entries: [entry('')] }, { entries: [entry('a\u0000b')] },
      { entries: [entry('x', { day: '2026-13-45' })] }, { entries: [entry('x', { searches: -1 })] }, { entries: [entry('x', { searches: 1.5 })] },
      { entries: [entry('x', { opens: { '//evil.example/': 1 } })] }, { entries: [entry('x', { opens: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`/p${i}`, 1])) })] },
      { entries: Array.from({ length: 1_001 }, (_, i) => entry(`q${i}`)) },
    ]) {
      const response = await flush(body);
      assert.equal(response.status, 400, JSON.stringify(body).slice(0, 100));
    }
    assert.equal(rows(), before);
    assert.equal((await fetch(`${origin.base}/api/v1/search-insights?days=8`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 400);
    assert.equal((await fetch(`${origin.base}/api/v1/search-insights`)).status, 401);
  });

  it('keeps no more distinct queries a day than its bound when flooded with distinct queries', async () => {
    for (let batch = 0; batch < 3; batch++) {
      await flush({ entries: Array.from({ length: 1_000 }, (_, i) => entry(`flood ${batch} ${i}`)) });
    }
    assert.equal(origin.db.prepare(`SELECT count(*) FROM search_insights WHERE day = '2026-11-27'`).pluck().get(), 50);
    // A known query still counts on a full day.
    await flush({ entries: [entry('react')] });
    assert.equal((await report()).top[0]?.searches, 6);
  });

  it('shows a zero-result query on the desk page and switches between 7 and 30 days when an editor opens it', async () => {
    await flush({ entries: [entry('rust async', { searches: 4, no_results: 4, results: 0, day: '2026-11-10' })] });
    await new AccountStore(origin.db, TEST_SCRYPT).addUser('editor', 'a long enough pass phrase');
    const desk = new DeskClient(origin.base);
    await desk.login('editor', 'a long enough pass phrase');
    const month = await (await desk.request('/admin/insights?days=30')).text();
    assert.match(month, /<h2>Queries with no results<\/h2>/);
    assert.match(month, /<td>rust async<\/td><td class="num">4<\/td>/);
    assert.match(month, /aria-current="page">Last 30 days/);
    const week = await (await desk.request('/admin/insights?days=7')).text();
    assert.ok(!week.includes('rust async'), 'a query of 17 days ago is not in the last 7 days');
    assert.equal((await desk.request('/admin/insights?days=<script>')).status, 400);
    assert.equal((await new DeskClient(origin.base).request('/admin/insights')).status, 303);
  });

  it('offers only queries searched often with results as popular, cacheable, when a front asks', async () => {
    const answer = await fetch(`${origin.base}/api/v1/search-insights/popular?limit=5`);
    assert.equal(answer.headers.get('cache-control'), 'public, max-age=300');
    const { queries } = (await answer.json()) as { queries: string[] };
    assert.equal(queries[0], 'react');
    assert.ok(!queries.includes('vue') && !queries.includes('rust async'), 'one search, or none with results, is not enough');
    for (const limit of ['0', '21', 'x', '1e1']) assert.equal((await fetch(`${origin.base}/api/v1/search-insights/popular?limit=${limit}`)).status, 400);
  });

  it('forgets days past retention when the report is read, with no counts arriving', async () => {
    const kept = origin.db.prepare(`SELECT count(*) FROM search_insights`).pluck();
    assert.ok((kept.get() as number) > 0);
    clock += 36 * DAY;
    await report(30);
    assert.equal(kept.get(), 0);
    clock -= 36 * DAY;
  });

  it('deletes days past retention and refuses days outside it when counts arrive', async () => {
    clock += 40 * DAY;
    await flush({ entries: [entry('late', { day: new Date(clock).toISOString().slice(0, 10) }), entry('ancient', { day: '2020-01-01' }), entry('future', { day: '2099-01-01' })] });
    const days = origin.db.prepare(`SELECT DISTINCT query FROM search_insights`).pluck().all();
    assert.deepEqual(days, ['late']);
    assert.equal(origin.db.prepare(`SELECT count(*) FROM search_insight_opens`).pluck().get(), 0);
  });
});
