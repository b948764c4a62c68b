import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { escapeHtml } from './html-escape.js';

describe('escapeHtml', () => {
  it('escapes every character that could open markup or end an attribute', () => {
    assert.equal(escapeHtml(`<a href="x" onclick='y'>&</a>`), '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (text) => {
        assert.doesNotMatch(escapeHtml(text), /[<>"']/);
      }),
    );
  });
});
