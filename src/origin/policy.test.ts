import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { groupByMonth, pathnamesForComments, pathnamesForPost } from './policy.js';

const post = (oid: string, pub_date: string) => ({ oid, title: oid, pub_date, categories: [], comments: 0 });

describe('groupByMonth', () => {
  it('groups consecutive posts of one month under YYYY.MM when posts are newest first', () => {
    const groups = groupByMonth([
      post('c', '2026-05-02T00:00:00.000Z'),
      post('b', '2026-05-01T00:00:00.000Z'),
      post('a', '2026-04-30T23:59:59.000Z'),
      post('z', '2025-12-31T00:00:00.000Z'),
    ]);
    assert.deepEqual(
      groups.map((group) => [group.date, group.posts.map((p) => p.oid)]),
      [
        ['2026.05', ['c', 'b']],
        ['2026.04', ['a']],
        ['2025.12', ['z']],
      ],
    );
  });

  it('answers no groups when there are no posts', () => {
    assert.deepEqual(groupByMonth([]), []);
  });
});

describe('pathnamesForPost', () => {
  it('lists the post, the home page, the archive, the feed and the sitemap when a post changes', () => {
    assert.deepEqual(pathnamesForPost('hello'), ['/plog/hello', '/', '/plog', '/feed.xml', '/sitemap.xml']);
  });
});

describe('pathnamesForComments', () => {
  it('lists the post, the home page and the archive but not the feed or the sitemap when its comments change', () => {
    assert.deepEqual(pathnamesForComments('hello'), ['/plog/hello', '/', '/plog']);
  });
});
