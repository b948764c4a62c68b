import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { groupsOf, termsOf } from './index.js';

describe('word splitting', () => {
  it('gives an identifier its whole, then its parts, as word_delimiter_graph with preserve_original and catenate_all', () => {
    const table: [string, string][] = [
      ['getElementById', 'getelementbyid get element by id'],
      ['Array.prototype.map()', 'arrayprototypemap array prototype map'],
      ['HTMLParser', 'htmlparser html parser'],
      ['iperf3 svg2png rabin2', 'iperf3 iperf 3 svg2png svg 2 png rabin2 rabin 2'],
      ['std::vector', 'stdvector std vector'],
      ['Document.getElementById', 'documentgetelementbyid document getelementbyid get element by id'],
      ['snake_case well-known 2026-11-23', 'snakecase snake case wellknown well known 20261123 2026 11 23'],
      ['Hello world. The end', 'hello world the end'],
      ['--flag a..b end. a:b a::', 'flag a b end a b a'],
      ['Café—naïve', 'cafe naive'],
    ];
    for (const [text, terms] of table) assert.equal(termsOf(text).join(' '), terms, text);
  });

  it('keeps the whole identifier and yields each of its parts, however they are joined (property)', () => {
    // One-letter parts in camel case read as an acronym (`aAA` is `a`, `AA`), as word_delimiter_graph reads them.
    const part = fc.stringMatching(/^[a-z]{2,6}$/);
    const join = fc.constantFrom('camel', '.', '_', '-', '::');
    fc.assert(
      fc.property(fc.array(part, { minLength: 2, maxLength: 5 }), join, (parts, how) => {
        const identifier = how === 'camel'
          ? parts.map((word, i) => (i === 0 ? word : `${word.charAt(0).toUpperCase()}${word.slice(1)}`)).join('')
          : parts.join(how);
        const [group, ...others] = groupsOf(`see ${identifier} here`).slice(1, -1);
        assert.equal(others.length, 0);
        assert.ok(group !== undefined);
        assert.equal(group.whole, parts.join(''));
        assert.deepEqual(group.parts, parts);
        assert.equal(identifier.slice(0, 0) + `see ${identifier} here`.slice(group.start, group.end), identifier);
      }),
    );
  });

  it('splits letters from digits and leaves a plain word whole (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{2,8}$/), fc.integer({ min: 0, max: 999 }), (letters, number) => {
        assert.deepEqual(termsOf(`${letters}${number}`), [`${letters}${number}`, letters, String(number)]);
        assert.deepEqual(termsOf(letters), [letters]);
      }),
    );
  });
});
