import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { computeKey, cookieValue, keyBase, originForm, pathOf } from './key.js';

const variantOptions = { variantCookie: 'display-mode', variantHeader: 'accept-language' };
const key = (policy: Parameters<typeof computeKey>[0], url: string, headers = {}) =>
  computeKey(policy, { url, headers }, variantOptions);

const segment = fc.stringMatching(/^[a-zA-Z0-9._~%-]{0,8}$/);
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => `/${segments.join('/')}`);
const query = fc.stringMatching(/^[a-z0-9=&%/.?-]{1,12}$/);
const headerText = fc.string({ maxLength: 12 });

describe('computeKey', () => {
  it('keeps path and query exactly as sent when the policy is url', () => {
    assert.equal(key('url', '/x?b=2&a=1'), '/x?b=2&a=1');
    assert.equal(key('url', '/x?a=1&b=2'), '/x?a=1&b=2');
    assert.notEqual(key('url', '/x?a=1'), key('url', '/x?b=2'));
  });

  it('drops only a bare trailing question mark when the query is empty', () => {
    assert.equal(key('url', '/x?'), '/x');
    assert.equal(key('url', '/x??'), '/x??');
  });

  it('reduces an absolute-form target to its path and query when sent to a proxy', () => {
    assert.equal(key('url', 'http://example.com/x?a=1'), '/x?a=1');
    assert.equal(key('url', '*'), undefined);
    assert.equal(key('url', 'ftp://example.com/x'), undefined);
  });

  it('ignores the query string when the policy is path', () => {
    assert.equal(key('path', '/x?a=1'), '/x');
    assert.equal(key('path', '/x?b=2'), key('path', '/x?a=1'));
  });

  it('keeps the query only under /search when the policy is search-query', () => {
    assert.equal(key('search-query', '/search?q=a'), '/search?q=a');
    assert.equal(key('search-query', '/search/x?q=a'), '/search/x?q=a');
    assert.equal(key('search-query', '/plog/x?utm=1'), '/plog/x');
  });

  it('adds the cookie and header values when the policy is path+variant', () => {
    const headers = { cookie: 'a=1; display-mode=dark; b=2', 'accept-language': 'fr-FR' };
    assert.equal(key('path+variant', '/x?q=1', headers), '/x [dark|fr-FR]');
    assert.equal(key('path+variant', '/x'), '/x [|]');
    assert.equal(key('path+variant', '/x', { cookie: 'display-mode=a|b c' }), '/x [a%7Cb%20c|]');
  });

  it('is the same for every query string of a path when the policy ignores the query (property)', () => {
    fc.assert(
      fc.property(path, query, query, (p, q1, q2) => {
        assert.equal(key('path', `${p}?${q1}`), key('path', `${p}?${q2}`));
        assert.equal(key('path', `${p}?${q1}`), p);
      }),
    );
  });

  it('keeps every non-empty query and never merges two targets when the policy is url (property)', () => {
    fc.assert(
      fc.property(path, query, path, query, (p1, q1, p2, q2) => {
        const a = `${p1}?${q1}`;
        const b = `${p2}?${q2}`;
        assert.equal(key('url', a), a);
        assert.equal(key('url', a) === key('url', b), a === b);
      }),
    );
  });

  it('agrees with url under /search and with path elsewhere when the policy is search-query (property)', () => {
    fc.assert(
      fc.property(fc.oneof(path, path.map((p) => `/search${p}`)), query, (p, q) => {
        const target = `${p}?${q}`;
        assert.equal(key('search-query', target), p.startsWith('/search') ? key('url', target) : key('path', target));
      }),
    );
  });

  it('maps distinct (path, cookie, header) triples to distinct keys whose base is the path (property)', () => {
    const cookieText = fc.stringMatching(/^[^;\s]{0,8}$/);
    fc.assert(
      fc.property(path, cookieText, headerText, path, cookieText, headerText, (p1, c1, h1, p2, c2, h2) => {
        const k1 = key('path+variant', p1, { cookie: `display-mode=${c1}`, 'accept-language': h1 });
        const k2 = key('path+variant', p2, { cookie: `display-mode=${c2}`, 'accept-language': h2 });
        assert.equal(keyBase(k1!), p1);
        const same = p1 === p2 && c1 === c2 && h1.trim() === h2.trim();
        assert.equal(k1 === k2, same);
      }),
    );
  });

  it('gives an absolute-form target the key of its origin form under every policy (property)', () => {
    fc.assert(
      fc.property(path, query, fc.constantFrom('url', 'path', 'search-query', 'path+variant') as fc.Arbitrary<'url'>, (p, q, policy) => {
        assert.equal(key(policy, `http://host.example${p}?${q}`), key(policy, `${p}?${q}`));
      }),
    );
  });
});

describe('originForm and pathOf', () => {
  it('splits the path from the query when a target has one', () => {
    assert.equal(pathOf('/a/b?c=1?d'), '/a/b');
    assert.equal(pathOf('/a'), '/a');
    assert.equal(originForm('/a/../b'), '/a/../b');
  });
});

describe('cookieValue', () => {
  it('returns the first value of the named cookie when present and empty otherwise', () => {
    assert.equal(cookieValue('x=1; display-mode=dark; display-mode=light', 'display-mode'), 'dark');
    assert.equal(cookieValue('xdisplay-mode=1', 'display-mode'), '');
    assert.equal(cookieValue(undefined, 'display-mode'), '');
    assert.equal(cookieValue('display-mode=a=b', 'display-mode'), 'a=b');
  });
});
