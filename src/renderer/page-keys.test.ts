import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { surrogateKeyHeader, SURROGATE_KEY_HEADER_MAX_LENGTH } from '../surrogate-keys.js';
import { feedKeys, pageKeys, sitemapKeys } from './page-keys.js';
import type { PostListing } from './types.js';

const listing = (oid: string, categories: string[] = []): PostListing => ({ oid, title: oid, pub_date: '2026-01-01T00:00:00.000Z', categories, comments: 0 });

describe('pageKeys', () => {
  it('names each listing by its own key first, then every post it shows in order, when the page lists posts', () => {
    assert.deepEqual(pageKeys({ kind: 'home', title: 't', latest: [listing('b'), listing('a')], total: 9 }), ['listing:home', 'post:b', 'post:a']);
    assert.deepEqual(pageKeys({ kind: 'archive', title: 't', groups: [{ date: '2026.02', posts: [listing('c')] }, { date: '2026.01', posts: [listing('a')] }] }), [
      'listing:archive',
      'post:c',
      'post:a',
    ]);
    assert.deepEqual(pageKeys({ kind: 'category', title: 't', name: 'Café au lait', posts: [listing('a', ['Café au lait'])] }), ['category:Caf%C3%A9%20au%20lait', 'post:a']);
  });

  it('names a post page by its post and the search page by its own key, whatever else they show', () => {
    const post = { oid: 'p', title: 'P', body_html: '', summary: '', pub_date: '2026-01-01', categories: ['Web'] };
    assert.deepEqual(pageKeys({ kind: 'post', title: 't', post, comments: { count: 0, items: [] } }), ['post:p']);
    assert.deepEqual(pageKeys({ kind: 'search', title: 't', locale: 'en-US' }), ['page:search']);
  });

  it('names nothing when the page is one no cache keeps', () => {
    assert.deepEqual(pageKeys({ kind: 'not-found', title: 't', pathname: '/x' }), []);
    assert.deepEqual(pageKeys({ kind: 'error', title: 't' }), []);
    assert.deepEqual(pageKeys({ kind: 'comment-sent', title: 't', oid: 'p' }), []);
  });

  it('keeps the listing key and as many posts as fit when an archive is too long for the header', () => {
    const posts = Array.from({ length: 2_000 }, (_, i) => listing(`a-rather-long-post-identifier-${i}`));
    const header = surrogateKeyHeader(pageKeys({ kind: 'archive', title: 't', groups: [{ date: '2026.01', posts }] }));
    assert.ok(header.length <= SURROGATE_KEY_HEADER_MAX_LENGTH);
    const keys = header.split(' ');
    assert.equal(keys[0], 'listing:archive');
    assert.deepEqual(keys.slice(1), posts.slice(0, keys.length - 1).map((post) => `post:${post.oid}`));
  });
});

describe('feedKeys and sitemapKeys', () => {
  it('name the feed and the sitemap by their listing keys and then their posts when given posts', () => {
    assert.deepEqual(feedKeys([{ oid: 'a' }, { oid: 'b' }]), ['listing:feed', 'post:a', 'post:b']);
    assert.deepEqual(sitemapKeys([listing('a', ['Web'])]), ['listing:sitemap', 'post:a']);
  });
});
