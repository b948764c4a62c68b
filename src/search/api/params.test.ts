import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SEARCH_CACHE_CONTROL, autocompleteCacheControl, codePointLength, parseAutocompleteParams, parseSearchParams } from './params.js';

describe('parseSearchParams', () => {
  it('fills the defaults when only q is given', () => {
    assert.deepEqual(parseSearchParams({ q: 'fetch' }), {
      ok: true,
      value: { q: 'fetch', locales: ['en-US'], sort: 'best', size: 10, page: 1, slugPrefixes: [], exact: false },
    });
  });

  it('keeps distinct locales and slug prefixes in order and drops empty values', () => {
    const parsed = parseSearchParams({ q: 'x', locale: ['fr', '', 'FR', 'pt-BR'], slug_prefix: ['/docs/web', 'docs/web', 'Docs/Learn'] });
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value.locales, ['fr', 'pt-BR']);
    assert.deepEqual(parsed.value.slugPrefixes, ['docs/web', 'Docs/Learn']);
  });

  it('reads exact=1 as exact, exact=0 and an empty or absent exact as not, and anything else as invalid', () => {
    const exact = (value: unknown) => {
      const parsed = parseSearchParams(value === undefined ? { q: 'x' } : { q: 'x', exact: value });
      return parsed.ok ? parsed.value.exact : parsed.body.errors.exact?.map((error) => error.code);
    };
    assert.equal(exact('1'), true);
    assert.equal(exact('0'), false);
    assert.equal(exact(''), false);
    assert.equal(exact(undefined), false);
    assert.deepEqual(exact('true'), ['invalid_choice']);
    assert.deepEqual(exact(' 1'), ['invalid_choice']);
    assert.deepEqual(exact(['1', '1']), ['repeated']);
    assert.deepEqual(exact(1), ['invalid']);
  });

  it('reports values that are not strings as invalid instead of throwing', () => {
    for (const query of [{ q: 5 }, { q: ['a', 'b'] }, { q: { nested: 1 } }, { q: 'a', locale: [1] }, { q: 'a', size: null }]) {
      const parsed = parseSearchParams(query);
      assert.equal(parsed.ok, false, JSON.stringify(query));
    }
    assert.equal(parseSearchParams(null).ok, false);
    assert.equal(parseSearchParams('q=a').ok, false);
  });

  it('never throws and answers either a value or field errors for any query object (property)', () => {
    const value = fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 12 }), fc.integer(), fc.constant(undefined), fc.object());
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('q', 'locale', 'sort', 'size', 'page', 'slug_prefix', 'exact', 'other'), value), (query) => {
        const parsed = parseSearchParams(query);
        if (parsed.ok) {
          assert.ok(parsed.value.size >= 1 && parsed.value.size <= 100);
          assert.ok(parsed.value.page >= 1 && parsed.value.page <= 10);
          assert.ok(codePointLength(parsed.value.q) <= 200 && parsed.value.q.trim() !== '');
        } else {
          for (const list of Object.values(parsed.body.errors)) assert.ok(list.length > 0 && list.every((item) => item.message !== ''));
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseAutocompleteParams and autocompleteCacheControl', () => {
  it('requires one non-empty q', () => {
    assert.deepEqual(parseAutocompleteParams({ q: ' ' }), { ok: true, value: { q: ' ', locales: ['en-US'] } });
    assert.equal(parseAutocompleteParams({}).ok, false);
    assert.equal(parseAutocompleteParams({ q: ['a', 'b'] }).ok, false);
  });

  it('takes locale as search does when it is given, distinct and checked', () => {
    assert.deepEqual(parseAutocompleteParams({ q: 'a', locale: ['zh-CN', '', 'ZH-cn', 'fr'] }), { ok: true, value: { q: 'a', locales: ['zh-CN', 'fr'] } });
    assert.deepEqual(parseAutocompleteParams({ q: 'a', locale: 'not a locale!' }), parseSearchParams({ q: 'a', locale: 'not a locale!' }), 'the same error');
  });

  it('makes 1 to 9 code points cacheable for an hour and nothing else', () => {
    assert.equal(autocompleteCacheControl(''), undefined);
    assert.equal(autocompleteCacheControl('a'), 'public, max-age=3600, s-maxage=1');
    assert.equal(autocompleteCacheControl('🎉'.repeat(9)), 'public, max-age=3600, s-maxage=1');
    assert.equal(autocompleteCacheControl('🎉'.repeat(10)), undefined);
    assert.equal(autocompleteCacheControl('abcdefghij'), undefined);
  });
});

describe('SEARCH_CACHE_CONTROL', () => {
  it('lets a shared cache and a browser after it keep a search answer a minute at most when both honour it', () => {
    const directives = new Map(SEARCH_CACHE_CONTROL.split(',').map((part) => {
      const [name = '', value] = part.trim().split('=');
      return [name, value === undefined ? undefined : Number(value)] as const;
    }));
    assert.ok(directives.has('public'));
    const browser = directives.get('max-age') ?? Number.NaN;
    const shared = directives.get('s-maxage') ?? browser;
    assert.ok(shared <= 60, `a shared cache keeps it ${shared} s`);
    assert.ok(shared + browser <= 60, `the edge's copy then a browser's: ${shared} + ${browser} s`);
  });
});
