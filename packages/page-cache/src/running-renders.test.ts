import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { outdatedSince, RunningRenders, type PurgeMarks } from './running-renders.js';

const RULES = { dataRoutePrefix: '/_render/data/', purgeQueryVariants: false };

function running(key: string): PurgeMarks {
  return { key, outdatedAt: undefined, purgedKeys: undefined };
}

describe('RunningRenders', () => {
  it('marks the renders whose key a purged pathname matches, data routes included, and no other', () => {
    const renders = new RunningRenders(RULES);
    const [page, data, other] = [running('/a'), running('/_render/data/b1/en/a.json'), running('/b')];
    for (const render of [page, data, other]) renders.add(render);
    renders.markPurged({ pathnames: ['/a'] }, 10);
    assert.deepEqual([page.outdatedAt, data.outdatedAt, other.outdatedAt], [10, 10, undefined]);
  });

  it('keeps the time of the first purge that matched a render', () => {
    const renders = new RunningRenders(RULES);
    const page = running('/a');
    renders.add(page);
    renders.markPurged({ pathnames: ['/a'] }, 10);
    renders.markPurged({ pathnames: ['/a'], keys: ['post:1'] }, 20);
    renders.markPurged({ keys: ['post:1', 'post:2'] }, 30);
    assert.equal(page.outdatedAt, 10);
    assert.deepEqual([...(page.purgedKeys ?? [])], [['post:1', 20], ['post:2', 30]]);
  });

  it('notes purged surrogate keys on every render, as its response names its keys only when it ends', () => {
    const renders = new RunningRenders(RULES);
    const [a, b] = [running('/a'), running('/b')];
    renders.add(a);
    renders.add(b);
    renders.markPurged({ keys: ['post:1'] }, 10);
    assert.deepEqual([a.purgedKeys?.get('post:1'), b.purgedKeys?.get('post:1'), a.outdatedAt], [10, 10, undefined]);
  });

  it('leaves a render alone once it is deleted', () => {
    const renders = new RunningRenders(RULES);
    const page = running('/a');
    renders.add(page);
    renders.delete(page);
    renders.markPurged({ pathnames: ['/a'], keys: ['k'] }, 10);
    assert.deepEqual([renders.size, page.outdatedAt, page.purgedKeys], [0, undefined, undefined]);
  });
});

describe('outdatedSince', () => {
  it('gives the earliest purge among its pathname mark and the keys its response names', () => {
    const render: PurgeMarks = { key: '/a', outdatedAt: 30, purgedKeys: new Map([['k1', 20], ['k2', 10]]) };
    assert.equal(outdatedSince(render, ['k1']), 20);
    assert.equal(outdatedSince(render, ['k1', 'k2']), 10);
    assert.equal(outdatedSince(render, []), 30);
  });

  it('gives undefined when no purge overtook the render or its keys', () => {
    const render: PurgeMarks = { key: '/a', outdatedAt: undefined, purgedKeys: new Map([['other', 5]]) };
    assert.equal(outdatedSince(render, ['k1']), undefined);
    assert.equal(outdatedSince(running('/b'), ['k1']), undefined);
  });
});
