import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isSafeFragment as serverRule } from '../policy/highlight-fragments.js';
import { fragmentParts, isSafeFragment } from './fragment-nodes.js';

describe('fragmentParts', () => {
  it('trusts exactly the fragments highlight.ts calls safe when given any mix of text, entities and tags', () => {
    const piece = fc.constantFrom('<mark>', '</mark>', '&amp;', '&lt;', '&#39;', '&', '<', '>', '"', "'", '<b>', 'a', ' ', 'é');
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string())).map((parts) => parts.join('')), (html) => {
        assert.equal(isSafeFragment(html), serverRule(html));
      }),
    );
  });

  it('splits marked and unmarked text and unescapes it when the fragment is safe', () => {
    assert.deepEqual(fragmentParts('a &lt;b&gt; <mark>c&amp;d</mark>'), [
      { text: 'a <b> ', marked: false },
      { text: 'c&d', marked: true },
    ]);
    assert.deepEqual(fragmentParts('<img src=x>'), [{ text: '<img src=x>', marked: false }]);
  });
});
