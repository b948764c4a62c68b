import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { chooseCoding, ifNoneMatchMatches, isCompressible, parseAcceptEncoding, preferencesMemo, varyWithAcceptEncoding, type Coding } from './negotiate.js';

const BOTH = { br: true, gzip: true };
const choose = (header: string | undefined, available = BOTH): Coding => chooseCoding(parseAcceptEncoding(header), available);

/** A reference reading of RFC 9110 §12.5.3, written plainly, for the property below. */
function acceptable(header: string, coding: Coding): boolean {
  const items = header.split(',').map((item) => {
    const [name = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    return { name: name === 'x-gzip' ? 'gzip' : name, q: q === undefined ? 1 : Number(q.slice(2)) };
  });
  const named = items.find((item) => item.name === coding);
  if (named !== undefined) return named.q > 0;
  const star = items.find((item) => item.name === '*');
  if (star !== undefined) return star.q > 0;
  return coding === 'identity';
}

const codingName = fc.constantFrom('br', 'gzip', 'x-gzip', 'identity', '*', 'deflate', 'zstd', 'compress', 'BR', 'GZip');
const weight = fc.constantFrom('', ';q=0', ';q=0.0', ';q=0.5', ';q=1', ';q=1.000', ';q=0.001', ' ; q=0.8');
const header = fc.array(fc.tuple(codingName, weight).map(([name, q]) => `${name}${q}`), { minLength: 1, maxLength: 6 }).map((items) => items.join(', '));

describe('chooseCoding', () => {
  it('never picks a compressed coding the header does not accept when the header is any mix of codings and weights', () => {
    fc.assert(
      fc.property(header, fc.boolean(), fc.boolean(), (value, br, gzip) => {
        const chosen = choose(value, { br, gzip });
        if (chosen !== 'identity') {
          assert.ok(acceptable(value, chosen), `${chosen} for '${value}'`);
          assert.ok(chosen === 'br' ? br : gzip, `${chosen} is not available`);
        }
      }),
    );
  });

  it('picks a compressed coding with the highest weight when one is acceptable and available', () => {
    fc.assert(
      fc.property(header, (value) => {
        const chosen = choose(value);
        const preferences = parseAcceptEncoding(value);
        const best = Math.max(preferences.br, preferences.gzip);
        if (best > 0 && best >= preferences.identity) assert.notEqual(chosen, 'identity', `'${value}'`);
        if (chosen !== 'identity') assert.equal(preferences[chosen], best, `'${value}'`);
      }),
    );
  });

  /** Example headers by the rule they show: the header, the codings available (both when unsaid), the choice. */
  const examples: ReadonlyArray<[rule: string, cases: ReadonlyArray<[string | undefined, Coding, typeof BOTH?]>]> = [
    ['prefers br when the header accepts br and gzip with equal weights', [['gzip, deflate, br', 'br'], ['gzip, deflate, br, zstd', 'br']]],
    ['honours q-values when the header weighs codings differently', [['br;q=0.5, gzip;q=0.9', 'gzip'], ['br;q=0.5, gzip;q=0.4', 'br'], ['identity, br;q=0.5', 'identity']]],
    ['refuses a coding when its q is 0', [['br;q=0, gzip', 'gzip'], ['br;q=0, gzip;q=0', 'identity'], ['br;q=0.000', 'identity']]],
    ['gives every coding not listed the weight of * when * is present', [['*', 'br'], ['br;q=0, *', 'gzip'], ['*;q=0.1, identity', 'identity']]],
    ['ignores unknown codings when they are all the header names', [['deflate, zstd, compress', 'identity'], ['zstd;q=1, gzip;q=0.1', 'gzip']]],
    ['treats x-gzip as gzip and names case-insensitively when spelled so', [['x-gzip', 'gzip'], ['BR', 'br']]],
    ['sends identity when the header is absent or empty', [[undefined, 'identity'], ['', 'identity'], ['  ', 'identity']]],
    [
      'falls back to identity when nothing available is acceptable, even when identity is refused',
      [
        ['identity;q=0', 'identity'],
        ['*;q=0', 'identity'],
        ['br, identity;q=0', 'identity', { br: false, gzip: false }],
        ['gzip, identity;q=0', 'identity', { br: true, gzip: false }],
      ],
    ],
    ['counts a malformed weight as a refusal when the q is not a number from 0 to 1', [['br;q=abc, gzip', 'gzip'], ['br;q=2, gzip;q=-1', 'identity']]],
  ];

  for (const [rule, cases] of examples) {
    it(rule, () => {
      for (const [value, coding, available] of cases) assert.equal(choose(value, available), coding, String(value));
    });
  }
});

describe('preferencesMemo', () => {
  it('answers like parseAcceptEncoding when values repeat past its bound', () => {
    const memo = preferencesMemo(2);
    for (const value of ['br', 'gzip', 'br;q=0, gzip', 'br', undefined, '*']) assert.deepEqual(memo(value), parseAcceptEncoding(value));
  });
});

describe('isCompressible', () => {
  const head = (contentType: string | undefined, contentEncoding?: string, cacheControl?: string) => ({ contentType, contentEncoding, cacheControl });

  it('accepts text, JSON, XML, JavaScript and SVG when the body reaches the threshold', () => {
    for (const type of ['text/html; charset=utf-8', 'application/json', 'application/ld+json', 'application/rss+xml', 'text/javascript', 'image/svg+xml']) {
      assert.ok(isCompressible(head(type), 2000, 1024), type);
    }
  });

  it('refuses when the body is small, binary, already encoded or marked no-transform', () => {
    assert.equal(isCompressible(head('text/html'), 1023, 1024), false);
    assert.equal(isCompressible(head('image/png'), 5000, 1024), false);
    assert.equal(isCompressible(head(undefined), 5000, 1024), false);
    assert.equal(isCompressible(head('text/html', 'gzip'), 5000, 1024), false);
    assert.equal(isCompressible(head('text/html', undefined, 'public, no-transform'), 5000, 1024), false);
  });
});

describe('ifNoneMatchMatches', () => {
  const etag = '"abc"';

  it('matches the tag, a weak form of it, one in a list, and *', () => {
    for (const header of ['"abc"', 'W/"abc"', '"x", "abc"', '"x",W/"abc"', '*', ' * ']) assert.ok(ifNoneMatchMatches(header, etag), header);
  });

  it('does not match another tag, a bare word or an absent header', () => {
    for (const header of ['"abcd"', 'abc', '"ab"', '', undefined]) assert.equal(ifNoneMatchMatches(header, etag), false, String(header));
  });
});

describe('varyWithAcceptEncoding', () => {
  it('adds Accept-Encoding once and leaves * alone', () => {
    assert.equal(varyWithAcceptEncoding(undefined), 'Accept-Encoding');
    assert.equal(varyWithAcceptEncoding('Cookie'), 'Cookie, Accept-Encoding');
    assert.equal(varyWithAcceptEncoding('accept-encoding'), 'accept-encoding');
    assert.equal(varyWithAcceptEncoding('*'), '*');
  });
});
