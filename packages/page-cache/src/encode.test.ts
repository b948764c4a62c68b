import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeChunk } from './encode.js';

const ownsItsMemory = (buffer: Buffer) => buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.length;

describe('encodeChunk', () => {
  it('gives the bytes Buffer.from gives when the text is any UTF-16, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), maxLength: 3 }), (text, surrogates) => {
        const chunk = text + surrogates + text;
        assert.deepEqual(encodeChunk(chunk, 'utf8'), Buffer.from(chunk, 'utf8'));
      }),
    );
  });

  it('returns a buffer of exactly the encoded length that owns its memory when the chunk is UTF-8', () => {
    const encoded = encodeChunk('Peterbe.com — latest posts, 日本語 and 🎉', 'utf8');
    assert.equal(encoded.length, Buffer.byteLength('Peterbe.com — latest posts, 日本語 and 🎉'));
    assert.ok(ownsItsMemory(encoded));
  });

  it('does not share memory between chunks when encoded one after another', () => {
    const first = encodeChunk('first page', 'utf8');
    const second = encodeChunk('second page, longer', 'utf-8');
    assert.equal(first.toString(), 'first page');
    assert.equal(second.toString(), 'second page, longer');
    assert.notEqual(first.buffer, second.buffer);
  });

  it('encodes a chunk too large for the scratch space whole when it is over a megabyte', () => {
    const large = 'é'.repeat(600_000);
    const encoded = encodeChunk(large, 'utf8');
    assert.equal(encoded.length, 1_200_000);
    assert.equal(encoded.toString('utf8'), large);
  });

  it('honours the encoding the renderer named when it is not UTF-8', () => {
    assert.deepEqual(encodeChunk('6869', 'hex'), Buffer.from('hi'));
    assert.deepEqual(encodeChunk('aGk=', 'base64'), Buffer.from('hi'));
    assert.deepEqual(encodeChunk('é', 'latin1'), Buffer.from([0xe9]));
  });
});
