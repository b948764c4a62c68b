import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { scriptJson } from './document.js';

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
