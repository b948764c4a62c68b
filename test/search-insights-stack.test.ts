import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminRequest, eventually, startStack, type Stack } from './support/stack.js';

describe('search insights through a real front and origin', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(() => stack?.close());

  const report = (body: unknown) =>
    fetch(`${stack.frontUrl}/api/v1/search/insights`, { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: JSON.stringify(body) });
  const figures = async () =>
    (await (await adminRequest(stack, 'GET', '/api/v1/search-insights?days=7')).json()) as {
      top: { query: string; searches: number; clicks: number }[];
      no_results: { query: string; no_results: number }[];
    };

  it('flushes the front’s counts to the origin with PURGE_SECRET, and at the front’s stop, when readers report searches', async () => {
    assert.equal((await report({ q: 'Caching', results: 2, opened: '/plog/cache' })).status, 204);
    assert.equal((await report({ q: 'caching ', results: 2 })).status, 204);
    assert.equal((await report({ q: 'kubernetes', results: 0 })).status, 204);
    // The front flushes every 5 s.
    await eventually('the counts reach the origin', async () => (await figures()).top.length === 2, 8_000);
    const first = await figures();
    assert.deepEqual(first.top.map(({ query, searches, clicks }) => ({ query, searches, clicks })), [
      { query: 'caching', searches: 2, clicks: 1 },
      { query: 'kubernetes', searches: 1, clicks: 0 },
    ]);
    assert.deepEqual(first.no_results.map(({ query, no_results }) => ({ query, no_results })), [{ query: 'kubernetes', no_results: 1 }]);
    // What a front holds when it stops is flushed before it goes.
    assert.equal((await report({ q: 'last words', results: 1 })).status, 204);
    await stack.stopFront();
    assert.ok((await figures()).top.some((row) => row.query === 'last words'));
    await stack.startFront();
  });
});
