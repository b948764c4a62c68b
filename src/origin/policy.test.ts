import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { edgeUrlOfCacheKey, groupByMonth, purgeForComments, purgeForPost } from './policy.js';

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

describe('purgeForPost', () => {
  it('names the post, the home page, the archive, the feed and the sitemap by pathname and by key when a post changes', () => {
    assert.deepEqual(purgeForPost('hello', []), {
      pathnames: ['/plog/hello', '/', '/plog', '/feed.xml', '/sitemap.xml'],
      keys: ['post:hello', 'listing:home', 'listing:archive', 'listing:feed', 'listing:sitemap'],
    });
  });

  it('adds the page of every category the post had or has, each once and encoded, when given both', () => {
    const { pathnames, keys } = purgeForPost('hello', ['Web', 'C#', 'Web', 'Café au lait']);
    assert.deepEqual(pathnames.slice(5), ['/plog/category/Web', '/plog/category/C%23', '/plog/category/Caf%C3%A9%20au%20lait']);
    assert.deepEqual(keys.slice(5), ['category:Web', 'category:C%23', 'category:Caf%C3%A9%20au%20lait']);
  });
});

describe('purgeForComments', () => {
  it('names the post and the listings that count its comments but not the feed or the sitemap when its comments change', () => {
    assert.deepEqual(purgeForComments('hello', ['Web']), {
      pathnames: ['/plog/hello', '/', '/plog', '/plog/category/Web'],
      keys: ['post:hello', 'listing:home', 'listing:archive', 'category:Web'],
    });
  });
});

describe('edgeUrlOfCacheKey', () => {
  it('answers the path and query of a key, without a path+variant suffix, when the key names one', () => {
    const urls = ['/plog/category/Web', '/plog/category/Web?ref=feed', '/_render/data/b1/en-US/plog.json'];
    for (const url of urls) assert.equal(edgeUrlOfCacheKey(url), url);
    assert.equal(edgeUrlOfCacheKey('/plog [dark|en-US]'), '/plog');
  });

  it('answers undefined for a key that names no URL of this site when it is hostile or malformed', () => {
    for (const key of ['', 'plog', '//evil.example/x', 'http://evil.example/', '/café', '/a\u0000b', '/a\tb', ` /plog`, `/${'a'.repeat(2_048)}`, '/x/../plog', '/plog/%2E']) {
      assert.equal(edgeUrlOfCacheKey(key), undefined, JSON.stringify(key.slice(0, 20)));
    }
  });
});
