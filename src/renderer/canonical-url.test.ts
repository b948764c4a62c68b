import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CANONICAL_MEMO_ENTRIES, canonicalPath, canonicalUrl, canonicalUrlMemo } from './canonical-url.js';
import { originForm } from '@sitestack/page-cache';
import { spellingOf, spellingParts } from './test-support/url-spellings.js';

const LOCALES = ['en-US', 'de'];
const canonical = (url: string) => canonicalUrl(url, LOCALES)?.target;

/** Request targets of every shape: ASCII and not, escapes valid and not, dots, slashes, queries and fragments. */
const anyTarget = fc
  .array(fc.oneof(fc.constantFrom('/', '.', '..', '%', '%2e', '%2F', '%7e', '%c3%a9', '?', '#', '&', '=', '//', '\\', '"'), fc.string({ maxLength: 4 }), fc.string({ unit: 'grapheme', maxLength: 2 })), { maxLength: 12 })
  .map((parts) => `/${parts.join('')}`);

/** Paths and their canonical forms, by what the canonical form fixes; node hands raw bytes over as latin1. */
const CANONICAL_PATHS = {
  'removes dot segments, duplicate and trailing slashes when the path has them': {
    '/plog/./x': '/plog/x', '/x/../plog/x': '/plog/x', '//plog/../plog/x': '/plog/x', '/a//../b': '/b', '/../../plog/x/': '/plog/x', '/': '/', '/./..//': '/',
  },
  'decodes escapes of unreserved characters and upper-cases the others when the path has escapes': { '/plog/%61%2D%7e': '/plog/a-~', '/plog/%2E%2e/x': '/x', '/plog/a%2fb%c3%a9': '/plog/a%2Fb%C3%A9' },
  'escapes characters a path may not hold, and leaves a stray percent sign, when they are sent raw': { '/a%zz%': '/a%zz%', '/a"b\\c': '/a%22b%5Cc', '/caf\u00c3\u00a9': '/caf%C3%A9', '/\u6570': '/%E6%95%B0' },
};

describe('canonicalPath', () => {
  for (const [behaviour, paths] of Object.entries(CANONICAL_PATHS)) {
    it(behaviour, () => {
      for (const [path, canonical] of Object.entries(paths)) assert.equal(canonicalPath(path), canonical, path);
    });
  }

  it('leaves a path of plain segments as it is when it has no escape, dot segment or empty segment', () => {
    for (const path of ['/plog/a-b', '/a.b/..c/c..', "/x~!$&'()*+,;=:@"]) assert.equal(canonicalPath(path), path);
  });

  it('never gives a path that starts with two slashes, whatever the input', () => {
    fc.assert(fc.property(anyTarget, (target) => !canonicalPath(target.split('?')[0]!).startsWith('//')));
  });
});

describe('canonicalUrl', () => {
  it('sends every spelling of the issue to the page when a post is asked for', () => {
    for (const spelling of ['/plog/a-b?', '/plog/./a-b', '/plog/x/../a-b', '/plog/%61-b', '/plog/%2E/a-b', '//plog/../plog/a-b', '/plog/a-b?#', '/plog/a-b#frag', '/plog/a-b/', '/plog/a-b?j=1', '/plog/a-b?&&', 'http://evil.example/plog/a-b']) {
      assert.equal(canonical(spelling), '/plog/a-b', spelling);
    }
  });

  it('drops every query of a page that takes none, and of data routes, static files and crawler files', () => {
    for (const path of ['/', '/plog', '/plog/category/Web', '/feed.xml', '/sitemap.xml', '/robots.txt', '/favicon.ico', '/_render/data/b1/en-US/index.json', '/_render/static/b1/client.js']) {
      assert.equal(canonical(`${path}?j=1&x=`), path, path);
    }
  });

  it('keeps the query of the search page but keys its cache entry without it', () => {
    assert.deepEqual(canonicalUrl('/en-US/./search?q=caf%C3%A9&sort=new', LOCALES), { target: '/en-US/search?q=caf%C3%A9&sort=new', cacheTarget: '/en-US/search' });
    assert.deepEqual(canonicalUrl('/de/search?', LOCALES), { target: '/de/search', cacheTarget: '/de/search' });
  });

  const targets = {
    'keeps the query of a path that is no page, escaping what a query may not hold': { '/no/./such?a=1&&b': '/no/such?a=1&&b', '/no?a b"\u00e9': '/no?a%20b%22%E9' },
    'sends a data route reached through dot segments to what the segments resolve to when it is spelled so': {
      '/_render/data/../../plog/a-b?p=1': '/plog/a-b',
      '/plog/../_render/data/b1/en-US/plog/a-b.json?p=1': '/_render/data/b1/en-US/plog/a-b.json',
    },
    'gives a category the spelling its links use when its name is escaped otherwise': { '/plog/category/%57eb/': '/plog/category/Web', '/plog/category/Cafe%cc%81': '/plog/category/Caf%C3%A9' },
  };
  for (const [behaviour, cases] of Object.entries(targets)) {
    it(behaviour, () => {
      for (const [target, url] of Object.entries(cases)) assert.equal(canonical(target), url, target);
    });
  }

  it('has no canonical URL when the target has no origin form', () => {
    assert.equal(canonicalUrl('*', LOCALES), undefined);
    assert.equal(canonicalUrl('ftp://x/y', LOCALES), undefined);
  });

  it('is idempotent and never changed by WHATWG URL parsing when given any target', () => {
    fc.assert(
      fc.property(anyTarget, (target) => {
        const once = canonicalUrl(target, LOCALES)!;
        assert.deepEqual(canonicalUrl(once.target, LOCALES), once);
        const parsed = new URL(once.target, 'http://edge.invalid');
        assert.equal(`${parsed.pathname}${parsed.search}`, once.target);
        assert.ok(!once.target.startsWith('//'));
        // The front keys its page cache on the cache target as it is, without reducing it to origin form again.
        assert.equal(originForm(once.cacheTarget), once.cacheTarget);
      }),
      { numRuns: 2000 },
    );
  });

  it('maps every spelling of a page to that page when the spelling is generated', () => {
    const pages = fc.constantFrom('/', '/plog', '/plog/a-post-1', '/plog/category/Web', '/feed.xml', '/_render/data/b1/en-US/plog/a-post-1.json');
    fc.assert(
      fc.property(pages, spellingParts, (page, parts) => {
        assert.equal(canonical(page), page);
        assert.equal(canonical(spellingOf(page, parts)), page);
      }),
      { numRuns: 2000 },
    );
  });

  it('maps every spelling of the search page to its one cache entry when the spelling is generated', () => {
    fc.assert(
      fc.property(spellingParts, (parts) => {
        assert.equal(canonicalUrl(spellingOf('/en-US/search', parts), LOCALES)?.cacheTarget, '/en-US/search');
      }),
    );
  });
});

describe('canonicalUrlMemo', () => {
  it('answers what canonicalUrl answers for every target in a sequence, repeats included (property)', () => {
    const targets = fc.array(fc.oneof(anyTarget, fc.constantFrom('*', 'http://h/x?', '/plog/a-post-1', '/plog/a-post-1?')), { maxLength: 30 });
    fc.assert(
      fc.property(targets, fc.array(fc.nat(), { maxLength: 30 }), (sequence, repeats) => {
        const memo = canonicalUrlMemo(LOCALES);
        // Runs of one target, as the front asks of one request, between different ones.
        const asked = sequence.flatMap((target, i) => Array.from({ length: 1 + ((repeats[i] ?? 0) % 3) }, () => target));
        for (const target of asked) assert.deepEqual(memo(target), canonicalUrl(target, LOCALES), target);
      }),
      { numRuns: 1000 },
    );
  });

  it('still answers right when more targets came than it remembers', () => {
    const memo = canonicalUrlMemo(LOCALES);
    const targets = Array.from({ length: CANONICAL_MEMO_ENTRIES + 100 }, (_, i) => `/plog/post-${i}/?x=${i}`);
    for (const target of [...targets, ...[...targets].reverse(), `/plog/${'a'.repeat(300)}/`]) assert.deepEqual(memo(target), canonicalUrl(target, LOCALES), target);
  });
});
