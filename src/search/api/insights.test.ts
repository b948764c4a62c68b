import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { isAppError } from '../../errors.js';
import { installErrorMapper } from '../../http/index.js';
import { silentLogger } from '../../log.js';
import { originAppForSuite } from '../../origin/test-support/origin-app.js';
import { InsightsCounter, parseSearchIntent, searchInsightsRoutes, type SearchIntent } from './insights.js';

const SECRET = 'front-insights-secret-0123456789';
const intent = (q: string, more: Partial<SearchIntent> = {}): SearchIntent => ({ q, results: 2, opened: null, repeat: false, ...more });
const NOW = Date.parse('2026-11-27T12:00:00Z');

describe('search insight reports on the front', () => {
  it('reads a report sent as text or JSON and refuses any other shape with a clear 400', () => {
    assert.deepEqual(parseSearchIntent('{"q":"Flexbox","results":3,"opened":"/en-US/docs/flexbox"}'), { q: 'Flexbox', results: 3, opened: '/en-US/docs/flexbox', repeat: false });
    assert.deepEqual(parseSearchIntent({ q: 'x', results: 0, repeat: true }), { q: 'x', results: 0, opened: null, repeat: true });
    for (const bad of ['nope', '[]', 'null', { q: '', results: 1 }, { q: '   ', results: 1 }, { q: 'x' }, { q: 'x', results: -1 }, { q: 'x', results: 1, opened: 'https://evil.example/' },
      { q: 'x', results: 1, opened: '//evil.example/' }, { q: 'x', results: 1, repeat: 'yes' }, { q: 'x'.repeat(401), results: 1 },
      { q: 'a\u0000b', results: 1 }, { q: '\ud800', results: 1 }, { q: 'a\u0085b', results: 1 }]) {
      assert.throws(() => parseSearchIntent(bad), (error: unknown) => isAppError(error) && error.status === 400, JSON.stringify(bad));
    }
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), fc.string()), (value) => {
      try {
        parseSearchIntent(value);
      } catch (error) {
        return isAppError(error) && error.status === 400;
      }
      return true;
    }));
  });

  it('counts one search per report, a repeat as a click only, and bounds the opened results kept', () => {
    const counter = new InsightsCounter(10);
    counter.record(intent('Flexbox'), NOW);
    counter.record(intent('ＦＬＥＸＢＯＸ ', { results: 0 }), NOW);
    counter.record(intent('flexbox', { opened: '/a', repeat: true }), NOW);
    for (let i = 0; i < 8; i++) counter.record(intent('flexbox', { opened: `/r${i}` }), NOW);
    const [entry] = counter.take();
    assert.equal(entry?.q, 'flexbox');
    assert.equal(entry?.searches, 10);
    assert.equal(entry?.no_results, 1);
    assert.equal(entry?.clicks, 9);
    assert.equal(Object.keys(entry?.opens ?? {}).length, 5);
    assert.equal(counter.size, 0);
  });

  it('holds no more counters than its bound when flooded with distinct queries', () => {
    const counter = new InsightsCounter(100);
    for (let i = 0; i < 50_000; i++) counter.record(intent(`query ${i}`), NOW);
    assert.equal(counter.size, 100);
    assert.equal(counter.overflow, 49_900);
    assert.equal(counter.take().length, 100);
  });

  describe('with a real origin', () => {
    let clock = NOW;
    const origin = originAppForSuite({ now: () => new Date(clock), searchInsights: { secret: SECRET, popularMinSearches: 1 } });
    let front: FastifyInstance;
    let base = '';
    before(async () => {
      const logger = silentLogger();
      front = Fastify({ logger: false });
      installErrorMapper(front, logger);
      await front.register(searchInsightsRoutes({ originUrl: origin.base, secret: SECRET, logger, flushMs: 50, popularTtlMs: 60_000, rateLimit: { max: 20, windowMs: 60_000 }, now: () => clock }));
      base = await front.listen({ host: '127.0.0.1', port: 0 });
    });
    after(() => front.close());
    const report = (body: unknown) => fetch(`${base}/api/v1/search/insights`, { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: JSON.stringify(body) });
    const stored = () => origin.db.prepare(`SELECT query, searches, no_results, clicks FROM search_insights ORDER BY query`).all();

    it('flushes counts to the origin within the flush interval when reports arrive', async () => {
      const answer = await report({ q: 'Grid layout', results: 4, opened: '/en-US/docs/grid' });
      assert.equal(answer.status, 204);
      assert.equal(answer.headers.get('set-cookie'), null);
      assert.equal((await report({ q: 'qwertyzz', results: 0 })).status, 204);
      const deadline = Date.now() + 3_000;
      while (stored().length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(stored(), [
        { query: 'grid layout', searches: 1, no_results: 0, clicks: 1 },
        { query: 'qwertyzz', searches: 1, no_results: 1, clicks: 0 },
      ]);
      assert.equal(origin.db.prepare(`SELECT url FROM search_insight_opens`).pluck().get(), '/en-US/docs/grid');
    });

    it('serves the popular queries from the origin and keeps them for their lifetime when asked', async () => {
      const first = await fetch(`${base}/api/v1/search/popular`);
      assert.deepEqual(await first.json(), { queries: ['grid layout'] });
      assert.equal(first.headers.get('cache-control'), 'public, max-age=60');
      origin.db.exec(`DELETE FROM search_insights`);
      assert.deepEqual(await (await fetch(`${base}/api/v1/search/popular`)).json(), { queries: ['grid layout'] });
      clock += 61_000;
      assert.deepEqual(await (await fetch(`${base}/api/v1/search/popular`)).json(), { queries: [] });
    });

    it('sends more counters than one flush may carry in several flushes when a front holds many', async () => {
      const logger = silentLogger();
      const big = Fastify({ logger: false });
      installErrorMapper(big, logger);
      await big.register(searchInsightsRoutes({ originUrl: origin.base, secret: SECRET, logger, flushMs: 60_000, maxQueries: 1_500, rateLimit: { max: 10_000, windowMs: 60_000 }, now: () => clock }));
      await big.ready();
      for (let i = 0; i < 1_500; i++) {
        const answer = await big.inject({ method: 'POST', url: '/api/v1/search/insights', headers: { 'content-type': 'text/plain' }, payload: JSON.stringify({ q: `chunk ${i}`, results: 1 }) });
        assert.equal(answer.statusCode, 204);
      }
      await big.close();
      assert.equal(origin.db.prepare(`SELECT count(*) FROM search_insights WHERE query LIKE 'chunk %'`).pluck().get(), 1_500);
    });

    it('refuses a malformed report with 400 and limits reports per address', async () => {
      const bad = await fetch(`${base}/api/v1/search/insights`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'not json' });
      assert.equal(bad.status, 400);
      const big = await fetch(`${base}/api/v1/search/insights`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(5_000) });
      assert.equal(big.status, 413);
      let limited = 0;
      for (let i = 0; i < 25; i++) if ((await report({ q: `q${i}`, results: 1 })).status === 429) limited++;
      assert.ok(limited > 0);
    });
  });
});
