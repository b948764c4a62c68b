import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { atomFeed, FAVICON, robotsTxt, sitemap, xmlText } from './feeds.js';
import { SITE_DEFAULTS } from './site.js';

describe('xmlText', () => {
  it('escapes markup and drops characters XML cannot hold when given any text', () => {
    assert.equal(xmlText('a < b & "c" \u0000\u000b\ud800 é\n'), 'a &lt; b &amp; &quot;c&quot;  é\n');
  });
});

describe('atomFeed', () => {
  it('writes one entry per post with absolute URLs, RFC 3339 dates and the body as escaped HTML', () => {
    const feed = atomFeed(
      [{ oid: 'p', title: 'T & <b>', body_html: '<p>x</p>', summary: '', pub_date: '2026-02-03', categories: ['c'] }],
      SITE_DEFAULTS,
      'https://example.com',
    );
    assert.match(feed, /<entry><title>T &amp; &lt;b&gt;<\/title><link rel="alternate" type="text\/html" href="https:\/\/example.com\/plog\/p"\/>/);
    assert.match(feed, /<updated>2026-02-03T00:00:00.000Z<\/updated>/);
    assert.match(feed, /<content type="html">&lt;p&gt;x&lt;\/p&gt;<\/content>/);
    assert.doesNotMatch(feed, /<summary>/, 'no empty summary');
  });

  it('dates an empty feed at the epoch when there are no posts', () => {
    assert.match(atomFeed([], SITE_DEFAULTS, 'http://h'), /<updated>1970-01-01T00:00:00.000Z<\/updated>/);
  });
});

describe('sitemap and robots.txt', () => {
  it('lists the home page, the archive, the about page and each post, and robots.txt names the sitemap on the base', () => {
    const map = sitemap([{ oid: 'p', title: 'T', pub_date: '2026-02-03T00:00:00.000Z', categories: [], comments: 0 }], 'http://h');
    assert.deepEqual([...map.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]), ['http://h/', 'http://h/plog', 'http://h/about', 'http://h/plog/p']);
    assert.match(robotsTxt('http://h'), /^Sitemap: http:\/\/h\/sitemap.xml$/m);
  });

  it("lists each category's page once, dated by its newest post, when posts have categories", () => {
    const listing = (oid: string, pub_date: string, categories: string[]) => ({ oid, title: oid, pub_date, categories, comments: 0 });
    const map = sitemap([listing('b', '2026-03-01T00:00:00.000Z', ['Web', 'C#']), listing('a', '2026-01-01T00:00:00.000Z', ['Web', 'not/valid'])], 'http://h');
    const urls = [...map.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/g)].map((match) => [match[1], match[2]]);
    assert.deepEqual(urls.slice(2, 4), [
      ['http://h/plog/category/Web', '2026-03-01T00:00:00.000Z'],
      ['http://h/plog/category/C%23', '2026-03-01T00:00:00.000Z'],
    ]);
    assert.equal(urls.length, 6, 'home, archive, two categories, two posts: no page for a name the origin should not have sent');
  });

  it('builds an ICO holding one 16×16 PNG when the module loads', () => {
    assert.deepEqual([...FAVICON.subarray(0, 8)], [0, 0, 1, 0, 1, 0, 16, 16]);
    assert.equal(FAVICON.subarray(22, 26).toString('latin1'), '\x89PNG');
  });
});
