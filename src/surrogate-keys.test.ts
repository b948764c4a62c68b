import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isValidKey } from '@sitestack/page-cache';
import { categoryKey, encodeKeyPart, postKey, surrogateKeyHeader } from './surrogate-keys.js';

/** Any UTF-16 text, lone surrogates included, short and long (up to well past what fits in a key). */
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ unit: 'binary', minLength: 60, maxLength: 300 }), fc.string({ unit: fc.constantFrom('a', '%', '!', ' ', 'é', '\ud800', '\udc00'), maxLength: 300 }));

describe('encodeKeyPart', () => {
  it('keeps unreserved ASCII and percent-encodes the UTF-8 bytes of everything else when the text fits', () => {
    assert.equal(encodeKeyPart('Web', 100), 'Web');
    assert.equal(encodeKeyPart('node.js_2~x-y', 100), 'node.js_2~x-y');
    assert.equal(encodeKeyPart('Café au lait', 100), 'Caf%C3%A9%20au%20lait');
    assert.equal(encodeKeyPart('C# & C++', 100), 'C%23%20%26%20C%2B%2B');
    assert.equal(encodeKeyPart('数据库', 100), '%E6%95%B0%E6%8D%AE%E5%BA%93');
    assert.equal(encodeKeyPart('🦀', 100), '%F0%9F%A6%80');
    assert.equal(encodeKeyPart('a\ud800b', 100), 'a%ED%A0%80b', 'a lone surrogate as its own three bytes');
  });

  it('cuts a long text at a code point and ends it with ! and a hash when it does not fit', () => {
    const long = '数'.repeat(40);
    const part = encodeKeyPart(long, 247);
    assert.equal(part.length <= 247, true);
    assert.match(part, /^(%E6%95%B0)+![A-Za-z0-9_-]{43}$/);
    assert.notEqual(encodeKeyPart(`${long}x`, 247), part);
  });

  it('answers visible ASCII within the bound for any text', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 44, max: 300 }), (text, max) => {
        const part = encodeKeyPart(text, max);
        assert.ok(part.length <= max, `${part.length} > ${max}`);
        assert.match(part, /^[\x21-\x7e]*$/);
      }),
    );
  });

  it('gives different texts different parts, lone surrogates and long texts included', () => {
    fc.assert(
      fc.property(anyText, anyText, (a, b) => {
        fc.pre(a !== b);
        assert.notEqual(encodeKeyPart(a, 247), encodeKeyPart(b, 247));
      }),
      { numRuns: 500 },
    );
  });
});

describe('postKey and categoryKey', () => {
  it('name a post by its oid and a category by its percent-encoded name', () => {
    assert.equal(postKey('first-look-sqlite'), 'post:first-look-sqlite');
    const categories = { Web: 'category:Web', 'Node.js': 'category:Node.js', 'Web design': 'category:Web%20design' };
    for (const [name, key] of Object.entries(categories)) assert.equal(categoryKey(name), key, name);
  });

  it('answer a valid key for any name, and never one key for two names', () => {
    fc.assert(
      fc.property(anyText, anyText, (a, b) => {
        for (const key of [postKey(a), categoryKey(a)]) assert.ok(isValidKey(key), key);
        if (a !== b) {
          assert.notEqual(categoryKey(a), categoryKey(b));
          assert.notEqual(postKey(a), postKey(b));
        }
        assert.notEqual(postKey(a), categoryKey(b));
      }),
    );
  });
});

describe('surrogateKeyHeader', () => {
  it('joins keys with spaces, each once, in the order given', () => {
    assert.equal(surrogateKeyHeader(['listing:home', 'post:a', 'post:b', 'post:a']), 'listing:home post:a post:b');
    assert.equal(surrogateKeyHeader([]), '');
  });

  it('leaves out the keys past the bound, keeping those before it whole', () => {
    const keys = Array.from({ length: 500 }, (_, i) => postKey(`post-${i}`));
    const header = surrogateKeyHeader(['listing:archive', ...keys], 2_048);
    assert.ok(header.length <= 2_048);
    assert.ok(header.startsWith('listing:archive post:post-0 '));
    assert.ok(header.split(' ').every((key) => key === 'listing:archive' || keys.includes(key)));
    fc.assert(
      fc.property(fc.array(anyText.map(categoryKey), { maxLength: 40 }), fc.integer({ min: 256, max: 4_096 }), (list, max) => {
        const value = surrogateKeyHeader(list, max);
        assert.ok(value.length <= max);
        const sent = value === '' ? [] : value.split(' ');
        assert.deepEqual(sent, [...new Set(list)].slice(0, sent.length));
      }),
    );
  });
});
