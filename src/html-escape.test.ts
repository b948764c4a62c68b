import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { escapeHtml } from './html-escape.js';
import { MARK_CLOSE, MARK_OPEN, markedTitle } from './search/test-support/marked.js';

describe('escapeHtml', () => {
  it('escapes every character that could open markup or end an attribute', () => {
    assert.equal(escapeHtml(`<a href="x" onclick='y'>&</a>`), '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (text) => {
        assert.doesNotMatch(escapeHtml(text), /[<>"']/);
      }),
    );
  });

  it('escapes marked text and keeps only <mark> from markers', () => {
    assert.deepEqual(markedTitle(`<b>${MARK_OPEN}x${MARK_CLOSE}</b> & "q"`), ['&lt;b&gt;<mark>x</mark>&lt;/b&gt; &amp; &quot;q&quot;']);
  });
});
