import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OPERATOR_PATHS } from '../src/edge/nginx-public.js';
import { get, nginxForTests, routedSpellings, type RunningEdge } from '../src/edge/test-support/edge-harness.js';
import { silentLogger } from '../src/log.js';
import { SqliteEngine, sqlitePathFromUrl } from '../src/search/engines/sqlite/engine.js';
import { indexedDocument } from '../src/search/test-support/search-server.js';
import { startFront, type RunningFront } from '../src/server/front-command.js';
import { PURGE_SECRET, startEdgeAndOrigin, type EdgeAndOrigin } from './support/stack.js';

const { nginx, skip } = nginxForTests();

/** A request to `url` as the operator makes it on the front: each route with the method and body it takes. */
function operatorRequest(path: string): { method: string; headers: Record<string, string>; body?: string } {
  const headers = { authorization: `Bearer ${PURGE_SECRET}` };
  if (path === '/__purge__') return { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ pathnames: ['/plog'] }) };
  return { method: 'GET', headers };
}

/** The real edge in front of the real front (with search) and origin: what strangers reach, and what they do not. */
describe('the edge facing the public, in front of the real front', { skip }, () => {
  let layers: EdgeAndOrigin;
  let edge: RunningEdge;
  let front: RunningFront | undefined;

  before(async () => {
    layers = await startEdgeAndOrigin(nginx!, { SEARCH_RATE_LIMIT: '2/minute' });
    edge = layers.edge;
    const engine = new SqliteEngine({ path: sqlitePathFromUrl(layers.config.searchUrl) });
    const index = `${layers.config.searchPrefix}_20260101000000`;
    await engine.createIndex(index);
    await engine.bulk(index, [indexedDocument({ id: 'flexbox', title: 'Flexbox', body: 'Flexbox aligns items along one axis.' })]);
    await engine.refresh(index);
    await engine.updateAliases([{ add: { index, alias: layers.config.searchPrefix } }]);
    await engine.close();
    front = await startFront({ config: layers.config, logger: silentLogger() });
  });

  after(async () => {
    await front?.close();
    await layers?.close();
  });

  it('refuses through the edge every operator route the front serves its operator, with the right token, in every spelling', async () => {
    for (const path of ['/__purge__', '/__cache__/stats', '/metrics', '/healthz', '/readyz']) {
      const { method, headers, body } = operatorRequest(path);
      const direct = await fetch(`${front!.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
      await direct.arrayBuffer();
      assert.equal(direct.status, 200, `the operator reaches ${path} on the front`);
      const prefix = OPERATOR_PATHS.find((operatorPath) => path.startsWith(operatorPath)) ?? path;
      for (const spelling of [path, ...routedSpellings(prefix)]) {
        const viaEdge = await fetch(`${edge.url}${spelling}`, { method, headers, ...(body === undefined ? {} : { body }) });
        const text = await viaEdge.text();
        assert.equal(viaEdge.status, 404, `${method} ${spelling} through the edge`);
        assert.doesNotMatch(text, /sitestack_|purged|entries/, spelling);
      }
    }
  });

  it("never shows a second client the first one's rate-limit count, and never keeps a 429", async () => {
    const url = `${edge.url}/api/v1/search?q=flexbox`;
    const first = await get(url, { 'x-forwarded-for': '198.51.100.1' });
    const second = await get(url, { 'x-forwarded-for': '198.51.100.2' });
    assert.deepEqual([first.status, second.status], [200, 200]);
    assert.deepEqual([first.headers['x-cache'], second.headers['x-cache']], ['MISS', 'HIT'], 'the shared answer is still kept');
    for (const answer of [first, second]) {
      assert.equal(answer.headers['ratelimit-remaining'], undefined);
      assert.equal(answer.headers['retry-after'], undefined);
    }

    const spender = { 'x-forwarded-for': '198.51.100.3' };
    for (const q of ['axis', 'items']) assert.equal((await get(`${edge.url}/api/v1/search?q=${q}`, spender)).status, 200);
    const limited = await get(`${edge.url}/api/v1/search?q=aligns`, spender);
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['ratelimit-remaining'], '0');
    assert.ok(Number(limited.headers['retry-after']) > 0);
    const next = await get(`${edge.url}/api/v1/search?q=aligns`, { 'x-forwarded-for': '198.51.100.4' });
    assert.equal(next.status, 200, "another client is not answered with the first one's 429");
    assert.equal(next.headers['retry-after'], undefined);
  });
});
