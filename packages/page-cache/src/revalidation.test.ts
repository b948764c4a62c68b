import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { createEntry, type CacheEntry } from './entry.js';
import type { RenderDone } from './miss.js';
import { detachedCopy, Revalidator } from './revalidation.js';
import { Revalidations } from './soft-purge.js';
import { fakeRequest } from './test-support/fake-http.js';

describe('detachedCopy', () => {
  it('copies a reader request as an ended GET of the same URL without its conditional headers', async () => {
    const req = fakeRequest({ accept: 'text/html', 'if-none-match': '"x"', range: 'bytes=0-1' }, 'HEAD', '/a?b=1');
    req.rawHeaders = ['Accept', 'text/html', 'If-None-Match', '"x"', 'Range', 'bytes=0-1'];
    const copy = detachedCopy(req, '/mount/a?b=1');
    assert.deepEqual([copy.method, copy.url, (copy as { originalUrl?: string }).originalUrl], ['GET', '/a?b=1', '/mount/a?b=1']);
    assert.deepEqual(copy.headers, { accept: 'text/html' });
    assert.deepEqual(copy.rawHeaders, ['Accept', 'text/html']);
    copy.resume();
    await once(copy, 'end');
  });
});

describe('Revalidator', () => {
  function revalidatorWith() {
    const started: Array<{ key: string; onDone: RenderDone }> = [];
    const dropped: Array<[string, CacheEntry]> = [];
    const rendered: string[] = [];
    const revalidator = new Revalidator(
      new Revalidations(1_000),
      { renderInBackground: (_req, _res, next, key, onDone) => void (started.push({ key, onDone }), next()) },
      { drop: (key, entry) => void dropped.push([key, entry]) },
      (req) => void rendered.push(req.method ?? ''),
    );
    return { revalidator, started, dropped, rendered };
  }
  const stale = createEntry({ 'content-type': 'text/html' }, Buffer.from('<p>old</p>'));

  it('renders a stale entry once in the background while its revalidation is under way', () => {
    const { revalidator, started, rendered } = revalidatorWith();
    revalidator.start(fakeRequest({}, 'HEAD', '/a'), '/a', '/a', '/a', stale, 0);
    revalidator.start(fakeRequest({}, 'GET', '/a'), '/a', '/a', '/a', stale, 10);
    assert.deepEqual([started.map((run) => run.key), rendered], [['/a'], ['GET']]);
  });

  it('drops the stale entry when its render stored nothing, so the next request renders', () => {
    const { revalidator, started, dropped } = revalidatorWith();
    revalidator.start(fakeRequest(), '/a', '/a', '/a', stale, 0);
    started[0]!.onDone(undefined, false);
    assert.deepEqual(dropped, [['/a', stale]]);
    revalidator.start(fakeRequest(), '/a', '/a', '/a', stale, 5);
    assert.equal(started.length, 2);
  });

  it('keeps the stale entry when a purge overtook its render', () => {
    const { revalidator, started, dropped } = revalidatorWith();
    revalidator.start(fakeRequest(), '/a', '/a', '/a', stale, 0);
    started[0]!.onDone(undefined, true);
    assert.deepEqual(dropped, []);
  });
});
