import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { firstInvalidUtf8, formUtf8Problem, jsonPathAt, jsonUtf8Problem } from './utf8-input.js';

const decodes = (bytes: Uint8Array): boolean => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

/** Byte strings rich in sequence edges: UTF-8 of any text, cut and spliced with lead and continuation bytes. */
const byteStrings = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme' }).map((text) => [...Buffer.from(text)]),
      fc.array(fc.constantFrom(0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0x9f, 0xa0, 0x8f, 0x90, 0x41), { maxLength: 4 }),
      fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 6 }),
    ),
    { maxLength: 8 },
  )
  .map((parts) => Uint8Array.from(parts.flat()));

const MARK = '\u0007MARK\u0007';

/** The JSON text of `value` with the marker string's bytes replaced by `\xff\xfe`: bad bytes inside one string. */
function withBadBytes(value: unknown): Buffer {
  const text = JSON.stringify(value);
  const escaped = JSON.stringify(MARK).slice(1, -1);
  const at = Buffer.from(text.slice(0, text.indexOf(escaped)));
  return Buffer.concat([at, Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(text.indexOf(escaped) + escaped.length))]);
}

describe('firstInvalidUtf8', () => {
  it('finds no bad byte exactly when the WHATWG decoder accepts the bytes, and everything before the one it finds decodes', () => {
    fc.assert(
      fc.property(byteStrings, (bytes) => {
        const offset = firstInvalidUtf8(bytes);
        assert.equal(offset === -1, decodes(bytes));
        if (offset >= 0) {
          assert.ok(decodes(bytes.subarray(0, offset)));
          assert.ok(!decodes(bytes.subarray(0, offset + 4)) || offset + 4 > bytes.length);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses overlong forms, surrogates and code points past U+10FFFF when they are well shaped otherwise', () => {
    for (const bytes of [[0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]]) {
      assert.equal(firstInvalidUtf8(Uint8Array.from([0x41, ...bytes])), 1, bytes.join(' '));
    }
    assert.equal(firstInvalidUtf8(Buffer.from('é漢😀')), -1);
  });
});

describe('jsonPathAt', () => {
  it('names the field, array element or nested path whose string holds the bad bytes', () => {
    const path = fc.array(fc.oneof(fc.string({ minLength: 1, maxLength: 10 }).filter((key) => !key.includes(MARK)), fc.nat({ max: 3 })), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(path, fc.jsonValue(), (steps, sibling) => {
        let value: unknown = `a${MARK}b`;
        let expected = '';
        for (const step of [...steps].reverse()) {
          if (typeof step === 'number') {
            value = [...Array.from({ length: step }, () => sibling), value, sibling];
          } else value = { '': sibling, [step]: value };
        }
        for (const step of steps) expected += typeof step === 'number' ? `[${step}]` : expected === '' ? step : `.${step}`;
        const bytes = withBadBytes(value);
        const offset = firstInvalidUtf8(bytes);
        assert.equal(jsonPathAt(bytes, offset), expected);
      }),
      { numRuns: 300 },
    );
  });

  it('tells a field name, a top-level string and bytes between values apart', () => {
    const key = Buffer.concat([Buffer.from('{"title":"x","na'), Buffer.from([0xff]), Buffer.from('me":"y"}')]);
    assert.equal(jsonPathAt(key, firstInvalidUtf8(key)), 'a field name in the body');
    const bare = Buffer.concat([Buffer.from('"A'), Buffer.from([0xff]), Buffer.from('"')]);
    assert.equal(jsonPathAt(bare, 2), undefined);
    const between = Buffer.concat([Buffer.from('{"title":"x"'), Buffer.from([0xff]), Buffer.from('}')]);
    assert.equal(jsonUtf8Problem(between), 'the body is not valid UTF-8 (byte 12 of the body)');
  });
});

describe('jsonUtf8Problem', () => {
  it('is undefined for UTF-8 and names the field of the issue\'s body otherwise', () => {
    assert.equal(jsonUtf8Problem(Buffer.from('{"title":"héllo 😀"}')), undefined);
    const body = Buffer.concat([Buffer.from('{"title":"A'), Buffer.from([0xff, 0xfe]), Buffer.from('B","body":"x"}')]);
    assert.equal(jsonUtf8Problem(body), 'title is not valid UTF-8 (byte 11 of the body)');
  });
});

describe('formUtf8Problem', () => {
  it('names the field whose value is bad, raw or percent-encoded, and accepts what URLSearchParams decodes losslessly', () => {
    assert.equal(formUtf8Problem(Buffer.from('name=Ann&comment=caf%C3%A9+%F0%9F%98%80&website=')), undefined);
    assert.equal(formUtf8Problem(Buffer.from('name=Ann&comment=A%FF%FEB')), 'comment is not valid UTF-8');
    assert.equal(formUtf8Problem(Buffer.concat([Buffer.from('name=A'), Buffer.from([0xff]), Buffer.from('&comment=x')])), 'name is not valid UTF-8');
    assert.equal(formUtf8Problem(Buffer.from('na%E9me=x')), 'a field name in the form is not valid UTF-8');
    assert.equal(formUtf8Problem(Buffer.from('comment=100%+sure%2')), undefined);
  });

  it('finds a problem exactly when a percent-encoded value is not UTF-8 by the WHATWG decoder', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('name', 'comment'), fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 6 }))), (pairs) => {
        const body = pairs.map(([name, bytes]) => `${name}=${bytes.map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')}`).join('&');
        const bad = pairs.find(([, bytes]) => !decodes(Uint8Array.from(bytes)));
        assert.equal(formUtf8Problem(Buffer.from(body)), bad === undefined ? undefined : `${bad[0]} is not valid UTF-8`);
      }),
      { numRuns: 1000 },
    );
  });
});
