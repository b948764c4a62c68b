import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isCategoryName } from '../categories.js';
import { dataUrl, matchPage, pagePathOf, parseDataUrl, type PageRoute } from './routes.js';

const locales = ['en-US', 'fr'];

describe('matchPage', () => {
  it('resolves every page kind when the pathname is canonical', () => {
    assert.deepEqual(matchPage('/', locales), { kind: 'home' });
    assert.deepEqual(matchPage('/plog', locales), { kind: 'archive' });
    assert.deepEqual(matchPage('/plog/hello-world', locales), { kind: 'post', oid: 'hello-world' });
    assert.deepEqual(matchPage('/fr/search', locales), { kind: 'search', locale: 'fr' });
    assert.deepEqual(matchPage('/plog/category/Caf%C3%A9%20au%20lait', locales), { kind: 'category', name: 'Café au lait' });
  });

  it('finds a category under any spelling of its name, and pagePathOf gives the canonical one, when the name is valid', () => {
    for (const pathname of ['/plog/category/C%23', '/plog/category/%43%23']) {
      const route = matchPage(pathname, locales);
      assert.deepEqual(route, { kind: 'category', name: 'C#' }, pathname);
      assert.equal(pagePathOf(route), '/plog/category/C%23');
    }
    assert.equal(pagePathOf(matchPage('/plog/category/Cafe%CC%81', locales) ?? { kind: 'home' }), '/plog/category/Caf%C3%A9');
  });

  it('answers undefined for unknown, non-canonical or hostile pathnames', () => {
    for (const pathname of [
      '/plog/', '/plog/Hello', '/plog/a/b', '/plog/..', '/plog/%2e%2e', '/de/search', '/search', '/en-US/search/', '/x', '',
      '/plog/category/', '/plog/category/a/b', '/plog/category/a%2Fb', '/plog/category/%E0%A4%A', '/plog/category/..', '/plog/category/%20x', '/plog/category/%00',
    ]) {
      assert.equal(matchPage(pathname, locales), undefined, pathname);
    }
  });
});

describe('dataUrl and parseDataUrl', () => {
  it('names the home page index.json and a post plog/<oid>.json', () => {
    assert.equal(dataUrl('b1', { kind: 'home' }), '/_render/data/b1/en-US/index.json');
    assert.equal(dataUrl('b1', { kind: 'post', oid: 'x' }), '/_render/data/b1/en-US/plog/x.json');
    assert.equal(dataUrl('b1', { kind: 'search', locale: 'fr' }), '/_render/data/b1/fr/search.json');
  });

  it('reads back exactly the route it wrote, for any page', () => {
    const oid = fc.stringMatching(/^[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}$/);
    const route: fc.Arbitrary<PageRoute> = fc.oneof(
      fc.constant<PageRoute>({ kind: 'home' }),
      fc.constant<PageRoute>({ kind: 'archive' }),
      oid.map((value): PageRoute => ({ kind: 'post', oid: value })),
      fc.constantFrom(...locales).map((locale): PageRoute => ({ kind: 'search', locale })),
      fc
        .string({ unit: fc.constantFrom('a', 'Z', '9', 'é', '数', ' ', '.', '_', '+', '#', '-', '%', '/'), minLength: 1, maxLength: 12 })
        .filter(isCategoryName)
        .map((name): PageRoute => ({ kind: 'category', name })),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/), route, (buildId, page) => {
        assert.deepEqual(parseDataUrl(dataUrl(buildId, page), locales), { buildId, route: page });
      }),
    );
  });

  it('refuses data routes that name no page or the wrong locale', () => {
    for (const pathname of [
      '/_render/data/b/en-US/nope.json',
      '/_render/data/b/fr/index.json',
      '/_render/data/b/en-US/plog/../x.json',
      '/_render/data/b/en-US/index',
      '/_render/data/b!/en-US/index.json',
      '/_render/data/b/en-US/en-US/search.json',
    ]) {
      assert.equal(parseDataUrl(pathname, locales), undefined, pathname);
    }
  });
});
