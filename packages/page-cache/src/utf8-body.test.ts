import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { firstInvalidUtf8, jsonPathAt, jsonUtf8Problem } from './utf8-body.js';

const bytes = (...parts: Array<string | number[]>): Uint8Array => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));

describe('firstInvalidUtf8', () => {
  it('finds no bad byte in UTF-8, a well-formed U+FFFD included', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => assert.equal(firstInvalidUtf8(Buffer.from(text, 'utf8')), -1)));
    assert.equal(firstInvalidUtf8(bytes('a\ufffdb')), -1);
  });

  it('gives the offset where the first bad sequence starts, after any well-formed U+FFFD', () => {
    const cases: ReadonlyArray<[Uint8Array, number]> = [
      [bytes('ab', [0xff]), 2],
      [bytes('é', [0x80]), 2],
      [bytes([0xc0, 0x80]), 0],
      [bytes('x', [0xe2, 0x82], 'y'), 1],
      [bytes([0xed, 0xa0, 0x80]), 0],
      [bytes([0xf4, 0x90, 0x80, 0x80]), 0],
      [bytes('\ufffd😀', [0xc3]), 7],
    ];
    for (const [body, offset] of cases) assert.equal(firstInvalidUtf8(body), offset, Buffer.from(body).toString('hex'));
  });
});

describe('jsonPathAt', () => {
  it('names the string value, array item or field name that holds the offset', () => {
    const body = bytes('{"pathnames":["/a","/b"],"keys":["post:1"],"o":{"k":"v"}}');
    const at = (text: string) => Buffer.from(body).indexOf(text);
    assert.equal(jsonPathAt(body, at('/b')), 'pathnames[1]');
    assert.equal(jsonPathAt(body, at('post')), 'keys[0]');
    assert.equal(jsonPathAt(body, at('"v"') + 1), 'o.k');
    assert.equal(jsonPathAt(body, at('keys')), 'a field name in the body');
    assert.equal(jsonPathAt(body, at('k":')), 'a field name in o');
  });

  it('gives undefined between values and in a bare string', () => {
    assert.equal(jsonPathAt(bytes('{"a": 1}'), 6), undefined);
    assert.equal(jsonPathAt(bytes('"text"'), 2), undefined);
  });

  it('reads an escaped quote as part of its string', () => {
    const body = bytes('{"a":["x\\"y", "z"]}');
    assert.equal(jsonPathAt(body, body.length - 4), 'a[1]');
  });
});

describe('jsonUtf8Problem', () => {
  it('names the field and the byte when a purge body holds a bad one', () => {
    assert.equal(jsonUtf8Problem(bytes('{"pathnames":["/utf8-a","/utf8-a', [0xff], '"]}')), 'pathnames[1] is not valid UTF-8 (byte 32 of the body)');
    assert.equal(jsonUtf8Problem(bytes('{"keys":["post:', [0xc3], '"]}')), 'keys[0] is not valid UTF-8 (byte 15 of the body)');
  });

  it('names the body when the bad byte is outside any string, and nothing when all is UTF-8', () => {
    assert.equal(jsonUtf8Problem(bytes('{', [0xff], '}')), 'the body is not valid UTF-8 (byte 1 of the body)');
    assert.equal(jsonUtf8Problem(bytes('{"pathnames":["/caf\u00e9"]}')), undefined);
  });
});
