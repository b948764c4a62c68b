import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nginxForTests } from '../src/edge/test-support/edge-harness.js';
import { silentLogger } from '../src/log.js';
import { startFront, type RunningFront } from '../src/server/front-command.js';
import { startEdgeAndOrigin, type EdgeAndOrigin } from './support/stack.js';

const { nginx, skip } = nginxForTests();

/** The reader's routes through the real nginx edge: comments posted through it, absolute URLs naming it. */
describe("the reader's site behind the edge", { skip }, () => {
  let layers: EdgeAndOrigin;
  let front: RunningFront | undefined;

  before(async () => {
    layers = await startEdgeAndOrigin(nginx!, { COMMENT_RATE_LIMIT: '1/minute' });
    front = await startFront({ config: layers.config, logger: silentLogger() });
  });
  after(async () => {
    await front?.close();
    await layers?.close();
  });

  const post = (reader: string) =>
    fetch(`${layers.edge.url}/plog/first-look-sqlite/comments`, {
      method: 'POST',
      body: new URLSearchParams({ name: `Reader ${reader}`, comment: 'Through the edge.' }),
      headers: { 'x-forwarded-for': reader },
      redirect: 'manual',
    });

  it('passes comments through the edge and counts the rate limit per reader, not per edge', async () => {
    const first = await post('203.0.113.20');
    assert.equal(first.status, 303);
    assert.equal(first.headers.get('x-cache'), null, 'a POST is never cached by the edge');
    assert.equal((await post('203.0.113.20')).status, 429, 'the same reader again, within the minute');
    assert.equal((await post('203.0.113.21')).status, 303, 'another reader behind the same edge');
  });

  it('names the edge in the canonical link and the feed, which it asked for by its host', async () => {
    const page = await (await fetch(`${layers.edge.url}/plog`)).text();
    assert.match(page, new RegExp(`<link rel="canonical" href="${layers.edge.url}/plog">`));
    const feed = await (await fetch(`${layers.edge.url}/feed.xml`)).text();
    assert.match(feed, new RegExp(`<link rel="self" type="application/atom\\+xml" href="${layers.edge.url}/feed.xml"/>`));
  });
});
