import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { REQUEST_BOUNDS } from '../http/index.js';
import { edgePaths } from './nginx-config.js';
import { OPERATOR_PATHS } from './nginx-public.js';
import { CdnPurgeError, purgeCdn } from './purge-client.js';
import {
  TEST_REFRESH_SECRET,
  edgeStackPerTest,
  get,
  nginxForTests,
  routedSpellings,
  startEdge,
  startEdgeStack,
  stopEdgeStack,
  type EdgeStack,
  type FakeFront,
  type RunningEdge,
} from './test-support/edge-harness.js';

const { nginx, skip } = nginxForTests();

/** `count` GETs of `url`, `connections` at a time; their statuses. */
async function flood(url: string, count: number, connections: number): Promise<number[]> {
  const statuses: number[] = [];
  let left = count;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (left-- > 0) statuses.push((await get(url)).status);
    }),
  );
  return statuses;
}

describe('the edge facing the public, against the real nginx', { skip }, () => {
  let front: FakeFront;
  let edge: RunningEdge;
  edgeStackPerTest(nginx!, 'sitestack-edge-public-', (stack) => ({ front, edge } = stack));

  it('answers 404 itself to every operator route in every spelling, whatever token is sent, when asked by anyone', async () => {
    const answers: string[] = [];
    for (const path of OPERATOR_PATHS) {
      for (const spelling of routedSpellings(path)) {
        const tokens: Record<string, string>[] = [{}, { authorization: 'Bearer s3cret' }, { 'secret-header': TEST_REFRESH_SECRET, authorization: 'Bearer s3cret' }];
        for (const headers of tokens) {
          const answer = await get(`${edge.url}${spelling}`, headers);
          if (answer.status !== 404) answers.push(`${spelling} ${JSON.stringify(headers)} → ${answer.status}`);
        }
      }
    }
    assert.deepEqual(answers, [], 'every one 404');
    assert.deepEqual([...front.calls.keys()], [], 'none reached the front');
  });

  it('answers 404 to any spelling of an operator path a generator forms from case, escapes, dot segments and slashes', async () => {
    const char = (c: string) =>
      fc.oneof(
        fc.constant(c),
        fc.constant(c.toUpperCase()),
        fc.boolean().map((upper) => {
          const hex = c.charCodeAt(0).toString(16);
          return `%${upper ? hex.toUpperCase() : hex}`;
        }),
      );
    const spelling = fc
      .tuple(
        fc.constantFrom(...OPERATOR_PATHS),
        fc.constantFrom('/', '//', '/./', '/x/../', '/x/%2e%2E/', '/%2e/'),
        fc.constantFrom('', '/', '/stats', '?a=1', '?', '#x'),
      )
      .chain(([path, lead, tail]) => fc.tuple(...[...path.slice(1)].map(char)).map((chars) => `${lead}${chars.join('')}${tail}`));
    await fc.assert(
      fc.asyncProperty(spelling, async (path) => {
        assert.equal((await get(`${edge.url}${path}`, { authorization: 'Bearer s3cret' })).status, 404, path);
      }),
      { numRuns: 150 },
    );
    assert.deepEqual([...front.calls.keys()], [], 'none reached the front');
  });

  it('refreshes a cached page for the secret only, and serves anyone else sending secret-header from the cache', async () => {
    await get(`${edge.url}/plog/hello`);
    front.version = 2;
    const secretLike = ['true', '1', TEST_REFRESH_SECRET.toUpperCase(), `${TEST_REFRESH_SECRET}x`, TEST_REFRESH_SECRET.slice(0, -1), `${TEST_REFRESH_SECRET}, x`];
    for (const value of secretLike) {
      const answer = await get(`${edge.url}/plog/hello`, { 'secret-header': value });
      assert.equal(answer.headers['x-cache'], 'HIT', value);
      assert.match(answer.body, /v1/, value);
    }
    assert.equal(front.callsTo('/plog/hello'), 1, 'no stranger reached the front');
    const refreshed = await get(`${edge.url}/plog/hello`, { 'secret-header': TEST_REFRESH_SECRET });
    assert.equal(refreshed.headers['x-cache'], 'BYPASS');
    assert.equal(front.lastHeaders.get('/plog/hello')?.['secret-header'], undefined, 'the secret is not passed on to the front');
    const after = await get(`${edge.url}/plog/hello`);
    assert.equal(after.headers['x-cache'], 'HIT');
    assert.match(after.body, /v2/);
  });

  it('stores the 404 of a deleted page for the secret only, and keeps serving the page to a wrong secret', async () => {
    await get(`${edge.url}/plog/deleted`);
    front.gone.set('/plog/deleted', 404);
    const wrong = await get(`${edge.url}/plog/deleted`, { 'secret-header': 'true' });
    assert.equal(wrong.status, 200);
    assert.equal(wrong.headers['x-cache'], 'HIT');
    assert.deepEqual(await purgeCdn(['/plog/deleted'], { baseUrl: edge.url, secret: TEST_REFRESH_SECRET }), [`${edge.url}/plog/deleted`]);
    const after = await get(`${edge.url}/plog/deleted`);
    assert.equal(after.status, 404);
    assert.equal(after.headers['x-cache'], 'HIT');
  });

  it('never stores an answer carrying a rate-limit header, so a second client never sees the first one\'s count', async () => {
    const first = await get(`${edge.url}/api/limited`);
    const second = await get(`${edge.url}/api/limited`);
    assert.equal(first.headers['ratelimit-remaining'], '99');
    assert.equal(second.headers['ratelimit-remaining'], '98');
    assert.deepEqual([first.headers['x-cache'], second.headers['x-cache']], ['MISS', 'MISS']);
    assert.equal((await get(`${edge.url}/api/cached`)).headers['x-cache'], 'MISS');
    assert.equal((await get(`${edge.url}/api/cached`)).headers['x-cache'], 'HIT', 'an answer without one is still kept');
  });

  it('caches a long allowed URL, refuses longer ones with 414 and 431, and writes nothing to its log when flooded', async () => {
    const allowed = `/plog?q=${'a'.repeat(3500)}`;
    const tooLong = `/plog?q=${'a'.repeat(10_000)}`;
    assert.equal((await get(`${edge.url}${allowed}`)).headers['x-cache'], 'MISS');
    const again = await get(`${edge.url}${allowed}`);
    assert.deepEqual([again.status, again.headers['x-cache']], [200, 'HIT']);
    const longest = `/plog?q=${'b'.repeat(REQUEST_BOUNDS.maxUrlBytes - 40)}`;
    assert.equal((await get(`${edge.url}${longest}`)).status, 200, 'a URL just within the bound');
    assert.equal((await get(`${edge.url}${longest}`)).headers['x-cache'], 'HIT');

    assert.deepEqual(new Set(await flood(`${edge.url}${allowed}`, 300, 16)), new Set([200]));
    assert.deepEqual(new Set(await flood(`${edge.url}${tooLong}`, 300, 16)), new Set([414]));
    assert.equal((await get(`${edge.url}/plog`, { 'x-big': 'b'.repeat(10_000) })).status, 431);
    const manyHeaders = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`x-big-${i}`, 'b'.repeat(7_000)]));
    assert.equal((await get(`${edge.url}/plog`, manyHeaders)).status, 431);
    assert.equal((await get(`${edge.url}/plog`, { host: `${'h'.repeat(400)}.example` })).status, 431);
    assert.equal(front.callsTo(allowed), 1);
    assert.ok(edge.output().length < 512, `the edge's log stays small: ${edge.output().length} bytes\n${edge.output().slice(0, 2000)}`);
  });

  it('keeps nginx.conf, which holds the secret, readable by its owner only', () => {
    assert.equal(statSync(edgePaths(edge.edgeDir).config).mode & 0o777, 0o600);
  });
});

describe('an edge without a refresh secret, against the real nginx', { skip }, () => {
  let stack: EdgeStack;
  let edge: RunningEdge;

  beforeEach(async () => {
    stack = await startEdgeStack(nginx!, 'sitestack-edge-no-secret-');
    await stack.edge.stop();
    edge = await startEdge(nginx!, join(stack.dir.path, 'edge-without-secret'), stack.front.port, { refreshSecret: undefined });
  });

  afterEach(async () => {
    await edge.stop();
    await stopEdgeStack(stack);
  });

  it('takes every secret-header as an ordinary request, and purgeCdn says the secret was not taken', async () => {
    await get(`${edge.url}/plog/hello`);
    for (const value of ['true', TEST_REFRESH_SECRET, '']) {
      assert.equal((await get(`${edge.url}/plog/hello`, { 'secret-header': value })).headers['x-cache'], 'HIT', value);
    }
    await assert.rejects(purgeCdn(['/plog/hello'], { baseUrl: edge.url, secret: TEST_REFRESH_SECRET }), (error: unknown) => {
      assert.ok(error instanceof CdnPurgeError);
      assert.match(error.failures[0]?.reason ?? '', /ordinary request \(X-Cache: MISS\).*EDGE_REFRESH_SECRET/);
      return true;
    });
    assert.equal(stack.front.callsTo('/plog/hello'), 2, 'the purge\'s first coding was an ordinary miss, then it stopped');
  });
});
