import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDuration } from './duration.js';
import { formatPrice } from './price.js';
import { parseSongId } from './song-id.js';
import { scrubMatch } from './scrub.js';

describe('parseSongId', () => {
  it('accepts positive integers up to 2^53-1 written plainly', () => {
    assert.equal(parseSongId('1'), 1);
    assert.equal(parseSongId('9007199254740991'), 9007199254740991);
    fc.assert(fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (id) => parseSongId(String(id)) === id));
  });

  it('refuses zero, signs, exponents, leading zeros, unsafe sizes, spaces, paths and non-ASCII digits', () => {
    for (const text of ['', '0', '-1', '+1', '1e3', '1.0', '007', '9007199254740992', '99999999999999999999', ' 1', '1 ', '../1', '..%2F', '١', '１', '0x10', 'Infinity', 'NaN']) {
      assert.equal(parseSongId(text), undefined, text);
    }
  });
});

describe('parseDuration', () => {
  it('reads an amount and a unit', () => {
    assert.equal(parseDuration('30d'), 30 * 86_400_000);
    assert.equal(parseDuration('12h'), 12 * 3_600_000);
    assert.equal(parseDuration('90m'), 90 * 60_000);
    assert.equal(parseDuration('45s'), 45_000);
    assert.equal(parseDuration('2w'), 2 * 604_800_000);
  });

  it('answers undefined for malformed or zero durations', () => {
    for (const text of ['', '30', 'd', '0d', '-1d', '1.5d', '30 days', '30D', '1y', '9999999999d']) {
      assert.equal(parseDuration(text), undefined, text);
    }
  });
});

describe('formatPrice', () => {
  it('formats amounts with their currency and refuses unusable prices', () => {
    assert.equal(formatPrice(1.29, 'USD'), '$1.29');
    assert.equal(formatPrice(0, 'GBP'), '£0.00');
    assert.equal(formatPrice(-1, 'USD'), null);
    assert.equal(formatPrice('1.29', 'USD'), null);
    assert.equal(formatPrice(1, 'usd'), null);
    assert.equal(formatPrice(1, undefined), null);
    assert.equal(formatPrice(Number.NaN, 'USD'), null);
  });
});

describe('scrubMatch', () => {
  it('keeps exactly title, artist, url, image and price', () => {
    const loaded = { title: 't', artist: 'a', url: 'https://u', image: null, price: '$1', trackId: 5, previewUrl: 'https://p', __proto__x: 1 };
    assert.deepEqual(scrubMatch(loaded), { title: 't', artist: 'a', url: 'https://u', image: null, price: '$1' });
    assert.equal(scrubMatch(null), null);
  });
});
