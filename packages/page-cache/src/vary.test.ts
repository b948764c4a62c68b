import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { keyBase } from './key.js';
import { normalisedValue, variantKey, varyNames } from './vary.js';

describe('varyNames', () => {
  it('lists the request headers besides Accept-Encoding, lower-cased, sorted, once each', () => {
    assert.deepEqual(varyNames('Accept-Encoding'), []);
    assert.deepEqual(varyNames(undefined), []);
    assert.deepEqual(varyNames('X-Theme, accept-language,Accept-Encoding, ACCEPT-LANGUAGE'), ['accept-language', 'x-theme']);
    assert.deepEqual(varyNames(['Cookie', 'Accept-Language']), ['accept-language', 'cookie']);
  });

  it('says * when the response varies on more than headers', () => {
    assert.equal(varyNames('Accept-Language, *'), '*');
  });
});

describe('normalisedValue', () => {
  it('joins repeated fields and trims list members and inner whitespace', () => {
    assert.equal(normalisedValue(' en-GB ,  fr;q=0.5'), 'en-GB,fr;q=0.5');
    assert.equal(normalisedValue(['en', 'fr']), 'en,fr');
    assert.equal(normalisedValue('a \t b'), 'a b');
    assert.equal(normalisedValue(undefined), undefined);
    assert.equal(normalisedValue(''), '');
  });
});

describe('variantKey', () => {
  it('tells an absent header from an empty one and keeps the key as the part purges read', () => {
    const absent = variantKey('/a?x=1', ['accept-language'], {});
    const empty = variantKey('/a?x=1', ['accept-language'], { 'accept-language': '' });
    assert.notEqual(absent, empty);
    assert.equal(keyBase(absent!), '/a?x=1');
    assert.equal(keyBase(variantKey('/a [dark|en]', ['x-theme'], { 'x-theme': 'a b' })!), '/a');
  });

  it('has no stored variant for a request carrying a cookie or credentials the response varies on', () => {
    assert.equal(variantKey('/a', ['cookie'], { cookie: 'session=1' }), undefined);
    assert.equal(variantKey('/a', ['accept-language', 'authorization'], { authorization: 'Bearer x' }), undefined);
    assert.equal(typeof variantKey('/a', ['cookie'], {}), 'string', 'the cookieless variant is stored');
    assert.equal(typeof variantKey('/a', ['accept-language'], { cookie: 'session=1' }), 'string', 'a cookie the response does not vary on does not matter');
  });

  it('gives two requests one variant exactly when their normalised values are equal', () => {
    const value = fc.option(fc.string({ maxLength: 12, unit: fc.constantFrom(...'ab ,;=\t&%é'.split('')) }), { nil: undefined });
    fc.assert(
      fc.property(value, value, value, value, (a1, b1, a2, b2) => {
        const names = ['x-a', 'x-b'];
        const headers = (a: string | undefined, b: string | undefined) => ({ ...(a === undefined ? {} : { 'x-a': a }), ...(b === undefined ? {} : { 'x-b': b }) });
        const same = normalisedValue(a1) === normalisedValue(a2) && normalisedValue(b1) === normalisedValue(b2);
        assert.equal(variantKey('/p', names, headers(a1, b1)) === variantKey('/p', names, headers(a2, b2)), same);
      }),
    );
  });
});
