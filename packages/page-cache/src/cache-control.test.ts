import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MAX_DELTA_SECONDS, parseDirectives, responseDirectives } from './cache-control.js';

const TCHAR = [...'!#$%&\'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'];
const token = fc.array(fc.constantFrom(...TCHAR), { minLength: 1, maxLength: 12 }).map((chars) => chars.join(''));
/** Any text a quoted string can hold, commas, quotes, backslashes and non-ASCII included. */
const quotedText = fc.string({ maxLength: 20, unit: fc.constantFrom(...'a ,;="\\é—\t'.split('')) });

interface Written {
  name: string;
  value: string | undefined;
  quote: boolean;
}

const directive = fc.record({ name: token, value: fc.option(fc.oneof(token, quotedText), { nil: undefined }), quote: fc.boolean() });

function write(list: Written[], space: string): string {
  return list
    .map(({ name, value, quote }) => {
      if (value === undefined) return name;
      const quoted = quote || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(value);
      return `${name}=${quoted ? `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"` : value}`;
    })
    .join(`,${space}`);
}

const randomCase = (text: string, flips: boolean[]) => [...text].map((c, i) => (flips[i % flips.length] === true ? c.toUpperCase() : c.toLowerCase())).join('');

describe('parseDirectives', () => {
  it('reads each directive with its argument, quoted or not, when given a well-formed list', () => {
    assert.deepEqual(parseDirectives('public, max-age=60, s-maxage="120", no-cache="set-cookie, x-a"'), [
      { name: 'public', value: undefined },
      { name: 'max-age', value: '60' },
      { name: 's-maxage', value: '120' },
      { name: 'no-cache', value: 'set-cookie, x-a' },
    ]);
  });

  it('joins several field lines and skips malformed members and empty list elements', () => {
    assert.deepEqual(parseDirectives(['max-age=1', ' , private x, no-store']), [
      { name: 'max-age', value: '1' },
      { name: 'no-store', value: undefined },
    ]);
    assert.deepEqual(parseDirectives(''), []);
    assert.deepEqual(parseDirectives(undefined), []);
  });

  it('returns every directive as written, names lower-cased, for any list of tokens and quoted strings', () => {
    fc.assert(
      fc.property(fc.array(directive, { maxLength: 8 }), fc.constantFrom('', ' ', '\t '), fc.array(fc.boolean(), { minLength: 1 }), (list, space, flips) => {
        const parsed = parseDirectives(write(list.map((d) => ({ ...d, name: randomCase(d.name, flips) })), space));
        assert.deepEqual(parsed, list.map(({ name, value }) => ({ name: name.toLowerCase(), value })));
      }),
    );
  });

  it('never throws and yields only lower-case names without separators, for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        for (const { name } of parseDirectives(text)) {
          assert.equal(name, name.toLowerCase());
          assert.doesNotMatch(name, /[,="\s]/);
          assert.notEqual(name, '');
        }
      }),
    );
  });
});

describe('responseDirectives', () => {
  it('reads the flags whatever their case, and not when they only appear inside another directive or a quoted value', () => {
    const read = responseDirectives('Private, NO-STORE, No-Cache, Must-Revalidate');
    assert.deepEqual([read.private, read.noStore, read.noCache, read.mustRevalidate], [true, true, true, true]);
    const inside = responseDirectives('x-private-thing, no-storey, ext="private, no-store"');
    assert.deepEqual([inside.private, inside.noStore, inside.noCache], [false, false, false]);
    assert.equal(responseDirectives('proxy-revalidate').mustRevalidate, true);
  });

  it('reads lifetimes and windows in seconds, capping huge values at 2^31', () => {
    const read = responseDirectives('max-age=60, s-maxage="30", stale-while-revalidate=10, stale-if-error=99999999999999999999');
    assert.deepEqual([read.maxAge, read.sMaxAge, read.staleWhileRevalidate, read.staleIfError], [60, 30, 10, MAX_DELTA_SECONDS]);
  });

  it('takes an invalid max-age or s-maxage as invalid (stale) and ignores an invalid window', () => {
    for (const value of ['max-age=-1', 'max-age=1.5', 'max-age=abc', 'max-age', 'max-age=', 'max-age=٣']) {
      assert.equal(responseDirectives(value).maxAge, 'invalid', value);
    }
    assert.equal(responseDirectives('s-maxage=x').sMaxAge, 'invalid');
    assert.equal(responseDirectives('stale-while-revalidate').staleWhileRevalidate, undefined);
    assert.equal(responseDirectives('stale-if-error=-5').staleIfError, undefined);
  });

  it('keeps the most restrictive reading of a directive given twice', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 10 ** 6 }), { minLength: 1, maxLength: 6 }), fc.boolean(), (ages, split) => {
        const members = ages.map((age) => `max-age=${age}, stale-if-error=${age}`);
        const read = responseDirectives(split ? members : members.join(', '));
        assert.equal(read.maxAge, Math.min(...ages));
        assert.equal(read.staleIfError, Math.min(...ages));
        assert.equal(responseDirectives([...members, 'max-age=soon']).maxAge, 'invalid');
      }),
    );
  });
});
