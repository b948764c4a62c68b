import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { escapeHtml, scriptJson } from './document.js';

describe('scriptJson', () => {
  it('never lets a string close the script element, and parses back to the same value', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const json = scriptJson({ text: `${text}</script><!--` });
        assert.equal(/<\/?script|<!--/i.test(json), false);
        assert.deepEqual(JSON.parse(json), { text: `${text}</script><!--` });
      }),
    );
  });
});

describe('escapeHtml', () => {
  it('escapes every character that could open markup or end an attribute', () => {
    assert.equal(escapeHtml(`<a href="x" onclick='y'>&</a>`), '&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;&#60;/a&#62;');
  });
});
